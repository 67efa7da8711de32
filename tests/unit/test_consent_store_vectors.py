"""tests/consent-store-vectors.json: the stores ext accepts are exactly the ones pi's side does.

The node side (tests/ts/project-hooks.test.mjs) reads the same table with store.ts,
so pi cannot honour a store ext calls corrupt, nor refuse one ext writes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from installer.consent import limits
from installer.consent.record import CorruptRecord, parse_document

VECTORS = json.loads((Path(__file__).parents[1] / "consent-store-vectors.json").read_text("utf-8"))


@pytest.mark.parametrize("vector", VECTORS["stores"], ids=lambda v: v["name"][:60])
def test_ext_reads_each_store_as_the_table_says(vector: dict[str, Any]) -> None:
    if vector["projects"] is None:
        with pytest.raises(CorruptRecord):
            parse_document(vector["text"])
    else:
        assert sorted(parse_document(vector["text"])) == sorted(vector["projects"])


def test_the_limits_are_the_tables() -> None:
    for name, value in VECTORS["limits"].items():
        assert getattr(limits, name) == value, name
