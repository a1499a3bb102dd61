"""English for any STRIPS domain (racbench.text.domain)."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from racbench.text import domain as dt
from racbench.text.domain import (DomainText, held_out_variant, obfuscate,
                                             template_dir_for, variants)
from racbench.worlds.strips.pddl_reader import load_domain, load_problem, parse_domain

ROOT = Path(__file__).resolve().parents[1]
DOMAINS_DIR = ROOT / "racbench" / "data" / "domains"
SHIPPED = ["blocksworld", "logistics", "ferry", "grid", "floortile", "gripper", "rovers",
           "visitall", "depots", "goldminer", "satellite", "swap", "household"]


def domain(name):
    return load_domain(DOMAINS_DIR / name / "domain.pddl")


def sample_args(n, prefix="o"):
    return tuple(f"{prefix}{i + 1}" for i in range(n))


def every_clause(text: DomainText):
    """(symbol, positive clause, negative clause or None) for every predicate and action."""
    d = text.domain
    for pred, types in sorted(d.predicates.items()):
        atom = (pred,) + sample_args(len(types))
        yield pred, atom, text.fact(atom), text.fact(atom, False)
    for schema in d.actions:
        term = (schema.name,) + sample_args(len(schema.parameters))
        yield schema.name, term, text.action(term), None


def check_clause(atom, pos, neg):
    assert pos and pos == pos.strip() and "{" not in pos and "  " not in pos
    assert pos[:1].islower(), pos
    for arg in atom[1:]:
        assert re.search(rf"\b{arg}\b", pos), (atom, pos)
    if neg is not None:
        assert neg != pos and ("not" in neg.split() or "no" in neg.split()
                               or "cannot" in neg.split()), (atom, neg)


def test_shipped_domains_are_listed_in_domains_yaml():
    import yaml
    listed = [d["name"] for d in yaml.safe_load((DOMAINS_DIR / "domains.yaml").read_text())["domains"]]
    assert sorted(listed) == sorted(SHIPPED)


@pytest.mark.parametrize("name", SHIPPED)
def test_polished_templates_cover_every_symbol(name):
    folder = template_dir_for(name)
    assert folder is not None and folder != "blocksworld"
    text = DomainText(domain(name), folder)
    assert text.missing_templates() == []
    for _symbol, atom, pos, neg in every_clause(text):
        check_clause(atom, pos, neg)
    assert text.fallbacks == set()


@pytest.mark.parametrize("name", SHIPPED)
def test_default_renderer_covers_every_symbol(name):
    text = DomainText(domain(name), "default")
    assert text.template_dir is None
    for _symbol, atom, pos, neg in every_clause(text):
        check_clause(atom, pos, neg)
    assert text.describe_domain().count("\n- ") == len(text.domain.actions)


def test_blocksworld_uses_its_own_folder_and_trac_folder_is_untouched():
    assert template_dir_for("blocksworld") == "blocksworld4"
    assert template_dir_for("no-such-domain") is None
    text = DomainText(domain("blocksworld"), "blocksworld4")
    assert text.fact(("on-table", "b1")) == "block b1 is on the table"
    assert text.action(("unstack", "b1", "b2")) == "the hand unstacks block b1 from block b2"
    from racbench.worlds.strips.shipped import trac_domain_file
    from racbench.worlds.strips.world import domain_text
    trac = DomainText(domain_text(trac_domain_file())[1], "blocksworld")
    assert trac.fact(("on", "red", "blue")) == "the red block is on top of the blue block"


def test_polished_examples():
    logistics = DomainText(domain("logistics"), template_dir_for("logistics"))
    assert logistics.fact(("in", "p1", "t1")) == "package p1 is in vehicle t1"
    assert logistics.action(("drive-truck", "t1", "l1", "l2", "c1")) == \
        "the truck t1 drives from l1 to l2 in city c1"
    assert logistics.sentence(logistics.fact(("in-city", "l1", "c1"), False)) == \
        "Location l1 is not in city c1."


NEW_DOMAIN = """
(define (domain brand-new)
  (:requirements :strips :typing :negative-preconditions :equality)
  (:types truck location city block robot)
  (:predicates (at ?x - truck ?y - location) (on-table ?b - block) (clear ?b - block)
               (in-city ?l - location ?c - city) (road ?a ?b ?c - location)
               (hand-empty) (robot-at ?r - robot ?l - location) (holds ?r - robot ?b - block)
               (has-fuel ?t - truck) (connected ?a ?b - location))
  (:action drive-truck
    :parameters (?t - truck ?from - location ?to - location ?c - city)
    :precondition (and (at ?t ?from) (in-city ?from ?c) (in-city ?to ?c) (not (= ?from ?to)))
    :effect (and (at ?t ?to) (not (at ?t ?from))))
  (:action pick-up
    :parameters (?r - robot ?b - block)
    :precondition (and (clear ?b) (on-table ?b) (hand-empty))
    :effect (and (holds ?r ?b) (not (on-table ?b)) (not (hand-empty)))))
