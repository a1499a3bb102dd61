"""Generated rule worlds (racbench/worlds/rules/): the grammar, the manual, the splits by
rule combination, the oracle and the baseline, the gymnasium environment, and the rows
made of them: the task families' questions, next-observation rows and imitation rows
(re-derived from `symbolic`, replayed by verify, byte-identical with 1 and 2 workers and
under two hash seeds, bad recipe values refused)."""

from __future__ import annotations

import hashlib
import json
import random
import re
import os
import subprocess
import sys
from pathlib import Path

import gymnasium
import pytest
import yaml
from gymnasium.utils.env_checker import check_env

import racbench
import racbench.envs  # noqa: F401  (registers racbench/rules-v0)
from racbench.export.layout import read_columns, split_files
from racbench.worlds.rules.episode import WON, Episode
from racbench.worlds.rules.grammar import BASE_DEPTH, RuleOptions, draw_rules, vocab
from racbench.worlds.rules.oracle import baseline_wins, solve, wins
from racbench.worlds.rules.splits import _check, check_splits
from racbench.worlds.rules.text import manual_sentences
from racbench.worlds.rules.world import episode_from_symbolic, make_episode, split_world

SETTINGS = (RuleOptions.for_game("rtfm"),
            RuleOptions.for_game("rtfm", depth=4, irrelevant=4, entities=4, grid=5),
            RuleOptions.for_game("messenger", overlap=False),
            RuleOptions.for_game("messenger", overlap=False, entities=4, depth=3))
SPLITS = ("train", "validation", "test")
# how the manual's paraphrases say each behaviour and role (each only that one)
SAID = {"chases": ("chases you", "comes after you", "hunts you"),
        "flees": ("runs away", "flees from", "keeps away"),
        "stays": ("does not move", "stays where", "never moves"),
        "message": ("carries the message", "has the secret message", "message is with"),
        "goal": ("is the goal", "bring the message to", "is waiting for the message"),
        "enemy": ("is an enemy", "it is dangerous", "is hostile")}


def _rule_sets(opts, n=30):
    return [draw_rules(opts, split, random.Random(i)) for split in SPLITS for i in range(n)]


@pytest.mark.parametrize("opts", SETTINGS, ids=lambda o: f"{o.game}-{o.entities}-{o.depth}")
def test_the_grammar_draws_consistent_rules(opts):
    for rules in _rule_sets(opts):
        ents = rules.entities
        assert len(ents) == opts.entities and len({e.name for e in ents}) == len(ents)
        if rules.game == "rtfm":
            assert [e.team for e in ents].count(rules.target) == 1
            assert len({e.element for e in ents}) == len(ents)
            # every monster's element is beaten by exactly one item on the grid
            for e in ents:
                assert [i.modifier for i in rules.items].count(rules.beater(e.element)) == 1
        else:
            roles = sorted(e.role for e in ents)
            assert roles == sorted(["message", "goal"] + ["enemy"] * (len(ents) - 2))
        kinds = [s.kind for s in rules.statements]
        assert kinds.count("alias") == (opts.depth - BASE_DEPTH[opts.game]) * len(ents)
        assert sum(not s.relevant for s in rules.statements) == opts.irrelevant


@pytest.mark.parametrize("opts", SETTINGS, ids=lambda o: f"{o.game}-{o.entities}-{o.depth}")
def test_the_manual_says_every_rule(opts):
    for rules in _rule_sets(opts, 10):
        sentences = manual_sentences(rules)
        assert len(sentences) == len(rules.statements)
        for s, sentence in zip(rules.statements, sentences):
            assert sentence.endswith(".") and sentence[0].isupper(), sentence
            for arg in s.args:  # every reference, team, element, modifier, and the value
                said = SAID.get(arg, (arg,))
                assert any(w in sentence.lower() for w in said), (s, sentence)
        # every entity's chain ends in a statement of its team or role
        code = {s.args[1]: s.args[0] for s in rules.statements if s.kind == "alias"}
        refs = {r: n for n, r in rules.references}
        told = set()
        for s in rules.statements:
            if s.kind in ("member", "role") and s.relevant:
                ref = s.args[0]
                while ref in code:
                    ref = code[ref]
                told.add(refs[ref])
        assert told == {e.name for e in rules.entities}


