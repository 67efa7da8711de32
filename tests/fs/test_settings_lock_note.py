"""A wait on pi's settings lock is said once, not silent (through installer.ground.notices)."""

from __future__ import annotations

from pathlib import Path

import pytest

from installer.ground import notices
from installer.ground.errors import ExtError
from installer.settings import lock as lock_module
from installer.settings.lock import lock_path, settings_lock


def test_a_long_wait_is_noted_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    heard: list[str] = []
    monkeypatch.setattr(notices, "_listeners", [heard.append])
    settings = tmp_path / "settings.json"
    lock_path(settings).mkdir()  # a fresh lock of pi's, held for longer than we wait
    monkeypatch.setattr(lock_module, "NOTE_AFTER_SECONDS", 0.2)  # said well before the wait ends
    with pytest.raises(ExtError, match="stayed locked"), settings_lock(settings, wait=1.5):
        pass
    assert heard == [
        f"waiting for {lock_path(settings)} (held by pi or another ext; taken over once stale)"
    ]


def test_no_wait_no_note(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    heard: list[str] = []
    monkeypatch.setattr(notices, "_listeners", [heard.append])
    with settings_lock(tmp_path / "settings.json"):
        pass
    assert heard == []
