"""installer.engine.journal._line: a link's step, written without the JSON encoder, is the very
line the encoder writes, for any path and target (quotes, controls, any plane, lone halves)."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from installer.engine import journal

TEXT = st.text(st.characters(codec=None, exclude_categories=()), max_size=40)


@given(TEXT, TEXT)
def test_a_link_step_is_the_encoders_line(path: str, target: str) -> None:
    step = {"op": "symlink", "path": path, "target": target}
    line = journal._line(step)
    assert line == journal._encode(step) + "\n"
    assert json.loads(line) == step


def test_any_other_step_goes_through_the_encoder() -> None:
    for step in (
        {"op": "symlink", "path": "a", "target": "b", "old": "c"},
        {"op": "relink", "path": "a", "target": "b"},
        {"op": "symlink", "path": "a", "target": None},
        {"journal": 1, "command": "install"},
    ):
        assert journal._line(step) == journal._encode(step) + "\n"  # type: ignore[arg-type]
