"""The shared task families on the science lab: a recipe entry with `science:` builds
true/false projection, executability, applicability and progression rows over a
task's variations (multiple-choice projection is refused on boil: its facts allow no
four-option sets, and weighted options would tell the answer); every label
holds when the row's commands are replayed in a fresh simulator, and every question
names only what its context shows."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
import yaml

import racbench
from racbench.errors import InputError
from racbench.export.layout import read_columns, split_files
from racbench.worlds.science.env import ScienceEnv
from racbench.worlds.science.lab import LEFT_OUT_VERBS
from racbench.worlds.science.parser import parse
from racbench.worlds.science.registry import get_task

# (family, form): bool rows over two train variations and one test variation
CONFIGS = (("projection", "bool"), ("executability", "bool"), ("applicability", "bool"),
           ("progression", "bool"))
BOOL_PROBLEMS = {"train": [0, 1], "test": [25]}
# where the row's context stops showing the state and starts telling the actions
ACTIONS_START = ("Consider the sequence of actions", "Suppose the following action")


def _recipe(configs, train=8, test=4) -> dict:
    entries = []
    for family, form in configs:
        entry = {"name": f"boil_{family}_{form}", "family": family, "form": form,
                 "science": "boil", "splits": {"train": train, "test": test}}
        if form == "bool":
            entry["problems"] = BOOL_PROBLEMS
        entries.append(entry)
    return {"name": "lab", "seed": 3, "configs": entries}


@pytest.fixture(scope="module")
def lab_build(tmp_path_factory) -> Path:
    """One build of CONFIGS in this process (whatever its hash seed), shared by the tests."""
    root = tmp_path_factory.mktemp("lab")
    (root / "lab.yaml").write_text(yaml.safe_dump(_recipe(CONFIGS)))
    racbench.build(str(root / "lab.yaml"), root / "out", workers=1)
    return root


@pytest.fixture(scope="module")
def lab_rows(lab_build):
    root = lab_build
    return {config: {split: [row for path in paths for row in read_columns(path).to_pylist()]
                     for split, paths in split_files(root / "out" / f"boil_{config[0]}_{config[1]}").items()}
            for config in CONFIGS}


def _replay(sym: dict) -> ScienceEnv:
    """A fresh simulator stepped through the row's history, each command checked valid."""
    env = ScienceEnv(sym["task"], sym["variation"], sym["simplifications"])
    info = env.reset()[1]
    for command in sym["history"]:
        assert command in info["valid_actions"], command
        info = env.step(command)[4]
    return env, info


def _runs(env: ScienceEnv, info: dict, commands: list[str]) -> bool:
    for command in commands:
        # the simulator refuses everything once the episode is over, for a reason the
        # context does not show: questions never type commands there
        assert not env.finished, f"{command!r} typed after the episode ended"
        if command.startswith(LEFT_OUT_VERBS) or command not in info["valid_actions"]:
            return False
        info = env.step(command)[4]
    return True


def _holds(env: ScienceEnv, literals: list[dict]) -> bool:
    facts = set(env.facts())
    return all((tuple(lit["atom"]) in facts) == lit["positive"] for lit in literals)


def _queries(sym: dict) -> list[list[dict]]:
    """A row's questions as literal lists: its subject (bool), or each option (mc)."""
    if sym["form"] == "mc":
        return [[{"atom": option, "positive": True}] for option in sym["options"]]
    if sym["family"] == "progression":
        return [[{"atom": sym["subject"], "positive": True}]]
    return [sym["subject"]]


