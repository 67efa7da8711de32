"""`-h` and `ext help [COMMAND]` are the help, as a person tries them first (helper-81: both
were refused, `no such option: -h` and `no such command 'help'`, with a fix naming --help).
After `launch` every word is the host's: `ext launch -h` is `pi -h`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

EXT = Path(sys.executable).with_name("ext")


def ext(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "EXT_NO_UPDATE_CHECK": "1", "NO_COLOR": "1"}
    return subprocess.run(
        [str(EXT), *args], env=env, capture_output=True, text=True, timeout=60, check=False
    )


@pytest.mark.parametrize(
    ("words", "usage"),
    [
        (["-h"], "Usage: ext [OPTIONS] COMMAND [ARGS]..."),
        (["help"], "Usage: ext [OPTIONS] COMMAND [ARGS]..."),
        (["help", "help"], "Usage: ext [OPTIONS] COMMAND [ARGS]..."),
        (["install", "-h"], "Usage: ext install [OPTIONS]"),
        (["help", "install"], "Usage: ext install [OPTIONS]"),
        (["--json", "help", "list"], "Usage: ext list [OPTIONS]"),
        (["--set", "help", "help", "list"], "Usage: ext list [OPTIONS]"),  # a folder `help`
        (["help", "consent", "approve"], "Usage: ext consent approve [OPTIONS] [DIR]"),
        (["launch", "--help"], "Usage: ext launch [--help] [--] [ARGS]..."),
    ],
)
def test_h_and_help_print_the_help(words: list[str], usage: str) -> None:
    done = ext(*words)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == usage
    assert done.stderr == ""
    plain = [
        w for n, w in enumerate(words) if w != "-h" and (w != "help" or words[n - 1] == "--set")
    ]
    assert done.stdout == ext(*plain, "--help").stdout


def test_h_after_launch_is_the_hosts(tmp_path: Path) -> None:
    """A stand-in pi prints what it was given: `-h` reaches it, ext prints no help of its own."""
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    pi = bin_ / "pi"
    pi.write_text('#!/bin/sh\necho "pi got: $*"\n')
    pi.chmod(0o755)
    env = {
        **os.environ,
        "PATH": f"{bin_}{os.pathsep}{os.environ['PATH']}",
        "EXT_NO_UPDATE_CHECK": "1",
    }
    agent = tmp_path / "agent"
    agent.mkdir()
    done = subprocess.run(
        [str(EXT), "--agent-dir", str(agent), "launch", "-h"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert "pi got: -h" in done.stdout, done.stderr
    assert "Usage: ext" not in done.stdout


def test_a_fix_naming_the_help_names_ext_as_it_was_run() -> None:
    """helper-81: `fix: see \\`ext --help\\`` was bare where PATH finds no ext (pasted: command
    not found); every fix of a parser error names ext as run."""
    path = os.pathsep.join(p for p in os.environ["PATH"].split(os.pathsep) if Path(p) != EXT.parent)
    env = {**os.environ, "PATH": path, "EXT_NO_UPDATE_CHECK": "1", "NO_COLOR": "1"}
    for words, fix in (
        (["-x"], f"see `{EXT} --help`"),
        (["list", "--bogus"], f"see `{EXT} list --help`"),
    ):
        done = subprocess.run(
            [str(EXT), *words], env=env, capture_output=True, text=True, timeout=60, check=False
        )
        assert done.returncode == 2
        assert done.stderr.splitlines()[-1] == f"  fix: {fix}"


@pytest.mark.parametrize(
    ("words", "fix"),
    [
        # helper-84: `ext --host list` was offered, which fails: no value for --host
        (["--bogus", "list"], "did you mean --host?"),
        (["list", "--hots", "claude"], "ext list --host claude"),
        (["--hots=claude", "list"], "ext --host=claude list"),
        (["install", "--dryrun"], "ext install --dry-run"),
    ],
)
def test_a_misspelt_option_is_pasted_only_where_the_line_would_work(
    words: list[str], fix: str
) -> None:
    done = ext(*words)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == f"  fix: {fix}".replace(
        "fix: ext ", f"fix: {_as_run()} "
    )


def _as_run() -> str:
    """ext as a fix names it: `ext` when PATH finds this one, else its path."""
    import shutil

    return "ext" if shutil.which("ext") == str(EXT) else str(EXT)


def test_ext_run_by_another_name_is_named_so_in_its_fixes(tmp_path: Path) -> None:
    """helper-84: through a link `myext`, fixes named a bare `ext`, which PATH may not find."""
    (tmp_path / "myext").symlink_to(EXT)
    env = {**os.environ, "EXT_NO_UPDATE_CHECK": "1", "NO_COLOR": "1"}
    done = subprocess.run(
        ["./myext", "install", "--bogus"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.stderr.splitlines()[-1] == "  fix: see `./myext install --help`"
