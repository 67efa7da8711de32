"""The docs name only files the repository has: a reader who follows one finds it."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DOCS = [REPO / "README.md", REPO / "SECURITY.md", *sorted((REPO / "docs").glob("*.md"))]
# A link's target, or a project file by its upper-case name (README.md, DESIGN.md); other
# `.md` names in the docs are examples of a set's files (SKILL.md, prompts/review.md).
NAMED = re.compile(r"\]\(([^)#\s]+\.md)(?:#[^)]*)?\)|(?<![\w/.~-])([A-Z][A-Z_]+\.md)\b")
NOT_OURS = {"SKILL.md"}  # pi's name for a skill's file


def test_every_markdown_file_a_doc_names_exists() -> None:
    missing = []
    for doc in DOCS:
        for link, upper in NAMED.findall(doc.read_text(encoding="utf-8")):
            name = link or upper
            if name in NOT_OURS or name.startswith("http"):
                continue
            if not any((base / name).is_file() for base in (REPO, doc.parent)):
                missing.append(f"{doc.relative_to(REPO)}: {name}")
    assert missing == []
