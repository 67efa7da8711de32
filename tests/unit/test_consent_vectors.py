"""tests/consent-vectors.json: the hashes `ext consent` and the project-hooks extension share.

The node side (tests/ts/project-hooks.test.mjs) checks the same table, so the two
can only agree with each other by both agreeing with it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from installer.consent.config import PROJECT_SOURCES, WHOLE_FILE_SOURCES, build_config, hooks_of

VECTORS = json.loads((Path(__file__).parents[1] / "consent-vectors.json").read_text("utf-8"))


@pytest.mark.parametrize("vector", VECTORS["vectors"], ids=lambda v: v["name"])
def test_ext_gives_each_vector_its_hash(vector: dict[str, Any]) -> None:
    texts = vector["sources"]
    entries = [
        (name, hooks_of(texts[name], name, whole_file=name in WHOLE_FILE_SOURCES))
        for name in PROJECT_SOURCES
        if name in texts
    ]
    config = build_config(entries)
    assert config.sha256 == vector["sha256"]
    assert config.canonical.decode("utf-8") == vector["canonical"]


def test_the_table_covers_what_goes_wrong_first() -> None:
    names = " ".join(v["name"] for v in VECTORS["vectors"])
    for topic in ("key order", "unicode", "numbers", "escapes", "UTF-16", "sources"):
        assert topic in names
    hashes = {v["sha256"] for v in VECTORS["vectors"]}
    assert None in hashes and len(hashes) >= 7
