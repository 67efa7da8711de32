"""The drift hint rides on every install: once its range was asked, it loads no version library."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

CODE = (
    "from installer.host.pi import drift_message; "
    "print(drift_message('1.6.0', '>=0.73.0 <0.74.0', 'pi', '@earendil-works/pi-coding-agent'))"
)


def _run(tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-X", "importtime", "-c", CODE],
        cwd=tmp_path,
        env=dict(os.environ),  # the test's own cache dir: the memo starts empty
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )


def _loaded(stderr: str) -> set[str]:
    return {line.rsplit("|", 1)[1].strip() for line in stderr.splitlines() if "|" in line}


def test_the_second_drift_hint_for_a_range_is_the_memos_answer(tmp_path: Path) -> None:
    first = _run(tmp_path)
    again = _run(tmp_path)

    assert "nodesemver" in _loaded(first.stderr)
    assert "nodesemver" not in _loaded(again.stderr)
    assert again.stdout == first.stdout
    assert "npm install -g @mariozechner/pi-coding-agent@0.73.1" in again.stdout
