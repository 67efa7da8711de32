"""Faults in installs that also write settings.json (seeds, a register entry) roll back whole."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from installer.commands.install import Install, install
from installer.ground.errors import ExitCode, ExtError
from tests.fs.test_faults import WRITES, context, failing, user_view
from tests.helpers import build_tree, yes

MANIFEST = (
    '[set]\nname = "tools"\n[settings.seed]\nquietStartup = true\n"compaction.enabled" = true\n'
)
SETTINGS = b'{\n\t"theme": "dark",\n\t"packages": ["npm:other"]\n}'  # tabs, no final newline


def _agent_and_set(base: Path, linked: bool) -> tuple[Path, Path]:
    set_root = build_tree(
        base / "set",
        {
            "extset.toml": MANIFEST,
            "extensions/notify.ts": "export default () => {};\n",
            "extensions/gamma/index.ts": "export default () => {};\n",
        },
    )
    agent = build_tree(
        base / "agent",
        {"settings.json": SETTINGS, "extensions/notify.ts": "my own notify\n"},
    )
    if linked:  # installed by links before: register mode must remove them
        install(context(set_root, agent), Install(), yes)
    return set_root, agent


def _calls(base: Path, linked: bool, mode: str) -> dict[str, int]:
    set_root, agent = _agent_and_set(base, linked)
    counts = dict.fromkeys(WRITES, 0)
    reals = {name: getattr(os, name) for name in WRITES}

    def counting(name: str):  # type: ignore[no-untyped-def]
        def op(*args: object, **kw: object) -> object:
            counts[name] += 1
            return reals[name](*args, **kw)

        return op

    for name in WRITES:
        setattr(os, name, counting(name))
    try:
        install(context(set_root, agent), Install(skip=("gamma",), mode=mode), yes)
    finally:
        for name, real in reals.items():
            setattr(os, name, real)
    return counts


@pytest.mark.parametrize(("linked", "mode"), [(False, "link"), (True, "register")])
@pytest.mark.parametrize("name", WRITES)
def test_every_fault_leaves_settings_and_links_as_they_were(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, linked: bool, mode: str
) -> None:
    total = _calls(tmp_path / "count", linked, mode)[name]
    failed = 0
    for nth in range(1, total + 1):
        set_root, agent = _agent_and_set(tmp_path / f"{name}-{nth}", linked)
        before, state = user_view(agent), _state(agent)
        with monkeypatch.context() as m:
            m.setattr(os, name, failing(name, nth))
            try:
                install(context(set_root, agent), Install(skip=("gamma",), mode=mode), yes)
                error = None
            except ExtError as err:
                error = err
        if error is None:  # no fault fired (a folder that was there) or one that recovered
            again = install(context(set_root, agent), Install(skip=("gamma",), mode=mode), yes)
            assert again.plan.is_empty, f"os.{name} call {nth}: the job was left half done"
            continue
        failed += 1
        assert error.exit_code == ExitCode.FAILED
        assert re.search("rolled back|nothing was written|injected", error.message)
        assert user_view(agent) == before, f"os.{name} call {nth} of {total}: the agent dir changed"
        assert _state(agent) == state
        assert not (agent / "settings.json.lock").exists()
    assert failed or not total, f"no os.{name} fault made the install fail"
    print(f"os.{name} ({mode}): {total} calls, {failed} injected faults made it fail")


def _state(agent: Path) -> bytes | None:
    path = agent / ".extset" / "state.json"
    return path.read_bytes() if path.exists() else None


def test_ctrl_c_right_after_the_settings_commit_is_rolled_back_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from installer.ground import atomic
    from installer.ground.errors import RolledBack

    set_root, agent = _agent_and_set(tmp_path, linked=True)
    before, state = user_view(agent), _state(agent)

    real, calls = atomic.fsync_dir, []

    def interrupted(folder: Path) -> None:
        calls.append(folder)
        if len(calls) == 1:
            raise KeyboardInterrupt  # arrives once settings.json is already replaced
        real(folder)

    with monkeypatch.context() as patched, pytest.raises(RolledBack):
        patched.setattr(atomic, "fsync_dir", interrupted)
        install(context(set_root, agent), Install(mode="register"), yes)
    assert user_view(agent) == before
    assert _state(agent) == state


def test_a_journal_that_cannot_take_the_settings_write_rolls_the_write_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """settings.json is already replaced when its `write` step is journaled: a full disk then
    must still put the earlier bytes back, not leave the install's change without a record."""
    from installer.engine.journal import Journal

    set_root, agent = _agent_and_set(tmp_path, linked=True)
    before, state = user_view(agent), _state(agent)
    real = Journal.record

    def full_at_the_write(self: Journal, step: dict[str, object]) -> None:
        if step.get("op") == "write":
            raise OSError(28, "No space left on device", str(self.path))
        real(self, step)

    with monkeypatch.context() as patched, pytest.raises(ExtError, match="rolled back"):
        patched.setattr(Journal, "record", full_at_the_write)
        install(context(set_root, agent), Install(mode="register"), yes)
    assert user_view(agent) == before
    assert _state(agent) == state
