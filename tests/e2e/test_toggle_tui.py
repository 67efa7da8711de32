"""`ext toggle` for real, in a pseudo-terminal: move, switch two boxes, Enter applies; Escape."""

from __future__ import annotations

import re
from pathlib import Path

import pexpect
import pytest

from tests.e2e.conftest import EXT, Run
from tests.e2e.test_toggle_pi import make_set
from tests.helpers import snapshot

pytestmark = pytest.mark.e2e

DOWN = "\x1b[B"
ESCAPE = "\x1b"


@pytest.fixture
def where(ext: Run, tmp_path: Path) -> tuple[Path, Path]:
    agent = tmp_path / "agent"
    agent.mkdir()
    set_root = make_set(tmp_path / "set")
    ext("--set", str(set_root), "--agent-dir", str(agent), "install", "--yes", check=True)
    return set_root, agent


def spawn(where: tuple[Path, Path], env: dict[str, str], tmp_path: Path) -> pexpect.spawn:
    set_root, agent = where
    child = pexpect.spawn(
        str(EXT),
        ["--set", str(set_root), "--agent-dir", str(agent), "toggle"],
        cwd=str(tmp_path),
        env={**env, "TERM": "xterm-256color"},
        encoding="utf-8",
        dimensions=(30, 100),
        timeout=60,
    )
    child.expect("escape cancels")
    child.expect("gamma")  # the whole list is drawn: the prompt reads keys from here on
    return child


def test_move_switch_two_boxes_and_confirm(
    where: tuple[Path, Path], e2e_env: dict[str, str], tmp_path: Path
) -> None:
    _, agent = where
    child = spawn(where, e2e_env, tmp_path)
    try:
        child.send(DOWN)  # alpha -> beta
        child.send(" ")  # beta off
        child.send(DOWN)  # -> gamma
        child.send(" ")  # gamma off
        child.send("\r")  # the header says "enter applies": one Enter, no second question
        child.expect(pexpect.EOF)
        output = child.before
    finally:
        child.close()
    assert child.exitstatus == 0, output
    assert "[y/N]" not in output
    assert output.count(f"agent dir {agent} (from --agent-dir)") == 1, output  # said once
    assert "disable    extensions/beta.ts -> extensions/beta.ts.off" in output
    assert "disable    extensions/gamma -> extensions/.off/gamma" in output
    assert "done: 2 disabled" in output
    assert "now disabled: beta, gamma" in output
    assert (agent / "extensions/alpha.ts").is_symlink()
    assert (agent / "extensions/beta.ts.off").is_symlink()
    assert (agent / "extensions/.off/gamma").is_symlink()
    assert not (agent / "extensions/beta.ts").exists()
    assert not (agent / "extensions/gamma").exists()


def test_escape_cancels_and_writes_nothing(
    where: tuple[Path, Path], e2e_env: dict[str, str], tmp_path: Path
) -> None:
    _, agent = where
    before = snapshot(agent)
    child = spawn(where, e2e_env, tmp_path)
    try:
        child.send(" ")  # a change on screen that must not be written
        child.send(ESCAPE)
        child.expect(pexpect.EOF)
        output = child.before
    finally:
        child.close()
    assert child.exitstatus == 3, output
    assert "cancelled; nothing was written" in output
    assert output.count("cancelled") == 1, output  # said once, by the command's error
    assert snapshot(agent) == before


def test_escape_with_nothing_staged_exits_0_quietly(
    where: tuple[Path, Path], e2e_env: dict[str, str], tmp_path: Path
) -> None:
    _, agent = where
    before = snapshot(agent)
    child = spawn(where, e2e_env, tmp_path)
    try:
        child.send(ESCAPE)
        child.expect(pexpect.EOF)
        output = child.before
    finally:
        child.close()
    assert child.exitstatus == 0, output
    assert "error" not in output and "cancelled" not in output
    assert "nothing to do" not in output and "no box changed" not in output  # quietly
    assert snapshot(agent) == before


def test_ctrl_c_cancels_and_writes_nothing(
    where: tuple[Path, Path], e2e_env: dict[str, str], tmp_path: Path
) -> None:
    _, agent = where
    before = snapshot(agent)
    child = spawn(where, e2e_env, tmp_path)
    try:
        child.send(" ")
        child.sendcontrol("c")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 3
    assert snapshot(agent) == before


UP = "\x1b[A"


def spawn_on(
    set_root: Path,
    agent: Path,
    env: dict[str, str],
    tmp_path: Path,
    size: tuple[int, int] = (30, 100),
    *extra: str,
) -> pexpect.spawn:
    child = pexpect.spawn(
        str(EXT),
        [*extra, "--set", str(set_root), "--agent-dir", str(agent), "toggle"],
        cwd=str(tmp_path),
        env={**env, "TERM": "xterm-256color"},
        encoding="utf-8",
        dimensions=size,
        timeout=60,
    )
    child.expect("escape")
    return child


def test_a_row_shows_the_change_and_a_guard_refuses_only_that_row(
    ext: Run, e2e_env: dict[str, str], tmp_path: Path
) -> None:
    agent = tmp_path / "agent"
    agent.mkdir()
    set_root = make_set(tmp_path / "set", '[extensions.gamma]\nrequires = ["beta"]\n')
    ext("--set", str(set_root), "--agent-dir", str(agent), "install", "--yes", check=True)
    child = spawn_on(set_root, agent, e2e_env, tmp_path)
    try:
        child.expect("gamma")
        child.send(DOWN)  # alpha -> beta
        child.send(" ")  # beta off: refused, gamma is on and needs it
        child.expect("refused: .*gamma is enabled and needs it")
        child.send(DOWN)  # -> gamma
        child.send(" ")  # gamma off
        child.expect("enabled → disabled")
        child.send(UP)  # -> beta
        child.send(" ")  # beta off: fine now
        child.expect("2 changes: beta off, gamma off")
        child.send("\r")
        child.expect(pexpect.EOF)
        output = child.before
    finally:
        child.close()
    assert child.exitstatus == 0, output
    assert "done: 2 disabled" in output
    assert (agent / "extensions/beta.ts.off").is_symlink()
    assert (agent / "extensions/.off/gamma").is_symlink()


def test_a_tiny_terminal_and_no_color(
    where: tuple[Path, Path], e2e_env: dict[str, str], tmp_path: Path
) -> None:
    set_root, agent = where
    child = spawn_on(set_root, agent, e2e_env, tmp_path, (5, 20), "--no-color")
    try:
        child.send(" ")  # alpha off
        child.expect("1 change: al")  # the summary line, cut at 20 columns
        drawn = child.before
        child.send("\r")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
    assert "» on→off alpha" in drawn
    assert not re.search(r"\x1b\[[0-9;]*(3[0-7]|9[0-7]|38;[25];[0-9;]+)m", drawn)  # no colour
    assert (agent / "extensions/alpha.ts.off").is_symlink()
