"""An install with nothing to link still writes the state record when the record is not what
it would write for the set: emptied (a power cut can leave a new file at 0 bytes), or naming
an `ext` that is gone. doctor's fix for both is `ext install`, which must then mend it."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from installer.commands.install import Install, install
from installer.commands.uninstall import Uninstall, uninstall
from installer.doctor import resolve_subject, run_checks
from installer.ground.context import Env, resolve
from installer.ground.state import load_state
from tests.helpers import build_tree, yes

SET = {
    "extset.toml": '[set]\nname = "tools"\n',
    "extensions/notify.ts": "export default function () {}\n",
    "skills/review/SKILL.md": "---\nname: review\ndescription: d\n---\n",
}


class Installed:
    def __init__(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.tmp = tmp_path
        self.root = build_tree(tmp_path / "set", dict(SET))
        self.agent = tmp_path / "agent"
        self.agent.mkdir(mode=0o755)
        self.ext = self.executable("bin")
        monkeypatch.setattr(sys, "argv", [str(self.ext), "install"])
        self.monkeypatch = monkeypatch
        self.install()

    def executable(self, folder: str) -> Path:
        ext = build_tree(self.tmp / folder, {"ext": "#!/bin/sh\n"}) / "ext"
        ext.chmod(0o755)
        (self.tmp / folder).chmod(0o755)
        return ext

    def env(self) -> Env:
        return Env(environ=dict(os.environ), cwd=self.tmp)

    def install(self) -> list[str]:
        result = install(resolve(self.env(), self.root, self.agent), Install(), yes)
        self.notes, self.changed = result.notes, result.changed
        return [a.action for a in result.plan.changes]

    @property
    def record(self) -> Path:
        return self.agent / ".extset" / "state.json"

    def doctor(self) -> tuple[str, str]:
        s = resolve_subject(self.env(), self.root, self.agent, lambda _c, _p: None)
        [row] = run_checks(s, ["command"])
        return row.level, row.message

    def recorded_ext(self) -> str | None:
        rec = load_state(self.agent).record_of(self.root, "tools")
        return None if rec is None else rec.extra["command"]["ext"]


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Installed:
    return Installed(tmp_path, monkeypatch)


def test_an_emptied_record_is_written_again_by_an_install_with_nothing_to_link(
    installed: Installed,
) -> None:
    installed.record.write_bytes(b"")
    assert installed.doctor()[0] == "warn"  # "/ext is in pi, but no ext is recorded for it"
    assert installed.install() == []  # every link is in place: nothing to show
    assert installed.notes == (
        "ext's record (.extset/state.json) had no line for this set: written",
    )
    assert installed.changed  # it wrote something
    assert installed.recorded_ext() == str(installed.ext)
    assert installed.doctor() == (
        "ok",
        f"/ext is available in pi (extensions/ext-command.ts, runs {installed.ext})",
    )


def test_a_record_naming_an_ext_that_is_gone_names_the_ext_that_runs_now(
    installed: Installed,
) -> None:
    now = installed.executable("elsewhere")
    installed.ext.unlink()
    level, message = installed.doctor()
    assert (level, f"the ext that installed it ({installed.ext}) is gone") == (
        "warn",
        message.split(", but ")[1].split(": /ext")[0],
    )
    installed.monkeypatch.setattr(sys, "argv", [str(now), "install"])
    assert installed.install() == []
    assert installed.notes == (
        "the set's line in ext's record (.extset/state.json) was not what is installed: "
        "written again",
    )
    assert installed.recorded_ext() == str(now)
    assert installed.doctor()[0] == "ok"


def test_an_install_whose_record_is_current_writes_nothing(installed: Installed) -> None:
    before = os.stat(installed.record)
    bytes_before = installed.record.read_bytes()
    assert installed.install() == []
    assert installed.notes == () and not installed.changed
    after = os.stat(installed.record)
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert installed.record.read_bytes() == bytes_before


def test_the_record_keeps_the_other_sets_in_their_order(installed: Installed) -> None:
    other = json.loads(installed.record.read_text())
    first = {"root": str(installed.tmp / "other"), "name": "other", "mode": "link"}
    other["sets"].insert(0, first)
    installed.record.write_text(json.dumps(other))
    bytes_before = installed.record.read_bytes()
    assert installed.install() == []  # this set's line is current: the order is not a change
    assert installed.record.read_bytes() == bytes_before


def test_an_uninstall_with_nothing_to_remove_drops_a_stale_line(installed: Installed) -> None:
    uninstall(resolve(installed.env(), installed.root, installed.agent), Uninstall(), yes)
    assert load_state(installed.agent).record_of(installed.root, "tools") is None
    stale = {"root": str(installed.root), "name": "tools", "mode": "link"}
    installed.record.write_text(json.dumps({"sets": [stale]}))
    result = uninstall(resolve(installed.env(), installed.root, installed.agent), Uninstall(), yes)
    assert result.plan.changes == ()
    assert load_state(installed.agent).record_of(installed.root, "tools") is None


def test_a_dry_run_mends_nothing_and_says_the_run_would(installed: Installed) -> None:
    installed.record.write_bytes(b"")
    ctx = resolve(installed.env(), installed.root, installed.agent)
    shown = install(ctx, Install(dry_run=True), yes)
    assert installed.record.read_bytes() == b""
    assert shown.changed  # DESIGN: with --dry-run, whether the real run would write
    assert shown.notes == (
        "ext's record (.extset/state.json) had no line for this set: would be written",
    )
