"""What the real pi does with a folder extension whose entry is a FIFO: it waits on it and
never starts. ext's install refuses such an extension for that reason (installer/sets/modes.
refuse_unloadable_entries; tests/fs/test_hostile_set_files.py), so the reason is pinned here,
on each pi. The extension is placed by hand, as ext would not link it."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.helpers import build_tree

pytestmark = pytest.mark.e2e

ENTRY = "export default function (pi) { pi.registerFlag('d-flag', { type: 'boolean' }); }\n"


def start(pi_bin: Path, agent: Path, env: dict[str, str], cwd: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [str(pi_bin), "--help"],
        cwd=cwd,
        env={**env, "PI_CODING_AGENT_DIR": str(agent)},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # pi ignores SIGTERM while it waits: its group is killed
    )


def test_pi_waits_for_ever_on_a_fifo_as_a_folder_extensions_entry(
    pi_bin: Path, e2e_env: dict[str, str], tmp_path: Path
) -> None:
    agent = build_tree(tmp_path / "agent", {"extensions/d/index.ts": ENTRY})
    began = time.monotonic()
    fine = start(pi_bin, agent, e2e_env, tmp_path)
    assert fine.wait(timeout=60) == 0  # the same extension, a regular file: pi starts
    took = time.monotonic() - began

    entry = agent / "extensions/d/index.ts"
    entry.unlink()
    os.mkfifo(entry)
    stuck = start(pi_bin, agent, e2e_env, tmp_path)
    try:
        with pytest.raises(subprocess.TimeoutExpired):
            stuck.wait(timeout=3 * took + 3)
    finally:
        os.killpg(stuck.pid, signal.SIGKILL)
        stuck.wait()