"""


def test_brand_new_domain_renders_without_templates():
    text = DomainText(parse_domain(NEW_DOMAIN))
    assert text.fact(("at", "truck1", "depot0")) == "truck1 is at depot0"
    assert text.fact(("at", "truck1", "depot0"), positive=False) == "truck1 is not at depot0"
    assert text.fact(("on-table", "b")) == "b is on the table"
    assert text.fact(("clear", "b")) == "b is clear"
    assert text.fact(("in-city", "l", "c")) == "l is in city c"
    assert text.fact(("road", "a", "b", "c")) == "there is a road from a to b at location c"
    assert text.fact(("hand-empty",)) == "the hand is empty"
    assert text.fact(("robot-at", "r1", "l1")) == "the robot r1 is at l1"
    assert text.fact(("holds", "r1", "b"), False) == "r1 does not hold b"
    assert text.fact(("has-fuel", "t1")) == "t1 has fuel"
    assert text.fact(("connected", "a", "b")) == "a is connected to b"
    assert text.action(("drive-truck", "t1", "l1", "l2", "c1")) == \
        "drive truck t1 from l1 to l2 in city c1"
    assert text.action(("pick-up", "r1", "b")) == "pick up r1 with block b"
    assert text.fallbacks == set()
    # a sentence keeps the case of the object name it starts with
    assert text.sentence(text.fact(("at", "truck1", "depot0"))) == "truck1 is at depot0."
    assert text.sentence(text.fact(("hand-empty",))) == "The hand is empty."
    assert text.conjunction([(("clear", "a"), True), (("clear", "b"), False),
                             (("hand-empty",), True)]) == \
        "a is clear and b is not clear and the hand is empty"
    assert text.plan([("pick-up", "r", "b"), ("drive-truck", "t", "x", "y", "c")]) == \
        "1. Pick up r with block b.\n2. Drive truck t from x to y in city c."
    description = text.describe_domain()
    assert "Drive truck A from B to C in city D." in description
    assert "B is not the same as C" in description
    assert "Afterwards A is at C and A is not at B." in description


def test_a_template_folder_given_as_a_path_overrides_only_what_it_defines(tmp_path):
    (tmp_path / "facts.j2").write_text(
        "{%- macro on_table(b, positive=True) -%}the block {{ b }} is "
        "{% if not positive %}not {% endif %}lying on the table{%- endmacro -%}"
        "{%- macro at(x, positive=True) -%}wrong arity{%- endmacro -%}")
    text = DomainText(parse_domain(NEW_DOMAIN), str(tmp_path))
    assert text.fact(("on-table", "b")) == "the block b is lying on the table"
    assert text.fact(("clear", "b")) == "b is clear"
    assert text.fact(("at", "t", "l")) == "t is at l"
    assert text.fallbacks == {"clear", "at"}
    assert "at" in text.missing_templates() and "on-table" not in text.missing_templates()


def test_template_folder_is_chosen_by_domain_name_unless_default_is_asked():
    assert DomainText(domain("logistics")).template_dir == "logistics"
    assert DomainText(domain("blocksworld")).template_dir == "blocksworld4"
    assert DomainText(domain("logistics"), "default").template_dir is None
    assert DomainText(domain("logistics"), obfuscation="random").template_dir is None
    assert DomainText(parse_domain(NEW_DOMAIN)).template_dir is None
    with pytest.raises(FileNotFoundError):
        DomainText(domain("logistics"), "no/such/folder")


def test_camel_case_and_underscores_are_split():
    assert dt.split_name("driveTruck") == ("drive", "truck")
    assert dt.split_name("drive_truck") == ("drive", "truck")
    assert dt.split_name("?on-table") == ("on", "table")
    assert dt.macro_name("in") == "in_" and dt.macro_name("in-city") == "in_city"


def test_state_is_sorted_or_shuffled_by_the_callers_rng():
    text = DomainText(domain("ferry"), template_dir_for("ferry"))
    atoms = [("at", "c2", "l1"), ("ferry-empty",), ("at", "c1", "l1"), ("ferry-at", "l2")]
    plain = text.state(atoms)
    assert plain == text.state(list(reversed(atoms)))
    assert plain.startswith("Car c1 is at l1. Car c2 is at l1.")
    shuffled = [text.state(atoms, random.Random(s)) for s in range(6)]
    assert shuffled == [text.state(atoms, random.Random(s)) for s in range(6)]
    assert len(set(shuffled)) > 1
    def split(state):
        return sorted(x.strip() for x in re.findall(r"[^.]+\.", state))
    assert all(split(s) == split(plain) for s in shuffled)


@pytest.mark.parametrize("name", SHIPPED)
def test_paraphrases_differ_and_held_out_is_stable(name):
    d = domain(name)
    text = DomainText(d, template_dir_for(name))
    for symbol, atom, _pos, _neg in every_clause(text):
        vs = variants(name, symbol)
        assert vs == variants(d, symbol) and len(vs) >= 3, (symbol, vs)
        held = held_out_variant(name, symbol)
        assert held in vs[1:] and held == held_out_variant(d, symbol)
        if symbol in d.predicates:
            rendered = {text.fact(atom, True, v) for v in vs}
            assert len({text.fact(atom, False, v) for v in vs}) == len(vs)
        else:
            rendered = {text.action(atom, v) for v in vs}
        assert len(rendered) == len(vs), (symbol, rendered)
    assert text.fallbacks == set()
    # A paraphrase index the symbol lacks gives its main phrasing, and is noted.
    pred = sorted(d.predicates)[0]
    atom = (pred,) + sample_args(len(d.predicates[pred]))
    assert text.fact(atom, True, 99) == text.fact(atom)
    assert text.missing_variants == {(pred, 99)}


def test_held_out_variants_spread_over_the_paraphrases():
    held = [held_out_variant(name, s) for name in SHIPPED for s in domain(name).predicates]
    assert set(held) == {1, 2}
    assert variants(parse_domain(NEW_DOMAIN), "clear") == [0]
    assert held_out_variant(parse_domain(NEW_DOMAIN), "clear") == -1


# The words templates/default/*.j2 put around opaque symbols.
OPAQUE_GLUE = {"is", "not", "true", "false", "holds", "does", "hold", "for", "and"}


@pytest.mark.parametrize("mode", ["random", "misleading"])
@pytest.mark.parametrize("name", SHIPPED)
def test_obfuscation_renames_every_symbol_bijectively(name, mode):
    d = domain(name)
    mapping = obfuscate(d, mode, seed=3)
    symbols = set(d.predicates) | {a.name for a in d.actions} | set(d.supertypes)
    assert symbols <= set(mapping)
    assert all(mapping[s] != s for s in mapping)
    assert len(set(mapping.values())) == len(mapping)
    assert not set(mapping.values()) & symbols
    assert mapping == obfuscate(d, mode, seed=3)
    assert mapping != obfuscate(d, mode, seed=4)
    objects = set()
    for problem_file in sorted((DOMAINS_DIR / name / "problems").glob("*.pddl"))[:3]:
        objects |= set(load_problem(problem_file, d).objects)
    renamed = {mapping.rename(o) for o in objects}
    assert len(renamed) == len(objects) and not renamed & objects
    text = DomainText(d, template_dir_for(name), obfuscation=mode, seed=3)
    for symbol, atom, pos, neg in every_clause(text):
        words = set(re.findall(r"[a-z]+", pos)) - OPAQUE_GLUE
        assert mapping[symbol] in pos
        leaked = set(dt.split_name(symbol)) & words - set(
            re.findall(r"[a-z]+", " ".join(mapping.values())))
        assert not leaked, (symbol, pos)
        assert all(o not in pos.split() for o in atom[1:])
    assert text.fallbacks == set()
    assert d.actions[0].name not in text.describe_domain()


def test_misleading_words_are_real_words_from_the_vocabulary():
    d = domain("logistics")
    mapping = obfuscate(d, "misleading")
    nouns = set(dt._word_list("misleading_nouns.txt"))
    verbs = set(dt._word_list("misleading_verbs.txt"))
    assert all(mapping[a.name] in verbs for a in d.actions)
    assert all(mapping[p] in nouns for p in d.predicates)
    assert mapping.rename("truck12") == mapping["truck"] + "12"


DETERMINISM_SCRIPT = """
import json, random
from racbench.text.domain import DomainText, held_out_variant, template_dir_for
from racbench.worlds.strips.pddl_reader import load_domain
out = []
for name in {names!r}:
    d = load_domain({root!r} + "/" + name + "/domain.pddl")
    for folder, obf in ((None, None), ("default", None), (None, "random"),
                        (None, "misleading")):
        t = DomainText(d, folder, obfuscation=obf, seed=7)
        atoms = [(p,) + tuple("o%d" % i for i in range(len(ts))) for p, ts in d.predicates.items()]
        out.append(t.state(atoms, random.Random(1)))
        out.append(t.plan([(a.name,) + tuple("x%d" % i for i in range(len(a.parameters)))
                           for a in d.actions]))
        out.append(t.describe_domain())
        out.append(sorted(t.obfuscation.items()) if t.obfuscation else None)
    out.append([held_out_variant(name, p) for p in sorted(d.predicates)])
