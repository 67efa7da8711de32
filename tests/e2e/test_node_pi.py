"""pi 1.6.0 on the system's Node 20 (pi 1.6 needs Node >= 22.19): doctor says so, launch refuses.

The claim is about what the real pi does on an old Node (it dies in its own SyntaxError), so
it runs today's pi, on a Node older than its engines.node and on the Node 22 scripts/setup
installs. The rules (the cache, the messages, the odd first lines) are tests/fs/test_host_node.py's.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from installer.host.lines import NEW_PACKAGE, OLD_PACKAGE
from tests.e2e.conftest import Run
from tests.pis import CACHE, today


def old_node(tmp_path: Path) -> tuple[Path, str]:
    """A folder holding only the system's node, when it is older than pi 1.6 needs; its version."""
    cache = os.path.realpath(CACHE)  # .cache may be a link to a shared one
    path = os.environ["PATH"].split(os.pathsep)
    outside = [d for d in path if not os.path.realpath(d).startswith(cache + os.sep)]
    found = shutil.which("node", path=os.pathsep.join(outside))
    if found is None:
        pytest.skip("no system node")
    said = subprocess.run(
        [found, "--version"], capture_output=True, text=True, timeout=30, check=False
    ).stdout.strip()
    major, minor = (int(n) for n in said.lstrip("v").split(".")[:2])
    if (major, minor) >= (22, 19):
        pytest.skip(f"the system's node is {said}: new enough for pi 1.6")
    folder = tmp_path / "old-node"
    folder.mkdir()
    os.symlink(found, folder / "node")
    return folder / "node", said.lstrip("v")


def test_pi_1_6_on_an_old_node_is_an_error_in_doctor_and_launch_refuses_and_on_node_22_ok(
    ext: Run, e2e_env: dict[str, str], tmp_path: Path
) -> None:
    pi = today().require()
    fine = ext("doctor", "--check", "host.node")  # today's pi with the Node it needs first
    assert fine.returncode == 0, fine.stdout + fine.stderr
    assert fine.stdout.startswith("ok     host.node         Node 22.")
    assert "runs pi 1.6.0 (it needs >=22.19.0)" in fine.stdout

    node, version = old_node(tmp_path)
    old = {**e2e_env, "PATH": os.pathsep.join([str(pi.bin.parent), str(node.parent)])}
    # The premise: the real pi on that Node dies in its own stack trace.
    direct = subprocess.run(
        [str(pi.bin), "--version"], env=old, capture_output=True, text=True, timeout=60, check=False
    )
    assert direct.returncode != 0 and "enableCompileCache" in direct.stderr

    doctor = ext("doctor", "--check", "host.node", env=old)
    launch = ext("launch", "--", "--version", env=old)
    install = ext("install", "--yes", env=old)  # the bundled set: it has a tested range

    said = f"pi 1.6.0 cannot run on Node {version} ({node}): it needs Node 22.19.0 or newer"
    assert doctor.returncode == 1
    [row] = [line for line in doctor.stdout.splitlines() if " host.node " in line]
    assert row.split(None, 2)[::2] == ["error", f"{said} (engines.node in its package.json)"]
    npm = f"npm --prefix {pi.bin.parents[2]}"  # the pi of .cache/: a local install there
    assert f"{npm} uninstall {NEW_PACKAGE} && {npm} install {OLD_PACKAGE}@0.73.1" in doctor.stdout
    assert launch.returncode == 1
    assert f"error: {said}" in launch.stderr
    assert install.returncode == 0 and f"warning: {said}" in install.stderr  # helper-81
    assert launch.stdout == "" and "SyntaxError" not in launch.stderr  # pi was never started
