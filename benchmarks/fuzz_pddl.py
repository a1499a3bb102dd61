"""Fuzz the PDDL reader and grounder: any input must be accepted or end in a PDDLError.

Each input is a (domain text, problem text) pair taken from the shipped domains
(racbench/data/domains, first problems), the competition files (tests/data/pddl) and
the ADL domains (tests/data/adl),
then mutated 1-3 times at the character or token level: spans deleted, duplicated or
truncated; characters inserted (parentheses, '?', ';', '-', non-ASCII, control
characters); tokens deleted, repeated, swapped or replaced by keywords, odd numbers
(nan, inf, 1e999, -1) and names from another file; conditions wrapped in thousands of
`(and ...)`; lists deleted, repeated, swapped or spliced in from another file;
objects or action parameters added by the hundred. One input in ten has a random token
soup for its domain or problem instead. Every input goes through parse_domain,
parse_problem and ground, with the ground-action limit lowered to 5,000 so that
blow-ups are cheap to reach.

Prints the inputs tried, inputs per second, how they ended, the slowest input, and the
exceptions other than PDDLError (the first few with their traceback; with --save DIR
their inputs are written there). Exit status 1 if there was any.

    python benchmarks/fuzz_pddl.py [--n 100000] [--seed 0] [--save DIR]
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
import traceback
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from racbench.worlds.strips import limits
from racbench.worlds.strips.grounding import ground
from racbench.worlds.strips.pddl_reader import parse_domain, parse_problem
from racbench.worlds.strips.sexpr import PDDLError

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "racbench" / "data" / "domains"
COMPETITION = ROOT / "tests" / "data" / "pddl"
ADL = ROOT / "tests" / "data" / "adl"
PROBLEMS_PER_DOMAIN = 3
FUZZ_GROUND_ACTIONS = 5_000
SHOWN = 3  # crashes printed in full

CHARS = "()()??;-:=  \n\t\r" + "abcxyz" + "019." + "\u00e9\u0130\x00\x7f\x0b\u2028"
KEYWORDS = ["(", ")", "(", ")", "and", "not", "=", "-", "either", "object", "increase",
            "(total-cost)", "total-cost", "define", "domain", "problem", ":domain", ":action",
            ":parameters", ":precondition", ":effect", ":predicates", ":types", ":constants",
            ":objects", ":init", ":goal", ":requirements", ":functions", ":metric",
            ":strips", ":typing", "when", "forall", "or", "?x", "?", "??", "number",
            "exists", "imply", ":adl", "(forall (?v) (p ?v))", "(exists (?v))", "(when)",
            "(or)", "(imply)",
            "nan", "inf", "-inf", "1e999", "9" * 400, "-1", "0", "1.5", "2.", ".5", "0x10",
            "1_000", "()", "(())", "(and)", "(not)", "(=)", "(= (f))"]
TOKEN = re.compile(r"\(|\)|[^\s()]+")
COMMENT = re.compile(r";[^\n]*")


@dataclass
class Outcome:
    tried: int = 0
    accepted: int = 0
    refused: int = 0
    limited: int = 0
    crashes: list = field(default_factory=list)  # (exception text, traceback)
    slowest: tuple = (0.0, "")


def corpus() -> list[tuple[str, str]]:
    """(domain text, problem text) of the files mutated."""
    pairs = []
    for domain_file in sorted(SHIPPED.glob("*/domain.pddl")):
        problems = sorted((domain_file.parent / "problems").glob("*.pddl"))
        pairs += [(domain_file.read_text(), p.read_text())
                  for p in problems[:PROBLEMS_PER_DOMAIN]]
    for domain_file in sorted(ADL.glob("*/domain.pddl")):
        problems = sorted((domain_file.parent / "problems").glob("*.pddl"))
        pairs += [(domain_file.read_text(), p.read_text())
                  for p in problems[:PROBLEMS_PER_DOMAIN]]
    for domain_file in sorted(COMPETITION.glob("*/domain.pddl")):
        problems = sorted(p for p in domain_file.parent.glob("*.pddl") if p != domain_file)
        pairs += [(domain_file.read_text(), p.read_text())
                  for p in problems[:PROBLEMS_PER_DOMAIN]]
    return pairs


# -- mutations ---------------------------------------------------------------------------

def _span(rng: random.Random, text: str) -> tuple[int, int]:
    i = rng.randrange(len(text) + 1)
    return i, min(len(text), i + rng.randint(1, 40))


def delete_span(rng, text, other):
    i, j = _span(rng, text)
    return text[:i] + text[j:]


def duplicate_span(rng, text, other):
    i, j = _span(rng, text)
    k = rng.randrange(len(text) + 1)
    return text[:k] + text[i:j] + text[k:]


def truncate(rng, text, other):
    return text[:rng.randrange(len(text) + 1)]


def insert_chars(rng, text, other):
    k = rng.randrange(len(text) + 1)
    return text[:k] + "".join(rng.choice(CHARS) for _ in range(rng.randint(1, 3))) + text[k:]


def replace_char(rng, text, other):
    if not text:
        return text
    k = rng.randrange(len(text))
    return text[:k] + rng.choice(CHARS) + text[k + 1:]


def question_mark(rng, text, other):
    """'(on ?x)' -> '(on?x)' or 'a b' -> 'a?b': glued variables."""
    spots = [m.start() for m in re.finditer(r" \?| ", text)]
    if not spots:
        return text
    k = rng.choice(spots)
    return text[:k] + ("?" if text[k + 1:k + 2] != "?" else "") + text[k + 1:]


def token_op(rng, text, other, op):
    tokens = TOKEN.findall(COMMENT.sub("", text))  # joined on one line below
    if not tokens:
        return text
    k = rng.randrange(len(tokens))
    if op == "delete":
        del tokens[k]
    elif op == "repeat":
        tokens[k:k] = tokens[k:k + rng.randint(1, 8)] * rng.randint(1, 3)
    elif op == "swap" and len(tokens) > 1:
        m = rng.randrange(len(tokens))
        tokens[k], tokens[m] = tokens[m], tokens[k]
    elif op == "keyword":
        tokens[k] = rng.choice(KEYWORDS)
    elif op == "insert":
        tokens.insert(k, rng.choice(KEYWORDS))
    elif op == "foreign":
        foreign = TOKEN.findall(COMMENT.sub("", other))
        if foreign:
            tokens[k] = rng.choice(foreign)
    return " ".join(tokens)


def _lists(text: str) -> list[tuple[int, int]]:
    """(start, end) of every balanced parenthesised span."""
    spans, stack = [], []
    for m in re.finditer(r"[()]", COMMENT.sub(lambda c: " " * len(c.group()), text)):
        if m.group() == "(":
            stack.append(m.start())
        elif stack:
            spans.append((stack.pop(), m.end()))
    return spans


def list_op(rng, text, other):
    """Delete, repeat, swap, empty or replace whole lists: parentheses stay balanced, so
    the reader's checks of names, arities, duplicates and sections are reached."""
    spans = _lists(text)
    if not spans:
        return text
    i, j = rng.choice(spans)
    op = rng.choice(["delete", "repeat", "repeat", "swap", "empty", "foreign", "rename"])
    if op == "delete":
        return text[:i] + text[j:]
    if op == "repeat":
        return text[:j] + " " + text[i:j] + text[j:]
    if op == "empty":
        return text[:i] + rng.choice(["()", "(and)", "(not)", "(= (f))"]) + text[j:]
    if op == "foreign":
        foreign = _lists(other)
        if foreign:
            a, b = rng.choice(foreign)
            return text[:i] + other[a:b] + text[j:]
        return text
    if op == "rename":  # one name of the list replaced by another name of the file
        names = re.findall(r"[^\s()]+", COMMENT.sub("", text))
        inner = re.sub(r"[^\s()]+", lambda m: rng.choice(names) if rng.random() < 0.3
                       else m.group(), text[i:j])
        return text[:i] + inner + text[j:]
    k, m = rng.choice(spans)
    if m <= i or j <= k:  # disjoint: swap them
        (i, j), (k, m) = sorted([(i, j), (k, m)])
        return text[:i] + text[k:m] + text[j:k] + text[i:j] + text[m:]
    return text


