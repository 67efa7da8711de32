"""`ext launch` into a dir without /ext, in a terminal: its warnings would go with pi's first
screen, with nothing to say them again (ext's /ext says them as pi's notice), so ext waits
for Enter first (helper-47: a pi started on a dir without the set, and no word of it)."""

from __future__ import annotations

from pathlib import Path

import pexpect
import pytest

from tests.e2e.conftest import EXT, Run
from tests.helpers import build_tree

pytestmark = pytest.mark.e2e


def test_a_launch_whose_warning_pi_would_wipe_waits_for_enter(
    e2e_env: dict[str, str], tmp_path: Path, ext: Run, pi_bin: Path
) -> None:
    root = build_tree(tmp_path / "set", {"extensions/a.ts": "export default function () {}\n"})
    ext("--set", str(root), "--agent-dir", str(tmp_path / "there"), "install", "--create",
        "--yes", check=True)  # fmt: skip
    empty = tmp_path / "empty"
    empty.mkdir()
    child = pexpect.spawn(
        str(EXT),
        ["--set", str(root), "--agent-dir", str(empty), "launch"],
        env=e2e_env,
        cwd=str(tmp_path),
        encoding="utf-8",
        timeout=60,
    )
    child.expect("press Enter to start pi, or Ctrl-C to stop")
    said = child.before
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()

    assert "the set is not installed here but in" in said, said
    assert child.exitstatus != 0 or child.signalstatus is not None  # pi never started
    # Ctrl-D is no yes either (helper-49: it started pi)
    child = pexpect.spawn(
        str(EXT),
        ["--set", str(root), "--agent-dir", str(empty), "launch"],
        env=e2e_env,
        cwd=str(tmp_path),
        encoding="utf-8",
        timeout=60,
    )
    child.expect("press Enter to start pi")
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 3 and "declined; pi was not started" in child.before


def test_no_wait_where_pi_draws_no_screen_or_has_no_terminal(
    e2e_env: dict[str, str], tmp_path: Path, ext: Run, pi_bin: Path
) -> None:
    root = build_tree(tmp_path / "set", {"extensions/a.ts": "export default function () {}\n"})
    ext("--set", str(root), "--agent-dir", str(tmp_path / "there"), "install", "--create",
        "--yes", check=True)  # fmt: skip
    (tmp_path / "empty").mkdir()
    at = ["--set", str(root), "--agent-dir", str(tmp_path / "empty"), "launch"]
    for args in (["--version"], ["list"]):  # pi's own commands draw no screen (helper-49)
        child = pexpect.spawn(str(EXT), [*at, "--", *args], env=e2e_env, encoding="utf-8")
        child.expect(pexpect.EOF, timeout=60)
        assert "press Enter" not in child.before, args
    piped = ext(*at, "--", "--version")  # no terminal: nothing to wait on
    assert piped.returncode == 0 and "press Enter" not in piped.stderr
