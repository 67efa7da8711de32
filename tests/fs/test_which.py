"""installer.ground.which finds what shutil.which finds, on every PATH a user could have.

ext writes shutil's POSIX lookup out to spare the import on a no-op install; this pins the
two together on real files: a Python release that changes the rule fails here.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from installer.ground.which import which

# Each folder holds `pi` as something else: the lookup must pass over all but the first two.
FOLDERS = {
    "exec": "an executable file",
    "exec2": "an executable file",
    "plain": "a file without x",
    "dir": "a folder named pi",
    "link": "a link to the executable",
    "dead": "a dangling link",
    "none": "no pi at all",
}
ENTRIES = st.sampled_from([*FOLDERS, "", ".", "missing", "exec/"])
PATHS = st.one_of(st.none(), st.lists(ENTRIES, max_size=6))
COMMANDS = st.sampled_from(["pi", "exec/pi", "plain/pi", "dir/pi", "./pi", "nope", ""])

pytestmark = pytest.mark.skipif(os.name != "posix", reason="elsewhere shutil itself answers")


def _tree(root: Path) -> None:
    for name in FOLDERS:
        (root / name).mkdir(exist_ok=True)
    for name in ("exec", "exec2"):
        (root / name / "pi").write_text("#!/bin/sh\n")
        (root / name / "pi").chmod(0o755)
    (root / "plain" / "pi").write_text("#!/bin/sh\n")
    (root / "plain" / "pi").chmod(0o644)
    (root / "dir" / "pi").mkdir(exist_ok=True)
    if not (root / "link" / "pi").is_symlink():
        (root / "link" / "pi").symlink_to(root / "exec" / "pi")
        (root / "dead" / "pi").symlink_to(root / "gone")
    (root / "pi").write_text("#!/bin/sh\n")  # in the current folder: `./pi` and a "" entry
    (root / "pi").chmod(0o755)


@settings(max_examples=200, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entries=PATHS, cmd=COMMANDS, absolute=st.booleans())
def test_which_is_shutils_answer(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    entries: list[str] | None,
    cmd: str,
    absolute: bool,
) -> None:
    _tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    path = None
    if entries is not None:
        path = os.pathsep.join(str(tmp_path / e) if absolute and e else e for e in entries)
    assert which(cmd, path=path) == shutil.which(cmd, path=path)


def test_which_reads_path_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _tree(tmp_path)
    for value in (f"{tmp_path / 'plain'}:{tmp_path / 'exec2'}", "", None):
        if value is None:
            monkeypatch.delenv("PATH", raising=False)
        else:
            monkeypatch.setenv("PATH", value)
        assert which("pi") == shutil.which("pi")
        assert which("sh") == shutil.which("sh")
