"""Which skills pi skips for their frontmatter: the fast check of installer.sets.piskill.

The judge is pi's own loader, on both pis: the corpus set `skill-frontmatters`
(tests/conformance/layouts.py) holds ext's `list` to it, case by case. This runs the same
table, unit-fast, against what it says pi 1.x does."""

from __future__ import annotations

from pathlib import Path

import pytest

from installer.sets.piskill import refusal
from tests.conformance.layouts import FRONTMATTERS


@pytest.mark.parametrize("name", sorted(FRONTMATTERS))
def test_a_skill_is_skipped_exactly_when_pi_skips_it(tmp_path: Path, name: str) -> None:
    loads, text = FRONTMATTERS[name]
    path = tmp_path / "SKILL.md"
    path.write_bytes(text.encode())
    why = refusal(str(path))
    assert (why is None) == loads, why
    if why is not None:
        assert why.startswith("pi does not load it: its SKILL.md ")


def test_pi_0_73_keeps_a_byte_order_mark_and_so_sees_no_frontmatter(tmp_path: Path) -> None:
    path = tmp_path / "SKILL.md"
    path.write_bytes(FRONTMATTERS["bom"][1].encode())
    assert refusal(str(path), strips_bom=True) is None
    assert refusal(str(path), strips_bom=False) == (
        "pi does not load it: its SKILL.md has no frontmatter with a description"
    )


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("none", "has no frontmatter with a description"),
        ("nodesc", "has no description in its frontmatter"),
        ("quotedempty", "has an empty description"),
        ("number", "has a description that is not text (42)"),
        ("listed", "has a description that is not text (a list or a map)"),
        ("twice", "has a frontmatter pi cannot read as YAML (description is given twice)"),
        (
            "openflow",
            "has a frontmatter pi cannot read as YAML (description: a [ that is never closed)",
        ),
        ("flowlines", "has a description that is not text ([one, …)"),
        (
            "colon",
            "has a frontmatter pi cannot read as YAML (description: a colon and a space inside "
            "it (quote the value))",
        ),
        (
            "mapcolon",
            "has a frontmatter pi cannot read as YAML (metadata.k: a colon and a space inside "
            "it (quote the value))",
        ),
    ],
)
def test_the_reason_names_what_is_wrong(tmp_path: Path, name: str, said: str) -> None:
    path = tmp_path / "SKILL.md"
    path.write_text(FRONTMATTERS[name][1])
    assert refusal(str(path)) == f"pi does not load it: its SKILL.md {said}"


def test_a_file_that_cannot_be_read_is_not_judged(tmp_path: Path) -> None:
    assert refusal(str(tmp_path / "gone" / "SKILL.md")) is None