def test_without_overlap_the_manual_shares_no_word_with_entity_names():
    v = vocab()
    names = {w for n in v["rtfm"]["monsters"] + v["messenger"]["entities"] for w in n.split()}
    for opts in SETTINGS:
        if opts.overlap:
            continue
        for rules in _rule_sets(opts):
            words = set(re.findall(r"[a-z]+", " ".join(manual_sentences(rules)).lower()))
            assert not words & names, words & names
    # with overlap, the manual names them
    rules = draw_rules(RuleOptions.for_game("messenger"), "train", random.Random(0))
    assert any(e.name in " ".join(manual_sentences(rules)) for e in rules.entities)


def test_no_held_out_assignment_is_in_train():
    for opts in SETTINGS[:3]:
        worlds = {split: [split_world(opts, split, 0, 12)] for split in SPLITS}
        assert check_splits(worlds) > 0
        train = {p for ep in worlds["train"][0].episodes for p in ep.rules.pairs()}
        for split in SPLITS[1:]:
            for ep in worlds[split][0].episodes:
                assert not set(ep.rules.pairs()) & train
        # a train episode slipped into test is caught
        with pytest.raises(racbench.errors.GenerationError, match="also in train"):
            _check(worlds["train"][0].episodes, {"test": worlds["train"][0].episodes[:1]})


def test_a_split_check_passed_once_still_catches_a_leak_in_other_worlds():
    opts = SETTINGS[0]
    worlds = {split: [split_world(opts, split, 0, 12)] for split in SPLITS}
    assert check_splits(worlds) == check_splits(dict(worlds)) > 0  # the second remembered
    leaky = dict(worlds, test=[split_world(opts, "train", 0, 3)])
    for _ in range(2):  # a refused check is never remembered as passed
        with pytest.raises(racbench.errors.GenerationError, match="also in train"):
            check_splits(leaky)


@pytest.mark.parametrize("opts", SETTINGS[:3], ids=lambda o: f"{o.game}-{o.entities}")
def test_remembered_moves_and_facts_are_the_episodes_own(opts, monkeypatch):
    """What a world remembers of a state (its moves, the states after them, its facts,
    the states along the plan) is what the episode's dynamics say afresh, also once
    the memory has started afresh (a small REMEMBERED forces it)."""
    import racbench.worlds.rules.world as rule_world
    monkeypatch.setattr(rule_world, "REMEMBERED", 7)
    world = split_world(opts, "validation", 0, 6)
    fresh = [Episode(ep.rules, ep.episode.layout) for ep in world.episodes]
    for ep, dynamics in zip(world.episodes, fresh):
        states = [dynamics.start]
        for move in ep.plan:
            states.append(dynamics.step(states[-1], move))
        assert ep.plan_states == states and states[-1][6] == WON
    rng = random.Random(3)
    state = world.initial
    for _ in range(2000):
        raw, dynamics = state[1], fresh[state[0]]
        moves, nexts = world.succ(state)
        assert list(moves) == dynamics.applicable(raw) == world.applicable(state)
        assert [n[1] for n in nexts] == [dynamics.step(raw, a) for a in moves]
        for a in ("up", "down", "left", "right", "stay", "jump"):
            got = world.step(state, a)
            assert (got and got[1]) == dynamics.step(raw, a)
        assert world.facts(state) == dynamics.facts(raw)
        state = rng.choice(nexts) if nexts and rng.random() < 0.9 else world.sample_state(rng)


