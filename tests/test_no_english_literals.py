"""DESIGN's convention: every English sentence lives in a jinja2 template. The modules
whose messages moved to templates/cli/ keep it: their string literals are keywords and
names of macros, files and fields, never words of a message (docstrings aside)."""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MOVED = (
    "racbench/worlds/strips/pddl_reader.py",  # templates/cli/pddl.j2
    "racbench/worlds/strips/adl_reader.py",  # templates/cli/pddl.j2
    "racbench/tasks/config.py",  # templates/cli/config.j2
    "racbench/tasks/next_observation.py",  # templates/cli/next_observation.j2
    "racbench/training/stream.py",  # templates/cli/training.j2
    "racbench/training/levels.py",  # templates/cli/training.j2
)
ENGLISH = re.compile(r"[A-Za-z]{2,}[,;:]? [A-Za-z]{2,}")  # two words in a row


def english_literals(path: Path, words=ENGLISH, messages_too=True) -> list[str]:
    """The module's string literals that `words` finds, docstrings aside (and, with
    `messages_too` false, the literals of a `raise` aside)."""
    tree = ast.parse(path.read_text())
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                skip.add(id(first.value))
        if not messages_too and isinstance(node, ast.Raise):
            skip.update(id(n) for n in ast.walk(node))
    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in skip and words.search(node.value)]


@pytest.mark.parametrize("module", MOVED)
def test_no_english_in_python_literals(module):
    assert english_literals(ROOT / module) == []


def test_no_english_sentences_in_domain_text():
    """The domain text's literals are names, single words or error messages, never
    phrasing (three words in a row): its sentences live in templates."""
    three_words = re.compile(r"[A-Za-z]{2,}(?: [A-Za-z]{2,}){2,}")
    assert english_literals(ROOT / "racbench" / "text" / "domain.py", three_words,
                            messages_too=False) == []
