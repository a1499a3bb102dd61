"""MkDocs hooks (mkdocs.yml `hooks:`): a docs page may hold a Markdown file kept elsewhere
in the repository (the README, the science lab's notes beside its code) with a line
`<!-- include: PATH -->`, PATH from the repository root, so that the text lives in one
place. The included file's own title gives way to the page's, and its links into
`docs/` are made relative to the site."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
INCLUDE = re.compile(r"^<!-- include: (\S+) -->$", re.MULTILINE)
TITLE = re.compile(r"\A# .*\n+")
DOCS_LINK = re.compile(r"\]\(docs/")


def on_page_markdown(markdown: str, page, config, files) -> str:
    def included(match: re.Match) -> str:
        text = (ROOT / match.group(1)).read_text(encoding="utf-8")
        return DOCS_LINK.sub("](", TITLE.sub("", text))
    return INCLUDE.sub(included, markdown)