def blow_up(rng, text, other):
    """Many more objects, or more parameters for the actions: grounding grows fast."""
    if rng.random() < 0.5:
        match = re.search(r"\(:objects", text, re.IGNORECASE)
        typed = re.findall(r"- *([a-z][\w-]*)", text[match.end():] if match else "")
        suffix = f" - {rng.choice(typed)}" if typed and rng.random() < 0.7 else ""
        extra = " ".join(f"extra{i}" for i in range(rng.choice([10, 100, 1000]))) + suffix
        return text[:match.end()] + " " + extra + " " + text[match.end():] if match else text
    extra = " ".join(f"?extra{i}" for i in range(rng.randint(1, 6)))
    return re.sub(r"(:parameters\s*\()", lambda m: m.group(1) + extra + " ", text,
                  flags=re.IGNORECASE)


def deep_nesting(rng, text, other):
    """Wrap one list in hundreds or thousands of (and ...) or bare parentheses."""
    starts = [m.start() for m in re.finditer(r"\((?!define)", text)]
    if not starts:
        return text
    i = rng.choice(starts)
    depth, j = 0, i
    while j < len(text):
        depth += {"(": 1, ")": -1}.get(text[j], 0)
        j += 1
        if depth == 0:
            break
    n = rng.choice([50, 999, 1001, 5000])
    opener = rng.choice(["(and ", "(", "(not "])
    return text[:i] + opener * n + text[i:j] + ")" * n + text[j:]