def test_every_label_holds_in_a_fresh_simulator(lab_rows):
    for (family, form), splits in lab_rows.items():
        for split, rows in splits.items():
            assert rows, (family, form, split)
            for row in rows:
                sym = json.loads(row["symbolic"])
                assert sym["world"] == "science" and sym["family"] == family
                env, info = _replay(sym)
                commands = [a[0] for a in sym.get("actions", [])]
                if family == "applicability":
                    (command,) = sym["subject"]
                    truths = [command in info["valid_actions"]]
                elif family == "executability":
                    truths = [_runs(env, info, commands)]
                else:
                    assert _runs(env, info, commands), row["id"]
                    assert family == "projection" or len(commands) == 1, row["id"]
                    truths = [_holds(env, query) for query in _queries(sym)]
                if form == "mc":
                    assert truths == [i == row["answer_index"] for i in range(4)], row["id"]
                else:
                    assert row["answer"] == ("true" if row["label"] else "false")
                    assert truths == [bool(row["label"])], (row["id"], row["question"])


def test_lab_executability_negatives_fail_by_a_command_that_ran_on_the_way(lab_rows):
    """An executability negative fails at some step by a command that ran at an earlier
    state of the way there and does not run there: the lab draws them among the commands
    valid on the way (walks from other states named only shown things and failed one
    time in twenty-five, two thirds of a survey's CPU). The failing step is drawn
    uniformly, so the first command alone does not give the answer away: positives'
    first commands always run, and some negatives' do too."""
    failing_at = []
    for rows in lab_rows[("executability", "bool")].values():
        for row in rows:
            if row["label"]:
                continue
            sym = json.loads(row["symbolic"])
            env = ScienceEnv(sym["task"], sym["variation"], sym["simplifications"])
            info, earlier = env.reset()[1], set()
            for command in sym["history"]:
                earlier.update(info["valid_actions"])
                info = env.step(command)[4]
            for at, (command,) in enumerate(sym["actions"]):
                if command not in info["valid_actions"]:
                    break
                earlier.update(info["valid_actions"])
                info = env.step(command)[4]
            else:
                raise AssertionError(f"{row['id']}: a negative runs through")
            assert command in earlier, row["id"]
            failing_at.append(at)
    assert 0 in failing_at and any(at > 0 for at in failing_at), failing_at


def test_lab_executability_negatives_fail_at_every_step_alike():
    """Over many draws of boil's two-command negatives, as many fail at the second
    command as at the first (a negative that always failed at its first command, while
    no positive does, was answered by reading one command)."""
    import random

    from racbench.tasks.executability import failing_walk
    from racbench.worlds.science.lab import lab

    world = lab("boil", 0, "easy")
    rng = random.Random(7)
    sid = world.gold()[:6]
    refused = world.inapplicable(sid)
    counts = [0, 0]
    for _ in range(60):
        plan = failing_walk(world, rng, sid, 2, None, refused)
        if plan is None:
            continue
        counts[world.execute(sid, plan)[1]] += 1
    assert min(counts) >= 0.3 * sum(counts) > 0, counts

def test_a_run_of_lab_executability_rows_draws_its_first_verbs_as_the_cells_hold_them():
    """Hard's executability on lifespan-shortest-lived (one variation): a stream's first
    block of 64 rows takes 32 of the 67 verb triples offered, and begins each with a
    verb about as often as the cells do (no verb's share more than .2 from its share of
    the cells). By name the block took the first 32 ("close", then all 18 "connect"...),
    and 36 of its 64 rows began with a connection against 18 of 67 cells: a run of rows
    mostly asking whether a connection runs (issue 32)."""
    from dataclasses import replace

    from racbench.training.levels import level_config
    from racbench.training.stream import BLOCK, SPLIT

    cfg = level_config("executability", "hard", "science/lifespan-shortest-lived")
    made = replace(cfg, problems={SPLIT: ["0"]}).validate().rows("lab_hard", 0, (SPLIT,))
    (group,) = made.groups[SPLIT]
    cells = Counter(kind[0] for _, kind in group)
    block = Counter(made.target_for(SPLIT, code).cell[1][0] for code in range(BLOCK))
    assert len(group) > BLOCK // 2 and cells["connect"] > 0
    for verb, n in cells.items():
        assert abs(block[verb] / BLOCK - n / len(group)) <= 0.2, (verb, block, cells)


