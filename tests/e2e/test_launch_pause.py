"""`ext launch` into a dir without /ext, in a terminal: its warnings would go with pi's first
screen, with nothing to say them again (ext's /ext says them as pi's notice), so ext waits
for Enter first (helper-47: a pi started on a dir without the set, and no word of it)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pexpect
import pytest

from tests.e2e.conftest import EXT, Run
from tests.helpers import build_tree

pytestmark = pytest.mark.e2e


def set_elsewhere(tmp_path: Path, ext: Run) -> list[str]:
    """A set installed in one dir, and the words that launch pi on another, empty one."""
    root = build_tree(tmp_path / "set", {"extensions/a.ts": "export default function () {}\n"})
    ext("--set", str(root), "--agent-dir", str(tmp_path / "there"), "install", "--create",
        "--yes", check=True)  # fmt: skip
    (tmp_path / "empty").mkdir()
    return ["--set", str(root), "--agent-dir", str(tmp_path / "empty"), "launch"]


def stopped_at_the_wait(
    argv: list[str], env: dict[str, str], stop: Callable[[Any], object]
) -> tuple[str, Any]:
    """What ext said before it waited, and the child once `stop` answered the wait."""
    child = pexpect.spawn(str(EXT), argv, env=env, encoding="utf-8", timeout=60)
    child.expect("press Enter to start pi, or Ctrl-C to stop")
    said = child.before
    stop(child)
    child.expect(pexpect.EOF)
    child.close()
    return said, child


def test_a_launch_whose_warning_pi_would_wipe_waits_for_enter(
    e2e_env: dict[str, str], tmp_path: Path, ext: Run, pi_bin: Path
) -> None:
    argv = set_elsewhere(tmp_path, ext)

    said, interrupted = stopped_at_the_wait(argv, e2e_env, lambda c: c.sendintr())
    _, ended = stopped_at_the_wait(argv, e2e_env, lambda c: c.sendeof())

    assert "the set is not installed here but in" in said, said
    assert interrupted.exitstatus != 0 or interrupted.signalstatus is not None  # pi never ran
    # Ctrl-D is no yes either (helper-49: it started pi)
    assert ended.exitstatus == 3 and "declined; pi was not started" in ended.before


def test_no_wait_where_pi_draws_no_screen_or_has_no_terminal(
    e2e_env: dict[str, str], tmp_path: Path, ext: Run, pi_bin: Path
) -> None:
    at = set_elsewhere(tmp_path, ext)
    for args in (["--version"], ["list"]):  # pi's own commands draw no screen (helper-49)
        child = pexpect.spawn(str(EXT), [*at, "--", *args], env=e2e_env, encoding="utf-8")
        child.expect(pexpect.EOF, timeout=60)
        assert "press Enter" not in child.before, args
    piped = ext(*at, "--", "--version")  # no terminal: nothing to wait on
    assert piped.returncode == 0 and "press Enter" not in piped.stderr