@pytest.mark.parametrize("opts", SETTINGS, ids=lambda o: f"{o.game}-{o.entities}-{o.depth}")
def test_the_oracle_wins_every_episode_and_the_baseline_seldom(opts):
    plays = baseline = 0
    for split in SPLITS:
        for i in range(8):
            ep = make_episode(opts, split, 0, i)
            fresh = Episode(ep.rules, ep.episode.layout)  # rebuilt from its parts
            assert wins(fresh, ep.plan)
            for k in range(3):
                plays += 1
                baseline += baseline_wins(fresh, random.Random(k))
    assert baseline / plays < 0.4


def test_the_oracle_plan_wins_in_a_fresh_gym_env():
    for game, knobs in (("rtfm", {}), ("messenger", {"overlap": False})):
        env = gymnasium.make("racbench/rules-v0", game=game, split="test", episode=2, **knobs)
        obs, info = env.reset(seed=0)
        assert obs["grid"].shape == (env.unwrapped.options.grid,) * 2
        assert info["manual"] in obs["text"] and info["goal"] in obs["text"]
        for move in info["oracle_plan"]:
            obs, reward, terminated, truncated, info = env.step(move)
        assert (reward, terminated, info["score"]) == (1.0, True, 1.0)
        assert make_episode(env.unwrapped.options, "test", 0, 2).plan == info["oracle_plan"]


def test_the_gym_env_passes_the_env_checker_and_refuses_bad_arguments():
    check_env(gymnasium.make("racbench/rules-v0", game="rtfm", episode=1).unwrapped)
    with pytest.raises(racbench.errors.InputError, match="grid must be an integer from 3 to 8"):
        gymnasium.make("racbench/rules-v0", game="rtfm", grid=40)
    with pytest.raises(racbench.errors.InputError, match="unknown argument"):
        gymnasium.make("racbench/rules-v0", game="rtfm", colour="red")


RECIPE = {"name": "rw", "seed": 2, "configs": [
    {"name": "rtfm_proj_bool", "family": "projection", "form": "bool", "rules": "rtfm",
     "rule_options": {"episodes": 4}, "splits": {"train": 12, "validation": 6, "test": 6}},
    {"name": "msg_exec_bool", "family": "executability", "form": "bool", "rules": "messenger",
     "rule_options": {"episodes": 4, "overlap": False},
     "splits": {"train": 12, "validation": 6, "test": 6}},
    {"name": "rtfm_first_mc", "family": "first_target", "form": "mc", "rules": "rtfm",
     "rule_options": {"episodes": 4, "entities": 4, "grid": 5},
     "splits": {"train": 8, "validation": 4, "test": 4}},
    {"name": "msg_first_open", "family": "first_target", "form": "open",
     "rules": "messenger", "rule_options": {"episodes": 4, "overlap": False},
     "splits": {"train": 4, "validation": 2, "test": 2}},
    {"name": "rtfm_proj_mc", "family": "projection", "form": "mc", "rules": "rtfm",
     "rule_options": {"episodes": 4}, "splits": {"train": 8, "validation": 4, "test": 4}},
    {"name": "rtfm_next_h2", "family": "next_observation", "rules": "rtfm",
     "rule_options": {"episodes": 4}, "horizon": 2, "distractors": 3,
     "splits": {"train": 8, "validation": 4, "test": 4}},
    {"name": "msg_next_bool", "family": "next_observation", "form": "bool",
     "rules": "messenger", "rule_options": {"episodes": 4, "overlap": False},
     "distractors": 2, "splits": {"train": 6, "validation": 2, "test": 2}},
    {"name": "bc-rtfm", "rules": "rtfm", "rule_options": {"episodes": 4},
     "rows": "behaviour_cloning", "history": 2, "valid_actions": True},
    {"name": "rc-messenger", "rules": "messenger",
     "rule_options": {"episodes": 4, "overlap": False}, "rows": "return_conditioned"},
    {"name": "gold-rtfm", "rules": "rtfm", "rule_options": {"episodes": 4},
     "valid_actions": True}]}
