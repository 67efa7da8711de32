"""Every test gets its own HOME, XDG dirs and agent dir: the real home is never touched."""

from __future__ import annotations

from pathlib import Path

import pytest

_CLEARED = (
    "EXT_SET",
    "EXT_AGENT_DIR",
    "EXT_INDEX_URL",
    "EXT_NPM_REGISTRY",
    "EXT_NO_UPDATE_CHECK",
    "PI_CODING_AGENT_DIR",
    "PIP_INDEX_URL",
    "npm_config_registry",
    "NO_COLOR",
)


@pytest.fixture(autouse=True)
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for var, sub in (
        ("XDG_DATA_HOME", ".local/share"),
        ("XDG_CONFIG_HOME", ".config"),
        ("XDG_CACHE_HOME", ".cache"),
        ("XDG_STATE_HOME", ".local/state"),
    ):
        monkeypatch.setenv(var, str(home / sub))
    for var in _CLEARED:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.chdir(tmp_path)
    return home
