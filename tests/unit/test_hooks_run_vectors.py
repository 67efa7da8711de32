"""tests/hooks-run-vectors.json: which hooks pi's project-hooks runs, and how ext's review
shows each (pi's own dialog shows the same lines: tests/ts/project-hooks.test.mjs).

helper-45: a matcher that was no string ran for everything while shown as a filter; one that
backtracks froze pi before any consent; a timeout of 1e10 fired at once; a negative one was
shown as itself and run with the default. A hook that is not run is never shown with `$`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from installer.consent.hooks import list_commands
from installer.render.consent import describe

VECTORS = json.loads((Path(__file__).parents[1] / "hooks-run-vectors.json").read_text("utf-8"))


@pytest.mark.parametrize("vector", VECTORS["vectors"], ids=lambda v: v["name"])
def test_ext_shows_each_hook_as_pi_runs_it(vector: dict[str, Any]) -> None:
    [command] = list_commands(vector["config"])
    assert describe(command) == vector["lines"]
    assert command.not_run == vector["not_run"]
    runs = vector["lines"][1].startswith("    $ ")
    assert runs == (command.not_run is None and command.kind == "command")


def test_the_vectors_hold_both_kinds() -> None:
    said = [v["lines"][1].startswith("    $ ") for v in VECTORS["vectors"]]
    assert said.count(True) >= 5 and said.count(False) >= 5
