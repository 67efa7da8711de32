"""`ext update --check` asks npm and leaves nothing in the user's npm folders: no debug log in
`~/.npm/_logs`, no `_update-notifier-last-checked`, no `~/.npm` at all (a fake npm that records
how it was run; the real npm against a registry on 127.0.0.1)."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest

from installer.updates import HostFacts, Limits, UpdateConfig
from installer.updates.check import check_host
from installer.updates.fetch import ask_npm, run_npm
from tests.helpers import build_tree, serve, stop

PKG = "@earendil-works/pi-coding-agent"
RECORDER = """#!/bin/sh
{
  printf 'argv'; for a in "$@"; do printf ' %s' "$a"; done; printf '\\n'
  printf 'notifier %s\\n' "$npm_config_update_notifier"
} >> "$NPM_CALLS"
for a in "$@"; do case "$a" in --cache=*) ls -A "${a#--cache=}" >/dev/null || exit 9;; esac; done
case "$1" in
  prefix) echo "$FAKE_PREFIX";;
  view) echo '{"dist-tags.latest": "1.6.0", "versions": ["1.5.0", "1.6.0"]}';;
esac
"""


def listing(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*")) if root.exists() else []


def test_each_npm_call_of_a_check_logs_nothing_and_keeps_its_cache_in_a_temp_folder(
    tmp_path: Path, isolated_home: Path
) -> None:
    home = isolated_home
    npm = build_tree(tmp_path / "bin", {"npm": RECORDER}) / "npm"
    npm.chmod(0o755)
    prefix = tmp_path / "npm"
    cli = build_tree(prefix, {f"lib/node_modules/{PKG}/dist/bundle/cli.js": ""})
    calls = tmp_path / "calls.txt"
    env = {
        "PATH": f"{npm.parent}{os.pathsep}/bin{os.pathsep}/usr/bin",
        "HOME": str(home),
        "NPM_CALLS": str(calls),
        "FAKE_PREFIX": str(prefix),
    }
    host = HostFacts(PKG, "1.5.0", cli / "lib" / "node_modules" / PKG / "dist/bundle/cli.js")

    found = check_host(UpdateConfig(), host, env, None, Limits(timeout=10.0))

    assert found.latest == "1.6.0"  # npm was asked, and answered
    lines = calls.read_text().splitlines()
    argvs = [line.split()[1:] for line in lines if line.startswith("argv")]
    assert [a[0] for a in argvs] == ["prefix", "view"]  # `npm prefix -g`, then `npm view`
    for argv in argvs:
        assert "--logs-max=0" in argv and "--no-update-notifier" in argv
        cache = next(a.removeprefix("--cache=") for a in argv if a.startswith("--cache="))
        assert not Path(cache).is_relative_to(home)
        assert not Path(cache).exists()  # removed after the call
    assert [line for line in lines if line.startswith("notifier")] == ["notifier false"] * 2
    assert listing(home) == []  # no ~/.npm: no log, no notifier stamp, no cache


@pytest.fixture
def registry() -> Iterator[str]:
    doc = {
        "name": "extset-fake-pi",
        "dist-tags": {"latest": "1.6.0"},
        "versions": {v: {"name": "extset-fake-pi", "version": v} for v in ("1.5.0", "1.6.0")},
    }
    body = json.dumps(doc).encode()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    httpd = serve(Handler)
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    stop(httpd)


@pytest.mark.skipif(shutil.which("npm") is None, reason="no npm on PATH")
def test_the_real_npm_leaves_no_npm_folder_in_home(isolated_home: Path, registry: str) -> None:
    home = isolated_home
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "npm_config_registry": registry}

    answer = ask_npm("extset-fake-pi", env, timeout=60)
    prefix = run_npm(["prefix", "-g"], env, timeout=60)

    assert answer is not None and answer.latest == "1.6.0"
    assert prefix
    assert listing(home) == []


def test_pip_told_to_use_no_index_is_not_asked_so_ext_is_not_called_missing(
    tmp_path: Path,
) -> None:
    """PIP_NO_INDEX: pip's 'No matching distribution' then says nothing about an index."""
    from installer.updates.fetch import ask_pip

    log = tmp_path / "pip.log"
    python = tmp_path / "python"
    python.write_text(f'#!/bin/sh\necho "$*" >> "{log}"\nexit 1\n')
    python.chmod(0o755)

    assert ask_pip(str(python), {"PIP_NO_INDEX": "1"}, timeout=10) is None
    assert not log.exists()


def test_pip_is_asked_with_no_rustc_on_its_path(tmp_path: Path) -> None:
    """pip runs `rustc --version` for its user agent when PATH has one, and rustup's rustc
    writes ~/.rustup/settings.toml in a home without it: the check hides rustc from pip."""
    from installer.updates.fetch import ask_pip

    rust = tmp_path / "cargo-bin"
    rust.mkdir()
    (rust / "rustc").write_text("#!/bin/sh\n")
    (rust / "rustc").chmod(0o755)
    tools = tmp_path / "bin"
    tools.mkdir()
    seen = tmp_path / "path-seen"
    python = tmp_path / "python"
    python.write_text(f'#!/bin/sh\necho "$PATH" > "{seen}"\nexit 1\n')
    python.chmod(0o755)

    ask_pip(str(python), {"PATH": f"{rust}:{tools}"}, timeout=10)

    assert seen.read_text().strip() == str(tools)


def _closed_port() -> str:
    """A loopback address where nothing listens: every connection is refused at once."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}/"


@pytest.mark.skipif(shutil.which("npm") is None, reason="no npm on PATH")
def test_an_unreachable_registry_is_said_by_npm_before_the_time_allowed(
    isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A trial offline: `ext update --check` took 9 s, npm's own retries (10 s apart, then 60)
    running into ext's timeout. npm retries once, soon, and says so itself."""
    from installer.updates import fetch

    env = {"PATH": os.environ["PATH"], "HOME": str(isolated_home)}
    env["npm_config_registry"] = _closed_port()
    ended: list[fetch.Completed | None] = []

    def seen(*args: Any, **kw: Any) -> fetch.Completed | None:
        ended.append(real(*args, **kw))
        return ended[-1]

    real = fetch.completed
    monkeypatch.setattr(fetch, "completed", seen)
    assert ask_npm(PKG, env, timeout=25) == fetch.UNREACHED
    [done] = ended
    assert done is not None and not done.timed_out and done.returncode != 0


def test_pip_is_asked_with_one_retry_so_an_unreachable_index_is_said_soon(tmp_path: Path) -> None:
    """pip's five retries (backing off to 4 s) outlived ext's 9 s offline; one retry still
    prints the `Retrying … connection` line that tells an index unreached from one without
    extset."""
    from installer.updates.fetch import ask_pip

    log = tmp_path / "pip.log"
    python = tmp_path / "python"
    python.write_text(f'#!/bin/sh\necho "$*" >> "{log}"\nexit 1\n')
    python.chmod(0o755)

    ask_pip(str(python), {"PATH": "/usr/bin:/bin"}, timeout=10)

    assert "--retries 1" in log.read_text()
