"""A wheel of ext carries every file of the bundled set."""

from __future__ import annotations

import ast
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.e2e.conftest import REPO

pytestmark = pytest.mark.e2e

SET_FILES = ("extset.toml", "extensions", "prompts", "skills", "themes")


def _bundled_files() -> set[str]:
    out = set()
    for name in SET_FILES:
        path = REPO / name
        if path.is_file():
            out.add(name)
        elif path.is_dir():
            out.update(str(p.relative_to(REPO)) for p in path.rglob("*") if p.is_file())
    return out


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "-q",
            "-w",
            str(out),
            str(REPO),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (found,) = out.glob("extset-*.whl")
    return found


def test_the_wheel_carries_every_file_of_the_bundled_set(wheel: Path) -> None:
    prefix = "extset-0.1.0.data/data/share/extset/bundled/"
    with zipfile.ZipFile(wheel) as zf:
        shipped = {
            n.split(".data/data/share/extset/bundled/", 1)[1]
            for n in zf.namelist()
            if ".data/data/share/extset/bundled/" in n
        }
    assert shipped == _bundled_files(), f"update [tool.setuptools.data-files] ({prefix})"


def test_the_wheel_carries_the_files_ext_runs_under_node(wheel: Path) -> None:
    """pi's loader script (doctor --deep) and the session recorder are package data."""
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
    assert {"installer/host/loader.mjs", "installer/agent/ext-sessions.ts"} <= names


def test_the_console_script_imports_nothing_before_ext(wheel: Path) -> None:
    """`ext` is bin/ext, which pip gives the interpreter's path: an entry point's script would
    import `re` before ext starts, a quarter of a replayed no-op (docs/performance.md)."""
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        script = zf.read("extset-0.1.0.data/scripts/ext").decode()
        points = next((n for n in names if n.endswith(".dist-info/entry_points.txt")), None)
        entry_points = zf.read(points).decode() if points else ""
    assert script.startswith("#!python\n")  # the form pip rewrites to the venv's interpreter
    imported = [
        alias.name if isinstance(node, ast.Import) else node.module
        for node in ast.parse(script).body
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in (node.names if isinstance(node, ast.Import) else node.names[:1])
    ]
    assert imported == ["sys", "installer.cli.entry"]
    assert "ext =" not in entry_points  # one `ext` in bin/, not two writing over each other
