"""Which skills pi skips for their frontmatter: the fast check of installer.sets.piskill.

The judge is pi's own loader, on both pis: the corpus set `skill-frontmatters`
(tests/conformance/layouts.py) holds ext's `list` to it. This is the same table, unit-fast."""

from __future__ import annotations

from pathlib import Path

import pytest

from installer.sets.piskill import refusal
from tests.conformance.layouts import FRONTMATTERS

# What both pis load of the corpus (pi 0.73.1 and 1.6.0, by their loader).
LOADED = {"plain", "quoted", "folded", "literal", "nextline", "trailing", "numberish", "version"}
LOADED |= {"crlf", "spaced"}


@pytest.mark.parametrize("name", sorted(FRONTMATTERS))
def test_a_skill_is_skipped_exactly_when_pi_skips_it(tmp_path: Path, name: str) -> None:
    path = tmp_path / "SKILL.md"
    path.write_bytes(FRONTMATTERS[name].encode())
    why = refusal(str(path))
    assert (why is None) == (name in LOADED), why
    if why is not None:
        assert why.startswith("pi does not load it: its SKILL.md ")


def test_the_reason_names_what_is_wrong(tmp_path: Path) -> None:
    path = tmp_path / "SKILL.md"
    said = {}
    for name in ("none", "nodesc", "quotedempty", "number", "listed", "twice"):
        path.write_text(FRONTMATTERS[name])
        said[name] = refusal(str(path))
    assert said["none"] == "pi does not load it: its SKILL.md has no frontmatter with a description"
    assert (
        said["nodesc"] == "pi does not load it: its SKILL.md has no description in its frontmatter"
    )
    assert said["quotedempty"] == "pi does not load it: its SKILL.md has an empty description"
    assert said["number"] == (
        "pi does not load it: its SKILL.md has a description that is not text (42)"
    )
    assert said["listed"] is not None and said["listed"].endswith("(a list or a map)")
    assert said["twice"] is not None and "twice" in said["twice"]


def test_a_file_that_cannot_be_read_is_not_judged(tmp_path: Path) -> None:
    assert refusal(str(tmp_path / "gone" / "SKILL.md")) is None