def _things(env: ScienceEnv, sym: dict) -> list:
    """Every thing and room the row's question (and, for executability, its sequence)
    speaks of, read at the row's state: facts by their arguments, commands by what they
    parse to there."""
    if sym["family"] in ("projection", "progression"):
        return [env.world.things[int(a.rsplit("#", 1)[1])] for query in _queries(sym)
                for literal in query for a in literal["atom"][1:] if "#" in str(a)]
    commands = sym["subject"] if sym["family"] == "applicability" else [a[0] for a in sym["actions"]]
    things = []
    for command in commands:
        found = parse(command, env.scope).candidates
        assert len(found) == 1, f"{command!r} names what the state does not show"
        things += [a[0] if isinstance(a, tuple) else a for a in found[0].args
                   if not isinstance(a, int)]
    return things


def test_questions_name_only_what_the_context_shows(lab_rows):
    """A label the text does not support is a wrong label: the state the context shows
    (before its actions) names every thing and room the question asks about (a door by
    the rooms it joins)."""
    checked = Counter()
    for config, splits in lab_rows.items():
        for rows in splits.values():
            for row in rows:
                sym = json.loads(row["symbolic"])
                env, _ = _replay(sym)
                state = row["context"]
                for start in ACTIONS_START:
                    state = state.split(start)[0]
                for thing in _things(env, sym):
                    for name in ([r.name for r in thing.rooms] if thing.kind == "door"
                                 else [thing.name]):
                        assert name in state, (row["id"], name, row["question"])
                        checked[config] += 1
    assert all(checked[config] for config in CONFIGS), checked


def test_questions_name_the_subjects_own_doors(lab_rows):
    """A fact's door is phrased by the rooms that door joins in the row's own variation
    (once, a process's first variation named every later one's doors)."""
    checked = 0
    for config, splits in lab_rows.items():
        if config[0] not in ("projection", "progression"):
            continue
        for rows in splits.values():
            for row in rows:
                sym = json.loads(row["symbolic"])
                env, _ = _replay(sym)
                asked = row["question"] + " ".join(row["choices"])
                for thing in _things(env, sym):
                    if thing.kind == "door":
                        a, b = (r.name for r in thing.rooms)
                        assert f"door between the {a} and the {b}" in asked, (row["id"], asked)
                        checked += 1
    assert checked


