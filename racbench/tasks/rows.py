"""From an ACP config and a row position to a finished row.

`AcpConfigRows` loads the worlds of every split (one per problem file), probes which
problems can give each kind of row (both labels for bool rows, a question at all for
mc/open rows; problems that cannot are left out and listed in `excluded`), and then
makes any row independently of the others from (seed, config, split, index, attempt),
so rows can be made in any order by any number of workers with identical bytes.

Balance: a row's position code fixes its target. bool: label = code % 2 (exactly
50/50 per split when the split is even), and the kind of negative from the next digit;
mc: the correct option's index = code % 4 (letters balanced within one row). Rows of
families with pools (see balance.py) say nothing of their answer in the question: bool
rows draw the problem and the subject's kind before the label matters; mc rows take
four options each right in one situation and pick the situation after the options.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

from racbench import __version__
from racbench.generators.rows import GenerationError, Row
from racbench.splits.dedup import problem_key
from racbench.splits.seeding import derive_seed
from racbench.tasks.balance import Survey, survey_kinds, survey_options
from racbench.tasks.base import LETTERS, N_OPTIONS, Question, Target, goal_json
from racbench.tasks.config import SPLITS, AcpConfig
from racbench.tasks import FAMILIES
from racbench.tasks.schema import acp_features
from racbench.tasks.text import AcpText
from racbench.worlds.strips.world import MAX_STATES, StripsWorld, WorldTooLarge, world_for

SAMPLE_TRIES = 2000
KIND_TRIES = 400  # situations tried for one surveyed kind before drawing another
PROBE_TRIES = 40


class AcpConfigRows:
    def __init__(self, name: str, cfg: AcpConfig, seed: int, splits=SPLITS,
                 probed: tuple[dict, list] | None = None):
        """`probed` is a previous `probe_result()` of the same config (e.g. computed
        in a worker process); without it the problems are probed here."""
        self.name = name
        self.cfg = cfg.validate()
        self.seed = seed
        self.family = FAMILIES[cfg.family]
        self.features = acp_features()
        self.n_negative_kinds = max(1, len(self.family.negative_kinds))
        self.worlds: dict[str, list[StripsWorld]] = {}
        self.excluded: list[str] = []
        self.feasible: dict[tuple[str, Target], list[StripsWorld]] = {}
        self._texts: dict[int, AcpText] = {}
        self._world_survey: dict[int, Survey] = {}
        for split in splits:
            domain_file, problem_files = cfg.files(split)
            worlds = []
            for path in problem_files:
                try:
                    worlds.append(world_for(domain_file, path))
                except WorldTooLarge as exc:
                    if split in cfg.problems:  # asked for by name: refuse
                        raise GenerationError(f"config '{name}': {exc}") from None
                    self.excluded.append(f"{split}/{Path(path).stem}: more than "
                                         f"{MAX_STATES} states")
            self.worlds[split] = worlds
        if probed is None:
            probed = self.probe_result()
        feasible, excluded, *surveyed = probed
        # bool and mc rows of subject families: the kinds of subject each problem
        # offers with both answers, by (split, problem index); see common.Pool
        self.surveys: dict[tuple[str, int], Survey] = surveyed[0] if surveyed else {}
        self.excluded += excluded
        for (split, target), indices in feasible.items():
            ok = [self.worlds[split][i] for i in indices]
            if not ok:
                what = f"rows with {_target_text(target)}"
                if self._surveys_kinds and cfg.form == "bool":
                    what = ("true/false questions about a subject whose answer depends on "
                            "the state (in each, every subject has one answer whatever the "
                            "state, so the question alone would tell it)")
                elif self._surveys_kinds:
                    what = ("multiple-choice questions whose options could each be right "
                            "from some states and wrong from others (in each, no four "
                            "options are each right in one sampled situation and wrong in "
                            "the other three's, and some would be wrong whatever the state, "
                            "so the options alone would tell the answer)")
                raise GenerationError(
                    f"config '{name}': no problem of split '{split}' ("
                    f"{', '.join(w.label for w in self.worlds[split])}) gives {cfg.family} "
                    f"{what} on {cfg.domain_label}; choose other problems or another form")
            self.feasible[(split, target)] = ok
            if self._surveys_kinds:
                for i, w in zip(indices, ok):
                    self._world_survey[id(w)] = self.surveys[(split, i)]

    def probe_result(self) -> tuple[dict, list, dict]:
        """Which problems of each split can give each target, what was left out, and
        (bool rows about a subject) which kinds of subject each problem offers."""
        feasible, excluded, kinds = {}, [], {}
        if self._surveys_kinds:
            for split, worlds in self.worlds.items():
                for i, w in enumerate(worlds):
                    kinds[(split, i)] = self._survey(w)
            if self.cfg.form == "mc":
                # option sets (exact balance) if every split has a problem with them
                exact = all(any(kinds[(split, i)].has_sets for i in range(len(worlds)))
                            for split, worlds in self.worlds.items())
                for survey in kinds.values():
                    survey.exact = exact
        for split, worlds in self.worlds.items():
            if self._surveys_kinds:
                ok = [i for i in range(len(worlds)) if kinds[(split, i)].ok]
                why = "no subject whose answer depends on the state"
                if self.cfg.form == "mc" and kinds and next(iter(kinds.values())).exact:
                    why = "no four options each right in one situation and wrong in the others'"
                elif self.cfg.form == "mc":
                    why = "no options right from some states and wrong from others"
                excluded += [f"{split}/{w.label}: {why}"
                             for i, w in enumerate(worlds) if i not in ok]
                for target in self.targets():
                    feasible[(split, target)] = ok
                continue
            for target in self.targets():
                ok = [i for i, w in enumerate(worlds) if self._probe(w, target)]
                excluded += [f"{split}/{w.label}: no {_target_text(target)}"
                             for i, w in enumerate(worlds) if i not in ok]
                feasible[(split, target)] = ok
        return feasible, excluded, kinds

    @property
    def _surveys_kinds(self) -> bool:
        return self.family.pool_for(self.cfg.form) is not None

    def _survey(self, world: StripsWorld) -> Survey:
        make_pool = self.family.pool_for(self.cfg.form)
        if self.cfg.form == "mc":
            seed = derive_seed("acp-options", self.name, world.label)
            return survey_options(make_pool, world, self.cfg, seed)
        rng = random.Random(derive_seed("acp-kinds", self.name, world.label))
        return survey_kinds(make_pool, world, self.cfg, rng)

    # -- targets ------------------------------------------------------------------------
    def targets(self) -> list[Target]:
        form = self.cfg.form
        if form == "bool":
            return [Target("bool", True)] + [Target("bool", False, variant=v)
                                             for v in range(self.n_negative_kinds)]
        if form == "mc":
            return [Target("mc", index=0)]
        return [Target("open")]

    def target_for(self, code: int) -> Target:
        form = self.cfg.form
        if form == "bool":
            label = bool(code % 2)
            variant = 0 if label else (code // 2) % self.n_negative_kinds
            return Target("bool", label, variant=variant)
        if form == "mc":
            return Target("mc", index=code % N_OPTIONS)
        return Target("open")

    def _probe(self, world: StripsWorld, target: Target) -> bool:
        rng = random.Random(derive_seed("acp-probe", self.name, world.label, target))
        return any(self.family.draw(world, rng, self.cfg, target) is not None
                   for _ in range(PROBE_TRIES))

    def capacity(self, split: str) -> int:
        """An upper bound on distinct rows of a split: states times subjects."""
        return sum(w.n_states * max(len(w.task.actions), len(w.task.atoms), 1) *
                   (2 ** self.cfg.length) for w in self.worlds[split])

    # -- rows ---------------------------------------------------------------------------
    def row(self, split: str, index: int, code: int, attempt: int = 0) -> Row:
        seed = derive_seed(self.seed, self.name, split, index, attempt)
        rng = random.Random(seed)
        target = self.target_for(code)
        probe = target if target.form != "mc" else Target("mc", index=0)
        worlds = self.feasible[(split, probe)]
        # bigger problems hold more distinct questions: problems are drawn in
        # proportion to the square root of their number of states
        weights = [w.n_states ** 0.5 for w in worlds]
        world, asked = None, target
        for tries in range(SAMPLE_TRIES):
            if self._surveys_kinds and target.form == "bool" and tries % KIND_TRIES == 0:
                # problem and kind of subject first, then situations until one offers
                # that kind with the wanted label (see common.Pool); a kind the survey
                # saw only by luck is given up after KIND_TRIES situations
                world = rng.choices(worlds, weights)[0]
                survey = self._world_survey[id(world)]
                asked = replace(target, kind=rng.choice(survey.kinds)[0])
            elif self._surveys_kinds and target.form == "mc":
                world = rng.choices(worlds, weights)[0]  # options from the survey
                asked = replace(target, survey=self._world_survey[id(world)])
            elif not self._surveys_kinds:
                world = rng.choices(worlds, weights)[0]
            q = self.family.draw(world, rng, self.cfg, asked)
            if q is not None:
                break
        else:
            raise GenerationError(f"config '{self.name}': could not sample a "
                                  f"{_target_text(target)} row in {SAMPLE_TRIES} tries")
        text = self._text(world)
        context, question, choices = self.family.render(q, world, text, rng, target.form)
        symbolic = self._symbolic(world, q, target)
        key_problem = {k: v for k, v in symbolic.items() if k != "answer"}
        columns = self._columns(split, index, seed, world, q, target, context, question,
                                choices, symbolic)
        return Row(columns, problem_key(key_problem))

    def _text(self, world: StripsWorld) -> AcpText:
        text = self._texts.get(id(world.domain))
        if text is None:
            text = self._texts[id(world.domain)] = AcpText(
                world.domain, self.cfg.obfuscation, self.cfg.paraphrase, self.seed)
        return text

    def _symbolic(self, world: StripsWorld, q: Question, target: Target) -> dict:
        sym = {
            "family": self.cfg.family,
            "form": target.form,
            "domain": world.domain.name,
            "domain_pddl": world.domain_text,
            "problem": world.problem.name,
            "objects": dict(world.objects),
            "state": world.state_atoms(q.sid),
        }
        if q.goal is not None:
            sym["goal"] = goal_json(q.goal)
        if q.actions or self.family.uses_actions:
            sym["actions"] = [list(world.task.actions[k].term) for k in q.actions]
        sym["subject"] = q.subject
        if target.form == "mc":
            sym["options"] = q.options
        sym["answer"] = q.answer
        return sym

    def _columns(self, split, index, seed, world, q, target, context, question, choices,
                 symbolic) -> dict:
        form = target.form
        if form == "bool":
            answer, label, answer_index = ("true" if q.answer else "false"), int(q.answer), -1
        elif form == "mc":
            answer, label, answer_index = LETTERS[q.answer], -1, q.answer
        else:
            answer, label, answer_index = q.answer_text, -1, -1
        opt = q.optimal_plan_length
        if opt is None and q.goal is None:
            d = world.goal_distance[q.sid]
            opt = int(d) if d >= 0 else None
        meta = dict(q.meta, render={"obfuscation": self.cfg.obfuscation,
                                    "paraphrase": self.cfg.paraphrase, "seed": self.seed},
                    problem_file=world.label, state_id=q.sid, n_states=world.n_states)
        if opt is not None and q.goal is None:
            meta["optimal_plan_length_to"] = "problem goal"
        return {
            "id": f"{self.name}-{split}-{index:06d}",
            "family": self.cfg.family,
            "domain": self.cfg.domain_label,
            "problem": world.label,
            "form": form,
            "context": context,
            "question": question,
            "choices": list(choices),
            "answer": answer,
            "answer_index": answer_index,
            "label": label,
            "n_objects": len(world.objects),
            "n_ground_actions": len(world.task.actions),
            "optimal_plan_length": opt,
            "sequence_length": len(q.actions),
            "branching_factor": len(world.applicable(q.sid)),
            "symbolic": json.dumps(symbolic, sort_keys=True, separators=(",", ":")),
            "metadata": json.dumps(meta, sort_keys=True, separators=(",", ":")),
            "generator_version": __version__,
            "seed": seed,
        }


def _target_text(target: Target) -> str:
    if target.form == "bool":
        return f"label {'true' if target.label else 'false'}" + (
            f" (negative kind {target.variant})" if not target.label and target.variant else "")
    return f"{target.form} questions"
