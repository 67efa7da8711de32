"""scripts/setup checks the Python version before anything else, with a clear message."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_an_old_python_is_refused_before_anything_is_made(tmp_path: Path) -> None:
    old = tmp_path / "python3.10"
    # A Python 3.10 as far as setup can tell: it prints 3.10 and fails the version check.
    old.write_text('#!/bin/sh\ncase "$2" in *print*) echo 3.10 ;; *) exit 1 ;; esac\n')
    old.chmod(0o755)
    env = {**os.environ, "PYTHON": str(old)}

    done = subprocess.run(
        [str(REPO / "scripts" / "setup")],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )

    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"error: {old} is Python 3.10; ext needs 3.11 or newer",
        "  fix: install Python 3.11+, or name one: PYTHON=python3.12 scripts/setup",
    ]