def test_labels_are_balanced_and_variations_stay_in_their_split(lab_rows):
    for (family, form), splits in lab_rows.items():
        for split, rows in splits.items():
            answers = Counter(r["answer"] for r in rows)
            shares = ("true", "false") if form == "bool" else ("A", "B", "C", "D")
            assert answers == {a: len(rows) // len(shares) for a in shares}, (family, form)
            variations = {json.loads(r["symbolic"])["variation"] for r in rows}
            assert all(get_task("boil").split_of(v) == split for v in variations)
            assert form != "bool" or variations <= set(BOOL_PROBLEMS[split])


def test_rows_are_phrased_from_templates_not_ids(lab_rows):
    for splits in lab_rows.values():
        for rows in splits.values():
            for row in rows:
                assert "#" not in row["context"] + row["question"], row["id"]
                assert row["context"].startswith("Currently: "), row["id"]
                shown = row["context"].removeprefix("Currently: ").split("\n")
                history = json.loads(row["symbolic"])["history"]
                if history:  # the commands typed to reach the state, in order, then the room
                    typed = shown.pop(0)
                    assert typed.startswith("The commands typed so far, in order: "), row["id"]
                    told = [c for c, n in re.findall(r'"([^"]*)"(?: \((\d+) times in a row\))?',
                                                     typed) for _ in range(int(n or 1))]
                    assert told == history, row["id"]
                assert shown[0].startswith(("This room is called",
                                            "This outdoor place is called")), row["id"]
                assert len(set(row["choices"])) == len(row["choices"]), row["id"]


# rebuilt under another hash seed: two bool surveys (cells), not the slow executability
# one (its walks are the lab's, which these take too)
REBUILT = ("boil_applicability_bool", "boil_progression_bool")


def test_lab_rows_are_the_same_bytes_under_any_hash_seed_and_workers(lab_build):
    """The CLI under a hash seed other than this process's, on two workers, writes the
    fixture's bytes (made by one: the surveys behind the rows iterate sets and dicts of
    things, and a process's labs serve every config it builds)."""
    other = "1" if os.environ.get("PYTHONHASHSEED") == "0" else "0"
    out = lab_build / f"out-hash-seed-{other}"
    subprocess.run([sys.executable, "-m", "racbench.cli", "build", str(lab_build / "lab.yaml"),
                    "--out", str(out), "--configs", ",".join(REBUILT), "--workers", "2",
                    "--quiet"], check=True, env={**os.environ, "PYTHONHASHSEED": other},
                   timeout=900)
    digests = [{str(p.relative_to(root)): hashlib.blake2b(p.read_bytes()).hexdigest()
                for name in REBUILT for p in sorted((Path(root) / name).rglob("*.parquet"))}
               for root in (lab_build / "out", out)]
    assert digests[0] == digests[1] and len(digests[0]) == 2 * len(REBUILT)


@pytest.mark.parametrize("entry,needle", [
    ({"family": "projection", "form": "open"}, "true/false"),
    # over two of boil's train variations (its whole split of 14 refuses alike, at four
    # times the CPU): no four-option sets, and in neither do 200 surveyed situations
    # give weighted options the fit can balance
    ({"family": "projection", "form": "mc", "problems": BOOL_PROBLEMS},
     "options alone would not tell"),
    ({"family": "applicability", "form": "mc"}, "multiple-choice ones of projection;"),
    ({"family": "progression", "form": "mc"}, "multiple-choice ones of projection;"),
    ({"family": "landmarks"},
     "projection, executability, planning, goal_recognition, applicability, progression"),
    ({"family": "projection", "problems": {"train": [25]}}, "test split"),
    ({"family": "projection", "problems": {"test": [999]}}, "variations"),
    ({"family": "projection", "domain": "gripper"}, "not both"),
    ({"family": "projection", "science": "no-such-task"}, "no-such-task"),
])
def test_bad_lab_entries_are_refused_by_name(tmp_path, entry, needle):
    config = {"name": "bad", "science": "boil", "splits": {"train": 2, "test": 2}, **entry}
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump({"name": "bad", "configs": [config]}))
    with pytest.raises(InputError, match="(?s)" + needle.replace("/", ".")):
        racbench.build(str(path), tmp_path / "out", workers=1)
    assert not (tmp_path / "out").exists()


def test_lab_surveys_of_many_kinds_stay_within_the_budget(monkeypatch):
    """An executability survey meets a hundred verb sequences at length 2: its draws
    confirming rare ones stay within the lab's budget per length (at 60 draws for each
    answer of each they were nine tenths of a survey). Planning, one kind a length,
    keeps every draw it had: its survey is the same as without a budget."""
    from racbench.splits.seeding import derive_seed
    from racbench.tasks import FAMILIES, balance
    from racbench.tasks.config import TaskConfig
    from racbench.worlds.science.lab import ScienceLab, lab

    world = lab("boil", 21, "easy")
    draws = _counting(monkeypatch)
    cfg = TaskConfig("executability", science="boil", simplifications="easy", lengths=(1, 2),
                     problems={"test": ("21",)}).validate()
    cells = balance.survey_cells(FAMILIES["executability"].bool_pool, world, cfg, 7, 1, True)
    assert 0 < draws["sampling"] <= 2 * balance.SURVEY_DRAWS  # settled sampling stops sooner
    assert 0 < draws["confirming"] <= 2 * ScienceLab.confirm_budget
    assert any(length == 2 for length, _ in cells.offered)

    planning = FAMILIES["planning"]
    cfg = TaskConfig("planning", science="boil", simplifications="easy", lengths=(1, 2),
                     problems={"test": ("21",)}).validate()
    seed = derive_seed("cells", "boil_planning", world.label)  # the recipe's: it confirms
    budgeted = balance.survey_cells(planning.bool_pool, world, cfg, seed, 2, True)
    monkeypatch.setattr(ScienceLab, "confirm_budget", None)
    assert balance.survey_cells(planning.bool_pool, world, cfg, seed, 2, True) == budgeted


