"""tests/escape-vectors.json: the one escaping rule, as ext applies it and pi's side must.

The node side (tests/ts/project-hooks.test.mjs) checks the same table with
extensions/project-hooks/screen.ts, so what `ext consent approve` shows and what pi's
consent dialog shows can only differ where the table would catch it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from installer.consent.hooks import visible
from installer.ground import screen
from installer.render.ui import escape

VECTORS = json.loads((Path(__file__).parents[1] / "escape-vectors.json").read_text("utf-8"))


@pytest.mark.parametrize("vector", VECTORS["vectors"], ids=lambda v: v["name"])
def test_ext_escapes_each_vector_by_the_one_rule(vector: dict[str, Any]) -> None:
    assert escape(vector["text"]) == vector["escaped"]
    assert screen.escape(vector["text"]) == vector["escaped"]
    assert visible(vector["text"]) == vector["visible"]
    assert vector["escaped"].isprintable() or "\t" in vector["escaped"]


def test_the_table_covers_every_class_the_rule_names() -> None:
    text = "".join(v["text"] for v in VECTORS["vectors"])
    named = [
        "\x1b", "\r", "\x00", "\x7f", "\x9b", "\x85", "\u061c", "\u200e", "\u200f",
        *map(chr, range(0x202A, 0x202F)), *map(chr, range(0x2066, 0x206A)),
        "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad",
        "\U000e0001", "\U000e007f", "\u2028", "\u2029",
    ]  # fmt: skip
    for char in named:
        assert char in text, repr(char)
