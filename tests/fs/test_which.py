"""installer.ground.which finds what shutil.which finds over PATH's absolute entries, on every
PATH a user could have.

ext writes shutil's POSIX lookup out to spare the import on a no-op install; this pins the
two together on real files: a Python release that changes the rule fails here. A relative
entry (``, `.`) is passed over: it names a folder of wherever ext runs (helper-77).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from installer.ground.which import for_children, only_relative, which

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


def _absolute(path: str | None) -> str | None:
    """PATH's absolute entries, as ext's `which` reads them ("" when there are none: shutil
    then finds nothing, as ext does)."""
    if path is None:
        return None
    return os.pathsep.join(e for e in path.split(os.pathsep) if os.path.isabs(e))


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
    assert which(cmd, path=path) == shutil.which(cmd, path=_absolute(path))
    assert which(cmd, path=path, as_a_shell=True) == shutil.which(cmd, path=path)


def test_which_reads_path_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _tree(tmp_path)
    for value in (f"{tmp_path / 'plain'}:{tmp_path / 'exec2'}", "", None):
        if value is None:
            monkeypatch.delenv("PATH", raising=False)
        else:
            monkeypatch.setenv("PATH", value)
        assert which("pi") == shutil.which("pi", path=_absolute(value))
        assert which("sh") == shutil.which("sh", path=_absolute(value))


@pytest.mark.parametrize(
    ("entries", "kept"),
    [(["", "{exec}"], "{exec}"), ([".", "{exec}"], "{exec}"), (["{exec}", ""], "{exec}"),
     (["exec"], os.defpath)],
)  # fmt: skip
def test_a_relative_entry_is_passed_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, entries: list[str], kept: str
) -> None:
    """A leading or trailing `:` is the current folder: a cloned repository's `pi` there is
    never what ext runs, and the programs ext starts get no such entry either."""
    _tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    exec2 = tmp_path / "exec2"
    path = os.pathsep.join(e.format(exec=exec2) for e in entries)
    # none absolute: ext finds nothing, and a child gets /bin:/usr/bin, never ""
    assert which("pi", path=path) == (str(exec2 / "pi") if kept != os.defpath else None)
    assert for_children({"PATH": path, "HOME": "/h"}) == {
        "PATH": kept.format(exec=exec2),
        "HOME": "/h",
    }
    assert for_children({"HOME": "/h"}) == {"HOME": "/h"}


def test_a_program_only_a_relative_entry_holds_is_named_for_the_not_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    exec2 = str(tmp_path / "exec2")
    said = " (only {}, through a relative entry, which ext never runs)"
    assert only_relative("pi", f"/nowhere{os.pathsep}") == said.format("./pi")  # the empty entry
    assert only_relative("pi", f"exec{os.pathsep}/nowhere") == said.format("exec/pi")
    assert only_relative("pi", f"{exec2}{os.pathsep}") == ""  # found where ext looks
    assert only_relative("nope", os.pathsep) == ""
    assert only_relative("./pi", os.pathsep) == ""  # a path is looked up as given