def _counting(monkeypatch) -> Counter:
    """Draws of the surveys made from here on: situations sampled, and confirming ones."""
    from racbench.tasks import balance

    draws = Counter()
    drawn = balance._drawn

    def counted(make_pool, *args):
        draws["confirming" if len(args) > 3 else "sampling"] += 1
        return drawn(make_pool, *args)

    monkeypatch.setattr(balance, "_drawn", counted)
    return draws


def test_lab_surveys_are_sized_by_the_rows_asked(monkeypatch):
    """A config asking a variation for a row or two surveys survey_draws_min situations
    at each length, not SURVEY_DRAWS (a build at scale 0.02 surveyed as much as one at
    scale 1); many rows, or rows not known, survey them all. The confirming draws are
    cut the more (at most survey_confirms_per_draw a situation)."""
    from racbench.tasks import FAMILIES, balance
    from racbench.tasks.config import TaskConfig
    from racbench.worlds.science.lab import ScienceLab, lab

    world = lab("boil", 21, "easy")
    cfg = TaskConfig("executability", science="boil", simplifications="easy", lengths=(1,),
                     problems={"test": ("21",)}).validate()
    pool = FAMILIES["executability"].bool_pool
    sampled = {}
    for rows in (1, 1000, None):
        draws = _counting(monkeypatch)
        cells = balance.survey_cells(pool, world, cfg, 7, 1, True, rows)
        assert cells.offered, rows
        sampled[rows] = draws["sampling"]
        # a survey finding no cell grows (its draws kept), one settled stops sooner
        assert draws["sampling"] <= (2 * ScienceLab.survey_draws_min if rows == 1
                                     else balance.SURVEY_DRAWS), rows
        assert draws["confirming"] <= (ScienceLab.confirm_budget if rows != 1 else
                                       ScienceLab.survey_confirms_per_draw * 2
                                       * ScienceLab.survey_draws_min)
    assert sampled[1] < sampled[1000] == sampled[None]


def test_a_lab_survey_stops_once_settled(monkeypatch):
    """Projection on boil finds cells in its first situations: sampling a length stops
    once ScienceLab.survey_settled draws in a row offer no new cell, far short of the
    full SURVEY_DRAWS it made whatever it had found; and it stops at the same draw when
    made again (the rule reads the draws only)."""
    from racbench.tasks import FAMILIES, balance
    from racbench.tasks.config import TaskConfig
    from racbench.worlds.science.lab import lab

    world = lab("boil", 21, "easy")
    cfg = TaskConfig("projection", science="boil", simplifications="easy", lengths=(1, 2),
                     problems={"test": ("21",)}).validate()
    made = []
    for _ in range(2):
        draws = _counting(monkeypatch)
        cells = balance.survey_cells(FAMILIES["projection"].bool_pool, world, cfg, 7, 1)
        made.append((cells, draws["sampling"]))
    assert made[0][0].offered and made[0] == made[1]
    assert made[0][1] < balance.SURVEY_DRAWS  # both lengths together: under one's full survey


def test_lab_surveys_are_seeded_by_what_they_are_about():
    """Two configs asking the same family of the same variation survey it alike,
    whatever they are called (one survey's draws serve both); another family's differs."""
    from racbench.tasks.config import TaskConfig
    from racbench.tasks.rows import ConfigRows

    def probed(name, family):
        cfg = TaskConfig(family, science="boil", simplifications="easy", lengths=(1,),
                         problems={"test": ("21",)})
        return ConfigRows.loaded(name, cfg, 0, {"test": 2}).probe_part(("test", 0))

    first = probed("boil_projection", "projection")
    assert first.offered
    assert probed("my_boil_questions", "projection") == first
    assert probed("boil_projection", "executability") != first