print(json.dumps(out))
"""


def test_outputs_do_not_depend_on_python_hash_seed():
    script = DETERMINISM_SCRIPT.format(names=SHIPPED, root=str(DOMAINS_DIR))
    outputs = []
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                                env=env, cwd=ROOT, check=True)
        outputs.append(json.loads(result.stdout))
    assert outputs[0] == outputs[1]


UNTYPED_DOMAIN = """
(define (domain untyped-logistics)
  (:requirements :strips)
  (:predicates (truck ?t) (city ?c) (at ?x ?l) (in-city ?l ?c) (store-of ?s ?r))
  (:action drive-truck
    :parameters (?truck ?loc-from ?loc-to ?city)
    :precondition (and (truck ?truck) (at ?truck ?loc-from) (in-city ?loc-from ?city)
                       (in-city ?loc-to ?city))
    :effect (and (at ?truck ?loc-to) (not (at ?truck ?loc-from)))))
"""


def test_untyped_domains_use_class_predicates_and_parameter_names():
    text = DomainText(parse_domain(UNTYPED_DOMAIN))
    assert text.fact(("truck", "t1")) == "t1 is a truck"
    assert text.fact(("city", "c1"), False) == "c1 is not a city"
    assert text.action(("drive-truck", "t1", "a", "b", "c1")) == \
        "drive truck t1 from a to b in city c1"


def test_planning_competition_domains_render_by_default(competition_pddl):
    paths = sorted(competition_pddl.glob("*/domain.pddl"))
    assert len(paths) == 4  # blocks, depot, gripper, logistics00
    for path in paths:
        d = load_domain(path)
        for text in (DomainText(d), DomainText(d, "default"),
                     DomainText(d, obfuscation="misleading")):
            for _symbol, atom, pos, neg in every_clause(text):
                if text.obfuscation is None:
                    check_clause(atom, pos, neg)
            assert text.describe_domain()


def test_sentences_kept_per_fact_follow_each_rows_names():
    """TaskText.fact_sentence / action_sentence (kept per literal and action, shared by
    a phrasing's renamed copies) say what sentence(fact(...)) says, under each row's
    own names: a copy renamed otherwise never gets another copy's sentence."""
    from racbench.text.phrasing import Names
    from racbench.worlds.strips.world import trac_world

    world = trac_world(3)
    text = world.text(style="trac", templates="blocksworld")
    blocks = list(world.objects)
    fact, action = ("on", blocks[0], blocks[1]), world.action_term(0)
    assert text.fact_sentence(fact) == text.sentence(text.fact(fact))
    for colours in (["red", "blue", "green"], ["blue", "green", "red"], ["red", "blue", "green"]):
        renamed = text.renamed(Names(dict(zip(blocks, colours)), world.domain))
        for positive in (True, False):
            said = renamed.sentence(renamed.fact(fact, positive))
            assert renamed.fact_sentence(fact, positive) == said
            assert colours[0] in said and colours[1] in said
        assert renamed.action_sentence(action) == renamed.sentence(renamed.action(action))
        rng, again = random.Random(1), random.Random(1)
        atoms = [tuple(a) for a in world.state_atoms(0)]
        expected = [renamed.sentence(renamed.fact(a)) for a in atoms]
        again.shuffle(expected)
        assert renamed.state(atoms, rng) == " ".join(expected)
