"""What a config-management run needs of the CLI: JSON everywhere, no tracebacks, no hangs."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.e2e.conftest import EXT, Run
from tests.helpers import build_tree

pytestmark = pytest.mark.e2e


def _set(tmp_path: Path) -> Path:
    return build_tree(tmp_path / "set", {"extensions/a.ts": "export default () => {};"})


def test_json_after_the_command(ext: Run, tmp_path: Path) -> None:
    done = ext("--set", str(_set(tmp_path)), "install", "--yes", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["changed"] is True


def test_a_parser_error_under_json_is_json(ext: Run, tmp_path: Path) -> None:
    done = ext("--set", str(_set(tmp_path)), "install", "--bogus", "--json")
    assert done.returncode == 2
    assert json.loads(done.stdout) == {
        "error": "ext install: no such option: --bogus",
        "fix": "see `ext install --help`",
        "exit_code": 2,
    }


def test_a_deleted_working_folder_is_no_traceback(e2e_env: dict[str, str], tmp_path: Path) -> None:
    the_set = _set(tmp_path)
    gone = tmp_path / "gone"
    gone.mkdir()
    script = (
        f"import os, subprocess, sys; os.chdir({str(gone)!r}); os.rmdir({str(gone)!r}); "
        f"sys.exit(subprocess.run([{str(EXT)!r}, '--set', {str(the_set)!r}, '--json', "
        "'install', '--yes']).returncode)"
    )
    done = subprocess.run(
        ["python3", "-c", script],
        env=e2e_env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert json.loads(done.stdout)["changed"] is True


def test_only_naming_nothing_is_a_usage_error(ext: Run, tmp_path: Path) -> None:
    empty = ext("--set", str(_set(tmp_path)), "install", "--only=", "--dry-run")
    assert empty.returncode == 2
    assert "error: --only is empty" in empty.stderr
    commas = ext("--set", str(_set(tmp_path)), "install", "--only=,", "--dry-run")
    assert commas.returncode == 2
    assert "--only names nothing" in commas.stderr


@pytest.mark.parametrize(
    ("args", "code"),
    [(("install", "--only", "nosuch", "--yes"), 2), (("--agent-dir", "/nonexistent", "list"), 4)],
)
def test_debug_shows_the_stack_and_keeps_the_exit_code(
    ext: Run, tmp_path: Path, args: tuple[str, ...], code: int
) -> None:
    """helper-86: with --debug a usage error exited 1, and a missing dir 1 for 4: a script that
    adds --debug to see why would read the code wrong."""
    done = ext("--debug", "--set", str(_set(tmp_path)), *args)
    assert done.returncode == code, done.stderr
    assert "Traceback (most recent call last)" in done.stderr
    assert done.stderr.rstrip().splitlines()[-2].startswith("error: ")  # the message stays last
