"""The first message after an install names ext as it was run: `ext` only when PATH finds it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from installer.cli.run import as_run
from tests.helpers import build_tree


@pytest.fixture
def script(tmp_path: Path) -> Path:
    build_tree(tmp_path / "proj" / ".venv" / "bin", {"ext": "#!/bin/sh\n"})
    path = tmp_path / "proj" / ".venv" / "bin" / "ext"
    path.chmod(0o755)
    return path


def test_ext_on_path_is_named_ext(script: Path) -> None:
    assert as_run(str(script), path=str(script.parent)) == "ext"


def test_ext_off_path_is_named_as_typed_or_by_its_path(
    script: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    empty = str(tmp_path / "nowhere")
    monkeypatch.chdir(tmp_path / "proj")
    assert as_run(".venv/bin/ext", path=empty) == ".venv/bin/ext"
    monkeypatch.setenv("HOME", str(tmp_path / "proj"))
    assert as_run(str(script), path=empty) == "~/.venv/bin/ext"
    monkeypatch.setenv("HOME", str(tmp_path / "elsewhere"))
    assert as_run(str(script), path=empty) == str(script)


def test_another_ext_on_path_is_not_this_one(script: Path, tmp_path: Path) -> None:
    other = build_tree(tmp_path / "other", {"ext": "#!/bin/sh\n"}) / "ext"
    other.chmod(0o755)
    assert as_run(str(script), path=str(other.parent)) == str(script)
    assert os.path.exists(script)