QUESTIONS = ("rtfm_proj_bool", "msg_exec_bool", "rtfm_first_mc", "msg_first_open",
             "rtfm_proj_mc")


def _digest(folder: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            h.update(str(path.relative_to(folder)).encode() + path.read_bytes())
    return h.hexdigest()


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("rules")
    (root / "rw.yaml").write_text(yaml.safe_dump(RECIPE))
    racbench.build(str(root / "rw.yaml"), root / "one", workers=1)
    # two workers, in another process under another hash seed
    subprocess.run([sys.executable, "-m", "racbench.cli", "build", str(root / "rw.yaml"),
                    "--out", str(root / "two"), "--workers", "2", "--quiet"], check=True,
                   env={**os.environ, "PYTHONHASHSEED": "7"})
    return root


def test_builds_are_byte_identical_with_one_and_two_workers_and_hash_seeds(built):
    assert _digest(built / "one") == _digest(built / "two")


def _rows_of(folder: Path, config: str) -> dict[str, list[dict]]:
    return {split: [r for p in paths for r in read_columns(p).to_pylist()]
            for split, paths in split_files(folder / config).items()}


def test_every_label_is_rederived_from_symbolic(built):
    from racbench.tasks.first_target import first_target
    for config in ("rtfm_proj_bool", "msg_exec_bool", "rtfm_first_mc"):
        for split, rows in _rows_of(built / "one", config).items():
            assert rows, (config, split)
            for row in rows:
                sym = json.loads(row["symbolic"])
                assert sym["world"] == "rules" and sym["episode"].split("-")[1] == split
                episode, state = episode_from_symbolic(sym)
                moves = [a[0] for a in sym.get("actions", [])]
                end, failed = episode.execute(state, moves)
                if config == "msg_exec_bool":
                    assert (failed is None) == bool(row["label"]), row["id"]
                elif config == "rtfm_proj_bool":
                    facts = episode.facts(end)
                    truth = all((tuple(l["atom"]) in facts) == l["positive"]
                                for l in sym["subject"])
                    assert failed is None and truth == bool(row["label"]), row["id"]
                else:
                    right = first_target(episode.rules)
                    assert sym["options"][row["answer_index"]] == right
                    assert row["choices"][row["answer_index"]] == right
                    # the oracle's shortest win from the row's state picks it up first
                    plan = solve(episode, state)
                    assert row["optimal_plan_length"] == len(plan)
                    after = episode.execute(state, plan)[0]
                    assert right in [i.name for i in episode.rules.items] and \
                        after[3] == [i.name for i in episode.rules.items].index(right)


def test_the_card_states_win_rates_per_split(built):
    card = (built / "one" / "README.md").read_text()
    assert "## Generated worlds" in card and "oracle wins (%)" in card
    for config in RECIPE["configs"]:  # every kind of row over rule worlds
        table = card.split(f"### {config['name']}\n")[1].split("###")[0]
        for split in SPLITS:
            assert re.search(rf"\| {split} \| 4 \| 100.0 \| [0-9.]+ \|", table), table
        assert "checked absent from train" in table


BAD = [
    ({"rules": "chess"}, "unknown rule world 'chess'; accepted: rtfm, messenger"),
    ({"rules": "rtfm", "rule_options": {"depth": 1}},
     "rule option 'depth' of rtfm must be an integer from 2 to 6, got 1"),
    ({"rules": "rtfm", "rule_options": {"colour": 1}}, "unknown rule option 'colour'"),
    ({"rules": "rtfm", "rule_options": {"episodes": 0}}, "rule option 'episodes'"),
    ({"rules": "rtfm", "rule_options": [3]}, "'rule_options' must map knobs"),
    ({"rules": "rtfm", "family": "planning"}, "a rule world asks true/false questions of"),
    ({"rules": "messenger", "family": "first_target", "form": "mc"},
     "give rule option 'entities' of at least 4"),
    ({"family": "first_target", "form": "mc", "domain": "gripper"},
     "asks about rule worlds only"),
]


def _bad_recipe(folder: Path, entry: dict) -> Path:
    config = {"name": "c", "family": "projection", "form": "bool", "splits": {"test": 4},
              **entry}
    (folder / "r.yaml").write_text(yaml.safe_dump({"name": "r", "configs": [config]}))
    return folder / "r.yaml"


@pytest.mark.parametrize("entry, message", BAD)
def test_bad_recipe_values_are_refused_with_a_clear_message(tmp_path, entry, message):
    with pytest.raises(racbench.errors.InputError, match=re.escape(message)):
        racbench.build(str(_bad_recipe(tmp_path, entry)), tmp_path / "out")
    assert not any(p.name != "r.yaml" for p in tmp_path.iterdir())


BAD_GOLD = [
    ({"rows": "trajectory", "history": 3}, "'history' is for rows: behaviour_cloning"),
    ({"rows": "steps"}, "unknown rows 'steps'; accepted: trajectory, behaviour_cloning"),
    ({"splits": {"test": 4}}, "unknown key 'splits' for a rule world's gold rows"),
    ({"rule_options": {"entities": 9}}, "rule option 'entities' of rtfm must be an integer"),
    ({"rule_options": {"episodes": True}}, "rule option 'episodes' (per split) must be"),
]


@pytest.mark.parametrize("entry, message", BAD_GOLD)
def test_bad_gold_rule_configs_are_refused_with_a_clear_message(tmp_path, monkeypatch, entry,
                                                                message):
    """Through click's runner in this process (the console script's code path: exit code
    and message; a process each paid Python's, racbench's and pyarrow's start); the test
    below runs the real CLI."""
    from click.testing import CliRunner

    from racbench.cli import main

    config = {"name": "g", "rules": "rtfm", **entry}
    (tmp_path / "r.yaml").write_text(yaml.safe_dump({"name": "r", "configs": [config]}))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["build", "r.yaml", "--out", "out"])
    assert result.exit_code == 2 and message in result.stderr, (result.output,
                                                                 result.exception)
    assert "Traceback" not in result.output and not (tmp_path / "out").exists()


