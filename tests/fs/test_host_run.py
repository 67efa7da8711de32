"""launch and offline_load_check against fake host scripts under tmp_path."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from installer.ground.errors import ExtError
from installer.host.pi import HostInfo, LoadFailure, launch, offline_load_check

REPO = Path(__file__).resolve().parents[2]


def fake_host(path: Path, body: str) -> HostInfo:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n" + textwrap.dedent(body))
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return HostInfo("pi", path, path, None, None, None)


def child_env(home: Path, **extra: str) -> dict[str, str]:
    """A minimal environment for a subprocess, with HOME in the test's tmp."""
    return {"PATH": os.environ["PATH"], "HOME": str(home), **extra}


# ---- launch -------------------------------------------------------------------------


def test_launch_replaces_the_process_with_the_host(tmp_path: Path, isolated_home: Path) -> None:
    host = fake_host(
        tmp_path / "bin" / "pi",
        """\
        echo "pid=$$"
        echo "dir=$PI_CODING_AGENT_DIR"
        echo "argv0=$0"
        for a in "$@"; do echo "arg=$a"; done
        echo "home=$HOME"
        exit 7
        """,
    )
    agent = tmp_path / "agent"
    code = textwrap.dedent(
        f"""\
        import os, sys
        from pathlib import Path
        from installer.host.pi import find_host, launch
        host = find_host({str(host.path)!r})
        print("python pid=" + str(os.getpid()))  # flushed by launch, or lost on exec
        launch(host, Path({str(agent)!r}), ["--flag", "two words"], dict(os.environ))
        print("not reached")
        """
    )
    env = child_env(isolated_home, PI_CODING_AGENT_DIR="/not/this/one")

    done = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=REPO, capture_output=True, text=True, check=False
    )

    lines = done.stdout.splitlines()
    assert done.returncode == 7, done.stderr
    assert lines[0] == f"python pid={lines[1].removeprefix('pid=')}"  # same process
    assert lines[2:] == [
        f"dir={agent}",
        f"argv0={host.path}",
        "arg=--flag",
        "arg=two words",
        f"home={isolated_home}",
    ]


def test_launch_of_a_host_that_cannot_start_is_an_ext_error(tmp_path: Path) -> None:
    gone = tmp_path / "gone" / "pi"
    host = HostInfo("pi", gone, gone, "0.73.1", None, None)

    with pytest.raises(ExtError) as caught:
        launch(host, tmp_path / "agent", [], {"PATH": "/nowhere"})

    assert str(gone) in caught.value.message
    assert caught.value.fix


# ---- offline_load_check ------------------------------------------------------------------


def test_offline_load_check_runs_pi_offline_on_the_agent_dir(
    tmp_path: Path, isolated_home: Path
) -> None:
    seen = tmp_path / "seen"
    printed = tmp_path / "printed"
    printed.write_text(  # verbatim pi 0.73.1 output, on stderr
        'Error: Failed to load extension "/a/extensions/bad.ts": Failed to load extension: '
        "Cannot find module '@earendil-works/pi-coding-agent'\n"
        "Require stack:\n"
        "- /a/extensions/bad.ts\n"
        'Error: Model "extset-offline-check/none" not found. Use --list-models to see available '
        "models.\n"
    )
    host = fake_host(
        tmp_path / "bin" / "pi",
        f"""\
        echo "$PI_CODING_AGENT_DIR" > "{seen}"
        echo "$@" >> "{seen}"
        cat "{printed}" >&2
        exit 1
        """,
    )
    agent = tmp_path / "agent"

    report = offline_load_check(host, agent, child_env(isolated_home), timeout=10)

    dir_line, args_line = seen.read_text().splitlines()
    assert dir_line == str(agent)
    assert args_line.split()[:4] == ["-p", "x", "--offline", "--no-session"]
    assert report.failures == (
        LoadFailure(
            Path("/a/extensions/bad.ts"),
            "Failed to load extension: Cannot find module '@earendil-works/pi-coding-agent'",
            "Require stack:\n- /a/extensions/bad.ts",
        ),
    )
    assert (report.timed_out, report.finished, report.returncode) == (False, True, 1)


def test_offline_load_check_times_out_and_kills_the_host(
    tmp_path: Path, isolated_home: Path
) -> None:
    pidfile = tmp_path / "child.pid"
    host = fake_host(
        tmp_path / "bin" / "pi",
        f"""\
        sleep 30 &
        echo $! > "{pidfile}"
        wait
        """,
    )

    started = time.monotonic()
    # 2 s: time for the shell to write the pid before it is killed, on a loaded machine too.
    report = offline_load_check(host, tmp_path / "agent", child_env(isolated_home), timeout=2)

    assert time.monotonic() - started < 10  # not the child's 30
    assert (report.timed_out, report.failures, report.finished) == (True, (), False)
    child = int(pidfile.read_text())
    deadline = time.monotonic() + 5  # a killed child is reaped by init a moment later
    while _alive(child) and time.monotonic() < deadline:
        os.sched_yield()
    assert not _alive(child)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/status")
    return not (status.exists() and "State:\tZ" in status.read_text())


def test_offline_load_check_of_a_host_that_cannot_start_is_an_ext_error(tmp_path: Path) -> None:
    gone = tmp_path / "gone" / "pi"
    host = HostInfo("pi", gone, gone, None, None, None)

    with pytest.raises(ExtError) as caught:
        offline_load_check(host, tmp_path / "agent", {"PATH": "/nowhere"}, timeout=5)

    assert str(gone) in caught.value.message
