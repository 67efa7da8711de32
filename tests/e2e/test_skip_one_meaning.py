"""An item an install's --skip left out is the same thing in both modes: `not-installed` in the
list, the picker and JSON; `ext disable` of it puts it in off for good; `ext enable` of it
puts it in, saying it was left out. (In register mode ext's own filter keeps it out of pi, in
link mode the missing link does; no one's switch either way.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.conftest import Run
from tests.helpers import build_tree, snapshot

pytestmark = pytest.mark.e2e

SET = {
    "extset.toml": '[set]\nname = "probe"\n',
    "extensions/a.ts": "export default function () {}\n",
    "extensions/b.ts": "export default function () {}\n",
}


@pytest.fixture(params=["link", "link-pi", "register"])
def skipped(request: pytest.FixtureRequest, ext: Run, tmp_path: Path) -> tuple[str, ...]:
    """The set installed in full, then again with --skip b: the arguments that reach it.
    "link-pi": link mode whose switch is pi's `-path` (`switch = "pi"`), not a `.off` link."""
    files = dict(SET)
    if request.param == "link-pi":
        files["extset.toml"] += 'switch = "pi"\n'
    at = ("--set", str(build_tree(tmp_path / "set", files)), "--agent-dir", str(tmp_path / "a"))
    mode = ("--mode", request.param.removesuffix("-pi"))
    ext(*at, "install", "--create", *mode, "--yes", check=True)
    ext(*at, "install", *mode, "--skip", "b", "--yes", check=True)
    return at


def states(ext: Run, at: tuple[str, ...]) -> dict[str, str]:
    listed = json.loads(ext(*at, "--json", "list", check=True).stdout)
    return {i["name"]: i["state"] for i in listed["items"]}


def test_a_skipped_item_is_not_installed_in_both_modes(ext: Run, skipped: tuple[str, ...]) -> None:
    assert states(ext, skipped) == {"a": "enabled", "b": "not-installed"}
    listed = json.loads(ext(*skipped, "--json", "list", check=True).stdout)["items"]
    [b] = [i for i in listed if i["name"] == "b"]
    assert b["left_out"] is True
    assert "an install's --only/--skip left it out" in b["note"]
    assert b["note"].endswith("; an enable puts it in")


def test_disable_of_a_skipped_item_puts_it_in_off_for_good(
    ext: Run, skipped: tuple[str, ...], tmp_path: Path
) -> None:
    """`ext disable` is off for good in both modes, for an item --skip left out too: it is put
    in switched off (a parked link; pi's `-path`; the entry's filter, now the user's), shown
    as such, and a plain install keeps it off; `ext enable` brings it back."""
    done = ext(*skipped, "disable", "b", "--yes", check=True)

    assert "off for good" in done.stdout, done.stdout
    assert states(ext, skipped)["b"] == "disabled"
    ext(*skipped, "install", "--yes", check=True)
    assert states(ext, skipped)["b"] == "disabled"
    ext(*skipped, "enable", "b", "--yes", check=True)
    assert states(ext, skipped)["b"] == "enabled"


def test_a_dry_run_of_that_disable_writes_nothing(
    ext: Run, skipped: tuple[str, ...], tmp_path: Path
) -> None:
    before = snapshot(tmp_path / "a")
    ext(*skipped, "disable", "b", "--dry-run", check=True)
    assert snapshot(tmp_path / "a") == before
    assert states(ext, skipped)["b"] == "not-installed"


def test_enable_of_a_skipped_item_puts_it_in_and_says_it_was_left_out(
    ext: Run, skipped: tuple[str, ...]
) -> None:
    done = ext(*skipped, "enable", "b", "--yes", check=True)

    assert "an install's --only/--skip left it out" in done.stdout
    assert states(ext, skipped) == {"a": "enabled", "b": "enabled"}


def test_the_plan_of_a_skip_says_why_in_both_modes(
    ext: Run, skipped: tuple[str, ...], tmp_path: Path
) -> None:
    ext(*skipped, "install", "--yes", check=True)  # b back in
    plan = ext(*skipped, "install", "--skip", "b", "--dry-run", check=True).stdout
    line = next(line for line in plan.splitlines() if "b.ts" in line)
    assert "not selected: --only/--skip leave it out, so it is not installed" in line, plan


def test_only_the_filter_of_the_skip_says_not_selected(ext: Run, tmp_path: Path) -> None:
    """link -> register with a --skip, an item switched off by the user in the same entry: its
    filter is the user's switch carried over, not the selection's, and says nothing of it."""
    at = ("--set", str(build_tree(tmp_path / "set", SET)), "--agent-dir", str(tmp_path / "a"))
    ext(*at, "install", "--create", "--yes", check=True)
    ext(*at, "disable", "a", "--yes", check=True)

    plan = ext(*at, "install", "--mode", "register", "--skip", "b", "--dry-run", check=True)

    line = next(line for line in plan.stdout.splitlines() if "filter" in line)
    assert "adds -extensions/b.ts (not selected: --only/--skip leave it out" in line, line
    assert line.endswith(", adds -extensions/a.ts)"), line  # the user's: no reason added


def test_pi_s_switch_is_written_before_every_link_it_keeps_off(ext: Run, tmp_path: Path) -> None:
    """switch = "pi", two items left out, disabled in one plan: settings.json's `-path`s are
    journaled (and written) before the first link, so pi never loads either one on."""
    files = {**SET, "extset.toml": SET["extset.toml"] + 'switch = "pi"\n'}
    files["extensions/c.ts"] = "export default function () {}\n"
    agent = tmp_path / "a"
    at = ("--set", str(build_tree(tmp_path / "set", files)), "--agent-dir", str(agent))
    ext(*at, "install", "--create", "--only", "a", "--yes", check=True)

    ext(*at, "disable", "b", "c", "--yes", check=True)

    newest = sorted((agent / ".extset" / "journal").iterdir())[-1]
    ops = [json.loads(line).get("op") for line in newest.read_text().splitlines()]
    ops = [op for op in ops if op in ("symlink", "write")]
    assert ops == ["write", "symlink", "symlink"], ops


def test_a_guard_does_not_refuse_putting_in_off_what_was_never_on(ext: Run, tmp_path: Path) -> None:
    """a requires b; b left out: disabling b turns nothing off that is on, so no guard."""
    files = {**SET, "extset.toml": SET["extset.toml"] + '[extensions.a]\nrequires = ["b"]\n'}
    at = ("--set", str(build_tree(tmp_path / "set", files)), "--agent-dir", str(tmp_path / "a"))
    ext(*at, "install", "--create", "--skip", "b", "--yes", check=True)

    done = ext(*at, "disable", "b", "--yes")

    assert done.returncode == 0, done.stderr
    assert states(ext, at)["b"] == "disabled"
