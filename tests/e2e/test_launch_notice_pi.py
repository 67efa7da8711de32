"""`ext launch`'s drift warning stays readable: printed before pi starts (a log keeps it), and
said again inside pi as pi's own notice, which pi's screen does not wipe."""

from __future__ import annotations

import re
from pathlib import Path

import pexpect
import pytest

from tests.e2e.conftest import EXT, Run
from tests.helpers import build_tree
from tests.pis import RealPi

pytestmark = pytest.mark.e2e

MANIFEST = '[set]\nname = "old"\n[host]\ntested = ">=0.1.0 <0.2.0"\n'
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")


def test_the_drift_warning_is_said_as_pis_own_notice(
    real_pi: RealPi, ext: Run, e2e_env: dict[str, str], tmp_path: Path
) -> None:
    real_pi.require()
    root = build_tree(
        tmp_path / "set",
        {"extset.toml": MANIFEST, "extensions/hello.ts": "export default function () {}\n"},
    )
    agent = tmp_path / "agent"
    agent.mkdir()
    where = ("--set", str(root), "--agent-dir", str(agent))
    ext(*where, "install", "--yes", check=True)
    child = pexpect.spawn(
        str(EXT),
        [*where, "launch"],
        cwd=str(tmp_path),
        env={**e2e_env, "TERM": "xterm-256color"},
        encoding="utf-8",
        dimensions=(40, 160),
        timeout=60,
    )
    try:
        child.expect("warning: pi ")  # on the terminal first, as ext prints every warning
        child.expect("ext launch: pi ")  # pi's notice, drawn on pi's own screen
        child.expect(r"tested")
        shown = " ".join(_ANSI.sub("", child.before).split())
    finally:
        child.terminate(force=True)
    assert re.match(rf"{re.escape(real_pi.version)} is newer than the versions this set was", shown)