def test_a_bad_recipe_value_exits_2_from_the_command_line(tmp_path):
    entry, message = BAD[1]
    _bad_recipe(tmp_path, entry)
    proc = subprocess.run([sys.executable, "-m", "racbench.cli", "build", "r.yaml", "--out",
                           "out"], capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 2 and message in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr and not (tmp_path / "out").exists()


def test_rows_won_states_say_so():
    world = split_world(SETTINGS[0], "train", 0, 3)
    ep = world.episodes[0]
    end, _ = ep.episode.execute(ep.start, ep.plan)
    assert end[6] == WON and ("won",) in ep.episode.facts(end)
    text = world.text()
    _, said = world.observe((0, ep.start), ep.plan[0], text)
    assert said and "nothing changes" not in said


def test_racbench_play_rules_wins_with_the_oracle_plan():
    import io

    from racbench.envs.play import play_rules
    plan = make_episode(RuleOptions.for_game("rtfm"), "validation", 0, 1).plan
    out = io.StringIO()
    score = play_rules("rtfm", "validation", 1, io.StringIO("\n".join(["actions"] + plan) + "\n"),
                       out)
    assert score == 1.0 and "You won." in out.getvalue() and "Manual:" in out.getvalue()


def test_verify_replays_rule_rows_and_catches_a_flipped_label(built, tmp_path,
                                                             flip_first_label):
    import shutil

    from racbench.checks.verify import verify_dataset

    report = verify_dataset(built / "one", optimal=False)
    assert report.ok and not report.mismatches and not report.skipped and not report.unchecked
    assert report.checked["label"] == sum(report.rows[c] for c in QUESTIONS)
    assert report.checked["option observation"] == sum(report.rows[c] for c in
                                                       ("rtfm_next_h2", "msg_next_bool"))
    assert report.checked["commands"] == sum(report.rows[c] for c in
                                             ("bc-rtfm", "rc-messenger", "gold-rtfm"))
    copy = tmp_path / "flipped"
    shutil.copytree(built / "one", copy)
    flipped = [flip_first_label(copy, c) for c in ("rtfm_proj_bool", "msg_next_bool")]
    report = verify_dataset(copy, configs=["rtfm_proj_bool", "msg_next_bool"], optimal=False)
    assert sorted(m.row_id for m in report.mismatches) == sorted(flipped)


def test_imitation_rows_are_the_oracles_play_and_verify_catches_a_change(built):
    from racbench.checks.verify.replay_imitation import check

    gold = _rows_of(built / "one", "gold-rtfm")
    bc = _rows_of(built / "one", "bc-rtfm")
    rc = _rows_of(built / "one", "rc-messenger")
    for split in SPLITS:
        assert len(gold[split]) == 4 and {r["split"] for r in gold[split]} == {split}
        for row in gold[split]:
            episode, _ = episode_from_symbolic({**json.loads(row["symbolic"]),
                                                "state": [0, [], [], -1, False, 0, 0]})
            plan = solve(episode)
            assert [s["action"] for s in row["steps"]] == plan and row["final_score"] == 1.0
            assert row["steps"][-1]["valid_actions"] == []  # the game is over
            steps = [r for r in bc[split] if r["id"].startswith(row["id"] + "/")]
            assert [r["action"] for r in steps] == plan
            assert all(r["task_description"] == row["task_description"] for r in steps)
            assert row["task_description"].startswith("Manual: ")
            # the size and walls, which decide which moves the oracle's play can make
            size = episode.size
            assert (f"The grid has {size} rows and {size} columns, walled all around"
                    in row["task_description"])
            assert steps[1]["history"] == [{"observation": steps[0]["observation"],
                                            "action": plan[0]}]
        # the reward still to come: 1 before the winning move, which is always the last
        assert {r["return_to_go"] for r in rc[split]} == {1}
    row = bc["test"][1]
    assert check(row).ok
    for key, value in (("action", "left" if row["action"] != "left" else "right"),
                       ("observation", "x"), ("split", "train"),
                       ("valid_actions", row["valid_actions"][:-1])):
        assert not check({**row, key: value}).ok, key
    sym = json.loads(row["symbolic"])
    sym["layout"]["agent"] = (sym["layout"]["agent"] + 1) % 16  # another episode
    assert not check({**row, "symbolic": json.dumps(sym)}).ok


def test_open_first_target_rows_are_scored_by_the_name_they_give(built):
    for row in _rows_of(built / "one", "msg_first_open")["test"]:
        names = json.loads(row["symbolic"])["rules"]["entities"]
        wrong = next(n[0] for n in names if n[0] != row["answer"])
        assert racbench.score(row, f"Answer: the {row['answer']}").value == 1.0
        assert racbench.score(row, f"I would go to the {wrong} first.").value == 0.0
        assert racbench.score(row, f"Either the {wrong} or the {row['answer']}.").parsed is False


def test_projection_mc_options_come_from_exact_sets_of_one_episode():
    """Options recur only within an episode: each episode is surveyed as its own world, so
    every split has exact option sets (each option the right one with probability 1/4)."""
    from racbench.tasks.config import TaskConfig
    from racbench.tasks.rows import ConfigRows
    cfg = TaskConfig(family="projection", form="mc", rules="rtfm",
                     rule_options=(("episodes", 3),))
    gen = ConfigRows("pm", cfg, 0, SPLITS)
    assert all(len(ws) == 3 and all(len(w.episodes) == 1 for w in ws)
               for ws in gen.worlds.values())
    assert gen._world_survey and all(s.exact for s in gen._world_survey.values())
    row = gen.row("test", 0, 2).columns
    assert row["problem"] == json.loads(row["symbolic"])["episode"]