def splice(rng, text, other):
    """A parenthesised piece of the other file put somewhere in this one."""
    starts = [m.start() for m in re.finditer(r"\(", other)]
    if not starts:
        return text
    i = rng.choice(starts)
    piece = other[i:i + rng.randint(5, 200)]
    k = rng.randrange(len(text) + 1)
    return text[:k] + piece + text[k:]


MUTATIONS = ([delete_span, duplicate_span, truncate, insert_chars, replace_char, question_mark,
              deep_nesting, splice, blow_up] + [list_op] * 10
             + [partial(token_op, op=op) for op in ("delete", "repeat", "swap", "keyword",
                                                    "keyword", "insert", "foreign")])


def token_soup(rng: random.Random) -> str:
    words = KEYWORDS + ["p", "q", "a", "b", "?y", "t"]
    return "(define " + " ".join(rng.choice(words) for _ in range(rng.randint(0, 60))) + ")"


def mutate(rng: random.Random, text: str, other: str) -> str:
    for _ in range(rng.randint(1, 3)):
        text = rng.choice(MUTATIONS)(rng, text, other)
    return text


def make_input(rng: random.Random, pairs: list) -> tuple[str, str]:
    domain, problem = rng.choice(pairs)
    other_domain, other_problem = rng.choice(pairs)
    roll = rng.random()
    if roll < 0.05:
        return token_soup(rng), problem
    if roll < 0.10:
        return domain, token_soup(rng)
    if roll < 0.50:
        return mutate(rng, domain, other_domain), problem
    if roll < 0.90:
        return domain, mutate(rng, problem, other_problem)
    return mutate(rng, domain, other_domain), mutate(rng, problem, other_problem)


# -- the campaign ------------------------------------------------------------------------

def run_one(domain_text: str, problem_text: str) -> str:
    """'accepted', 'refused' or 'limited'; any other exception propagates."""
    try:
        domain = parse_domain(domain_text, "domain.pddl")
        problem = parse_problem(problem_text, domain, "problem.pddl")
        ground(domain, problem)
    except limits.LimitExceeded:
        return "limited"
    except PDDLError:
        return "refused"
    return "accepted"


def campaign(n: int, seed: int, save: Path | None = None) -> Outcome:
    rng = random.Random(seed)
    pairs = corpus()
    out = Outcome()
    with limits.overridden(max_ground_actions=FUZZ_GROUND_ACTIONS):
        for i in range(n):
            domain_text, problem_text = make_input(rng, pairs)
            start = time.perf_counter()
            try:
                result = run_one(domain_text, problem_text)
            except Exception as exc:  # noqa: BLE001 - what the campaign looks for
                out.crashes.append((f"{type(exc).__name__}: {exc}"[:300],
                                    traceback.format_exc()))
                if save is not None:
                    save.mkdir(parents=True, exist_ok=True)
                    (save / f"crash{len(out.crashes):03d}-domain.pddl").write_text(domain_text)
                    (save / f"crash{len(out.crashes):03d}-problem.pddl").write_text(problem_text)
                result = "crashed"
            elapsed = time.perf_counter() - start
            if elapsed > out.slowest[0]:
                out.slowest = (elapsed, f"input {i} ({result})")
            out.tried += 1
            if result != "crashed":
                setattr(out, result, getattr(out, result) + 1)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000, help="inputs to try")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", type=Path, default=None,
                        help="folder for the inputs of crashes (default: not saved)")
    args = parser.parse_args()
    start = time.perf_counter()
    out = campaign(args.n, args.seed, args.save)
    elapsed = time.perf_counter() - start
    print(f"inputs tried: {out.tried:,} in {elapsed:.0f} s ({out.tried / elapsed:,.0f} inputs/s)")
    print(f"  accepted: {out.accepted:,}  refused with PDDLError: {out.refused:,}  "
          f"stopped by a limit: {out.limited:,}")
    print(f"  slowest input: {out.slowest[0]:.2f} s ({out.slowest[1]})")
    print(f"exceptions other than PDDLError: {len(out.crashes)}")
    for text, trace in out.crashes[:SHOWN]:
        print(f"\n{text}\n{trace}")
    sys.exit(1 if out.crashes else 0)


if __name__ == "__main__":
    main()