def test_a_lab_survey_finding_no_cell_is_made_larger(monkeypatch):
    """Executability at length 3 on boil's variation 3 ("easy" simplifications): the
    situations four rows would survey show no cell, and the build refused such a config;
    the survey is made twice as large until it finds some, keeping the situations it has
    drawn."""
    from racbench.splits.seeding import derive_seed
    from racbench.tasks import FAMILIES, balance
    from racbench.tasks.config import TaskConfig
    from racbench.worlds.science.lab import ScienceLab, lab

    world = lab("boil", 3, "easy")
    cfg = TaskConfig("executability", science="boil", lengths=(3,), simplifications="easy",
                     problems={"train": ("3",)}).validate()
    args = (FAMILIES["executability"].bool_pool, world, cfg,
            derive_seed("cells", "boil_executability_bool", world.label), 1, True)
    assert not balance._survey_cells(*args, ScienceLab.survey_draws_min).offered
    draws = _counting(monkeypatch)
    assert balance.survey_cells(*args, rows=4).offered
    assert draws["sampling"] > 2 * ScienceLab.survey_draws_min
    # grown from 20 to 40 to 80 situations, its draws kept: drawn again, 20 + 40 + 80
    assert draws["sampling"] <= 4 * 4 * ScienceLab.survey_draws_per_row


def test_a_build_tells_each_lab_survey_the_rows_asked_and_lets_the_labs_go():
    """The rows a split asks are shared by its variations (what sizes their surveys);
    released worlds let the labs go (a build of thirty tasks kept every lab)."""
    from racbench.tasks.config import TaskConfig
    from racbench.tasks.rows import ConfigRows, release_worlds
    from racbench.worlds.science.lab import lab

    cfg = TaskConfig("projection", science="boil", problems={"train": ("0", "1"),
                                                             "test": ("25",)})
    rows = ConfigRows.loaded("boil_projection", cfg, 0, {"train": 8, "test": 2})
    assert [rows._rows_of(w) for w in rows.worlds["train"] + rows.worlds["test"]] == [4, 4, 2]
    assert ConfigRows.loaded("boil_projection", cfg, 0, ("train",))._rows_of(
        rows.worlds["train"][0]) is None
    before = lab("boil", 0, "")
    assert lab("boil", 0, "") is before
    release_worlds()
    assert lab("boil", 0, "") is not before


def test_lab_inapplicable_looks_each_name_up_once_and_answers_as_askable(monkeypatch):
    """A state's commands valid on the way there are read in its scope by the hundred,
    naming the same things again and again: each (scope, slot, words) is looked up once
    (parser.parse's `kept`), and the commands kept are those `askable` keeps, as a lab
    that looks each up every time finds them (boil's gold path, where rooms and what is
    held change)."""
    from racbench.worlds.science import parser
    from racbench.worlds.science.lab import ScienceLab

    states = [ScienceLab("boil", 0, "").gold()[:k] for k in (3, 6, 9)]
    reference = ScienceLab("boil", 0, "")
    want = []
    for state in states:
        here = set(reference.applicable(state))
        verbs = {reference.action_kind(c) for c in here}
        earlier = {c for n in range(len(state)) for c in reference.applicable(state[:n])}
        want.append(sorted(c for c in earlier - here if reference.action_kind(c) in verbs
                           and reference.askable(state, [c])))
    world = ScienceLab("boil", 0, "")
    looked_up = Counter()
    real = parser._resolve

    def counted(slot, words, scope):
        looked_up[(id(scope), slot, words)] += 1
        return real(slot, words, scope)

    for state, wanted in zip(states, want):
        for n in range(len(state) + 1):
            world.applicable(state[:n])  # the states listed first: only the reading counted
        looked_up.clear()
        monkeypatch.setattr(parser, "_resolve", counted)
        assert world.inapplicable(state) == wanted
        monkeypatch.setattr(parser, "_resolve", real)
        assert looked_up and max(looked_up.values()) == 1, looked_up.most_common(3)
    assert any(want), want
