"""Fuzz the manifest parser and the settings.json reader/merger for a while (not a test).

    .venv/bin/python bench/fuzz_parsers.py [--seconds 120]

Every input must either parse or fail with an ExtError that names a fix: a traceback of any
other type is a bug. Cases it finds belong in tests/unit/test_manifest_hostile.py or the
settings tests as regression cases.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from installer.ground.errors import ExtError
from installer.ground.manifest import parse_manifest
from installer.settings import apply_seeds, dotted, jsondoc

PATH = Path("/fuzz/extset.toml")
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=20,
)
_KEY = st.text(alphabet="abc.", min_size=1, max_size=7)


def _check(fn: Any, *args: Any) -> None:
    try:
        fn(*args)
    except ExtError as exc:
        if not exc.fix:
            raise AssertionError(f"ExtError without a fix: {exc.message}") from exc


def run(seconds: float, batch: int = 300) -> dict[str, int]:
    """Run each fuzzer in batches of fresh random examples until its share of time is used."""
    counts = {"manifest bytes": 0, "settings text": 0, "seed merges": 0}
    common = settings(
        max_examples=batch, deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )

    @common
    @given(st.binary(max_size=300))
    def manifest_bytes(raw: bytes) -> None:
        counts["manifest bytes"] += 1
        _check(parse_manifest, raw, PATH)

    @common
    @given(st.one_of(st.text(max_size=200), _JSON.map(json.dumps)))
    def settings_text(text: str) -> None:
        counts["settings text"] += 1
        _check(jsondoc.parse, text)

    @common
    @given(st.dictionaries(st.text(max_size=6), _JSON), st.dictionaries(_KEY, _JSON, max_size=4))
    def seed_merges(data: dict[str, Any], seeds: dict[str, Any]) -> None:
        counts["seed merges"] += 1
        try:
            result = apply_seeds(data, seeds)
        except ExtError as exc:  # a bad seed name: the manifest check reports it first
            assert exc.fix
            return
        for key in result.seeded:  # dotted names are nested keys
            assert not dotted.lookup(data, key).found, "a seed replaced a present key"

    for fn in (manifest_bytes, settings_text, seed_merges):
        deadline = time.monotonic() + seconds / 3
        while time.monotonic() < deadline:
            fn()
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=120.0)
    args = parser.parse_args()
    counts = run(args.seconds)
    for name, n in counts.items():
        print(f"{name:<16} {n:>8} inputs, no failure")


if __name__ == "__main__":
    main()
