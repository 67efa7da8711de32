"""`ext update --check` and the background refresh against a real HTTP server on 127.0.0.1."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

from installer import __version__
from installer.updates import (
    CheckResult,
    HostFacts,
    InstallFacts,
    Limits,
    Notice,
    UpdateConfig,
    cached_report,
    check_now,
    doctor_findings,
    passive_notice,
    refresh,
)
from installer.updates.cache import load_cache
from installer.updates.check import check_host
from installer.updates.fetch import fetch_json
from tests.helpers import build_tree, serve, stop

PKG = "@mariozechner/pi-coding-agent"
EXT_PATH = "/pypi/extset/json"
HOST_PATH = "/@mariozechner%2fpi-coding-agent"
FAST = Limits(timeout=0.5)  # for answers that never come: keeps those tests quick
OK = Limits(timeout=10.0)  # for answers that do: a loaded machine is no failure
Route = Callable[[BaseHTTPRequestHandler], None]


@dataclass
class Server:
    base: str
    routes: dict[str, Route]
    release: threading.Event
    requests: list[str] = field(default_factory=list)


@pytest.fixture(autouse=True)
def no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in (
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "http_proxy",
        "https_proxy",
        "all_proxy",
        "NO_UPDATE_NOTIFIER",
        "CI",
        "CONTINUOUS_INTEGRATION",
        "BUILD_NUMBER",
        "RUN_ID",
        "PIP_CONFIG_FILE",
        "npm_config_prefix",
    ):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture
def server() -> Iterator[Server]:
    routes: dict[str, Route] = {}
    release = threading.Event()
    seen: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            seen.append(self.path)
            route = routes.get(self.path)
            if route is None:
                self.send_error(404)
            else:
                route(self)

        def log_message(self, *args: object) -> None:
            pass

    httpd = serve(Handler)
    srv = Server(f"http://127.0.0.1:{httpd.server_address[1]}", routes, release, seen)
    yield srv
    release.set()
    stop(httpd)


def send(status: int, body: bytes, length: bool = True) -> Route:
    def route(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(status)
        handler.send_header("Content-Type", "application/json")
        if length:
            handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        with contextlib.suppress(OSError):  # the client stopped reading: the cap at work
            handler.wfile.write(body)

    return route


def index_doc(version: object) -> Route:
    return send(200, json.dumps({"info": {"name": "extset", "version": version}}).encode())


def registry_doc(version: object, *published: str) -> Route:
    return send(200, registry_bytes(version, *published))


def registry_bytes(version: object, *published: str) -> bytes:
    versions = {v: {"version": v} for v in published}
    return json.dumps(
        {"name": PKG, "dist-tags": {"latest": version}, "versions": versions}
    ).encode()


def pipx_from(index: str) -> str:
    """pipx's upgrade asking the index the check asked (EXT_INDEX_URL), not pip's own."""
    return f"pipx upgrade --pip-args '--index-url {index}' extset"


def fake_tool(folder: Path, name: str, stdout: str, code: int = 0) -> Path:
    """An executable `name` in `folder` that prints `stdout` and exits with `code`."""
    tool = folder / name
    folder.mkdir(parents=True, exist_ok=True)
    lines = " ".join(f"'{line}'" for line in stdout.splitlines())
    tool.write_text(f"#!/bin/sh\nprintf '%s\\n' {lines}\nexit {code}\n")
    tool.chmod(0o755)
    return tool


def hang(release: threading.Event) -> Route:
    def route(handler: BaseHTTPRequestHandler) -> None:
        release.wait(30)

    return route


def trickle(release: threading.Event) -> Route:
    """Headers, then a byte at a time, slower than any budget."""

    def route(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(200)
        handler.end_headers()
        while not release.wait(0.1):
            try:
                handler.wfile.write(b" ")
                handler.wfile.flush()
            except OSError:
                return

    return route


def pipx_facts(tmp_path: Path) -> InstallFacts:
    prefix = build_tree(
        tmp_path / "pipx" / "venvs" / "extset",
        {
            "pipx_metadata.json": "{}",
            "lib/extset-0.1.0.dist-info/INSTALLER": "pip\n",
        },
    )
    # A python whose pip fails: an unconfigured check must not reach a real index.
    python = fake_tool(tmp_path / "no-pip", "python", "", code=1)
    return InstallFacts(
        prefix=prefix,
        dist_info=prefix / "lib" / "extset-0.1.0.dist-info",
        python=str(python),
        env={},
    )


def host_facts(tmp_path: Path, version: str = "0.70.0") -> HostFacts:
    npm = build_tree(tmp_path / "npm", {f"lib/node_modules/{PKG}/dist/cli.js": ""})
    return HostFacts(PKG, version, npm / "lib" / "node_modules" / PKG / "dist" / "cli.js")


def run(srv: Server, tmp_path: Path, limits: Limits = OK) -> dict[str, CheckResult]:
    report = check_now(
        host=host_facts(tmp_path),
        set_dir=None,
        env={},
        limits=limits,
        config=UpdateConfig(
            index=srv.base, index_source="test", registry=srv.base, registry_source="test"
        ),
        facts=pipx_facts(tmp_path),
        current="0.1.0",
        npm_prefix=tmp_path / "npm",
    )
    return {r.name: r for r in report.results}


def test_newer_everywhere_gives_install_aware_hints(server: Server, tmp_path: Path) -> None:
    server.routes[EXT_PATH] = index_doc("0.2.0")
    server.routes[HOST_PATH] = registry_doc("0.73.1")
    results = run(server, tmp_path)
    ext, host = results["ext"], results["host"]
    assert (ext.status, ext.latest, ext.hint) == (
        "update-available",
        "0.2.0",
        "pipx upgrade extset",
    )
    assert host.hint == f"npm install -g {PKG}@latest"
    assert HOST_PATH in server.requests  # the scope's slash escaped as npm does


@pytest.mark.parametrize(("ext_latest", "host_latest"), [("0.1.0", "0.70.0"), ("0.0.9", "0.69.0")])
def test_same_or_older_is_silent(
    server: Server, tmp_path: Path, ext_latest: str, host_latest: str
) -> None:
    server.routes[EXT_PATH] = index_doc(ext_latest)
    server.routes[HOST_PATH] = registry_doc(host_latest)
    for result in run(server, tmp_path).values():
        assert not result.newer
        assert result.hint is None
    assert run(server, tmp_path)["ext"].status == "up-to-date"


BAD: dict[str, Callable[[Server], Route]] = {
    "404": lambda s: send(404, b"{}"),
    "500": lambda s: send(500, b'{"info": {"version": "9.9.9"}}'),
    "malformed json": lambda s: send(200, b'{"info": {"version": "9.9.9"'),
    "not an object": lambda s: send(200, b'["9.9.9"]'),
    "no version": lambda s: send(200, b'{"info": {}}'),
    "non-semver": lambda s: index_doc("2024.1"),
    "number version": lambda s: index_doc(9),
    "binary": lambda s: send(200, b"\xff\xfe\x00garbage"),
    "10 MiB": lambda s: send(200, b'{"info": {"version": "9.9.9"}, "pad": "' + b"x" * (10 << 20)),
    "10 MiB unsized": lambda s: send(200, b'{"pad": "' + b"x" * (10 << 20), length=False),
    "hung": lambda s: hang(s.release),
    "trickle": lambda s: trickle(s.release),
}


@pytest.mark.parametrize("kind", list(BAD))
def test_bad_answers_are_silent_and_prompt(server: Server, tmp_path: Path, kind: str) -> None:
    server.routes[EXT_PATH] = BAD[kind](server)
    server.routes[HOST_PATH] = BAD[kind](server)
    start = time.monotonic()
    results = run(server, tmp_path, FAST)
    assert time.monotonic() - start < 5  # the server would hang for 30 s
    for name in ("ext", "host"):
        result = results[name]
        # An index that answers 404 to both its APIs has no extset: said as pip says it.
        status = "not-configured" if (name, kind) == ("ext", "404") else "unavailable"
        assert (result.status, result.latest, result.hint) == (status, None, None)


def test_a_check_with_no_answer_says_what_to_check_and_json_says_unknown(
    server: Server, tmp_path: Path
) -> None:
    """A trial offline: `update --check` named what could not be reached with no fix, and its
    JSON said `"updates_available": false`, which a script reads as "up to date"."""
    from installer.render.updates import lines
    from installer.updates.findings import doctor_findings

    dead = "http://127.0.0.1:9/"  # nothing listens there: no answer at all
    report = check_now(
        host=host_facts(tmp_path),
        env={},
        limits=OK,
        config=UpdateConfig(index=dead, index_source="EXT_INDEX_URL", registry=dead),
        facts=pipx_facts(tmp_path),
        current="0.1.0",
        npm_prefix=tmp_path / "npm",
    )
    said = lines(report)
    assert said[0].endswith(
        "; check the network, or the index ext asks (EXT_INDEX_URL, or pip's index-url)"
    )
    assert "; check the network, or the registry npm asks" in said[1]
    assert report.to_json()["updates_available"] is None
    assert report.to_json()["checks"][0]["fix"] == said[0].split("; ", 1)[1]  # in JSON too
    fixes = {f.id: f.fix for f in doctor_findings(report)}
    assert fixes["update.ext"] and fixes["update.ext"].startswith("check the network")

    server.routes[EXT_PATH] = index_doc("0.2.0")  # one answer with news: known to be true
    assert replace(report, results=(run(server, tmp_path)["ext"],)).to_json()["updates_available"]
    server.routes[EXT_PATH] = index_doc("0.1.0")  # every check answered, none newer: false
    answered = replace(report, results=(run(server, tmp_path)["ext"],))
    assert answered.to_json()["updates_available"] is False
    assert answered.results[0].fix is None


def test_a_check_that_got_an_answer_it_cannot_use_is_not_sent_to_the_network(
    server: Server, tmp_path: Path
) -> None:
    """Review (helper-22): a registry that answered with no release inside [host] tested was
    told to check the network, and its JSON said null (unknown)."""
    from installer.updates.hostcheck import check_host

    server.routes[HOST_PATH] = registry_doc("1.6.0", "0.73.1", "1.5.0", "1.6.0")
    host = replace(host_facts(tmp_path, "1.5.0"), tested="0.60")
    config = UpdateConfig(registry=server.base, registry_source="test")
    found = check_host(config, host, {}, tmp_path / "npm", OK)
    assert (found.status, found.unanswered, found.fix) == ("unavailable", False, None)
    assert "outside the tested range" in found.detail
    from installer.updates.check import Report
    from installer.updates.method import InstallMethod

    method = InstallMethod("pip", "pip install -U extset", "pip")
    assert Report((found,), method, 0.0).to_json()["updates_available"] is False


def test_non_semver_is_ignored_by_the_fetcher(server: Server) -> None:
    server.routes[EXT_PATH] = index_doc("1.0.0rc1")
    assert fetch_json(server.base + EXT_PATH, OK) == {
        "info": {"name": "extset", "version": "1.0.0rc1"}
    }
    from installer.updates.pyindex import IndexAnswer, latest_on_index

    assert latest_on_index(server.base, OK) == IndexAnswer(None, True)


def test_nothing_asked_when_nothing_configured(server: Server, tmp_path: Path) -> None:
    report = check_now(
        host=host_facts(tmp_path),
        env={},
        limits=OK,
        config=UpdateConfig(),
        facts=pipx_facts(tmp_path),
        npm_prefix=tmp_path / "npm",
    )
    ext, host = report.get("ext"), report.get("host")
    assert ext is not None and host is not None
    assert (ext.status, ext.detail) == ("not-configured", "no index configured")
    assert host.status == "not-configured"
    assert server.requests == []


def test_index_from_pip_conf_with_simple_suffix(
    server: Server, tmp_path: Path, isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    build_tree(
        isolated_home, {".config/pip/pip.conf": f"[global]\nindex-url = {server.base}/simple/\n"}
    )
    server.routes[EXT_PATH] = index_doc("0.2.0")
    report = check_now(
        env={"HOME": str(isolated_home), "XDG_CONFIG_HOME": str(isolated_home / ".config")},
        limits=OK,
        facts=pipx_facts(tmp_path),
        current="0.1.0",
    )
    assert report.updates[0].latest == "0.2.0"
    assert server.requests == [EXT_PATH]


def test_report_json(server: Server, tmp_path: Path) -> None:
    server.routes[EXT_PATH] = index_doc("0.2.0")
    report = check_now(
        env={},
        limits=OK,
        config=UpdateConfig(index=server.base),
        facts=pipx_facts(tmp_path),
        current="0.1.0",
        clock=lambda: 1234.0,
    )
    data = json.loads(json.dumps(report.to_json()))
    assert data["updates_available"] is True
    assert data["checked_at"] == 1234.0
    assert data["install_method"] == {
        "name": "pipx",
        "command": "pipx upgrade extset",
        "detail": "a pipx venv",
    }
    assert [c["name"] for c in data["checks"]] == ["ext", "host", "set"]
    assert data["checks"][0] == {
        "name": "ext",
        "current": "0.1.0",
        "latest": "0.2.0",
        "hint": "pipx upgrade extset",
        "status": "update-available",
        "detail": "",
        "method": "pipx",
        "label": "ext",
        "installation": str(pipx_facts(tmp_path).prefix),
        "unanswered": False,
        "tested": None,
        "fix": None,
    }


def test_refresh_caches_nothing_wrong_on_failure(
    server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache" / "updates.json"
    monkeypatch.setenv("EXT_INDEX_URL", server.base)
    server.routes[EXT_PATH] = send(500, b"")
    refresh(cache_path=cache, facts=pipx_facts(tmp_path), limits=OK, clock=lambda: 100.0)
    state = load_cache(cache)
    assert state is not None and state.checked_at == 100.0
    assert [(r.name, r.status, r.latest) for r in state.results if r.name == "ext"] == [
        ("ext", "unavailable", None)
    ]

    server.routes[EXT_PATH] = index_doc("99.0.0")
    refresh(cache_path=cache, facts=pipx_facts(tmp_path), limits=OK, clock=lambda: 200.0)
    server.routes[EXT_PATH] = index_doc("not-a-version")
    refresh(cache_path=cache, facts=pipx_facts(tmp_path), limits=OK, clock=lambda: 300.0)
    state = load_cache(cache)
    assert state is not None
    ext = next(r for r in state.results if r.name == "ext")
    assert (ext.latest, ext.current, ext.status) == ("99.0.0", __version__, "update-available")
    assert state.checked_at == 300.0


def test_a_cache_that_cannot_be_written_leaves_the_answers_and_says_where(
    server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A trial with a read-only ~/.cache: `ext update --check` printed only the error of the
    cache write, with a fix that named --agent-dir. The answers stand; a warning says they
    were not kept and which variable moves the cache."""
    from installer.render.ui import Output
    from installer.render.updates import show

    (tmp_path / "cache").write_text("a file where the cache folder goes\n")
    monkeypatch.setenv("EXT_INDEX_URL", server.base)
    server.routes[EXT_PATH] = index_doc("99.0.0")
    report = refresh(
        cache_path=tmp_path / "cache/updates.json", facts=pipx_facts(tmp_path), limits=OK
    )
    ext = report.get("ext")
    assert ext is not None and ext.latest == "99.0.0"
    (warning,) = report.warnings
    assert warning.startswith(f"the check could not be kept in {tmp_path}/cache/updates.json")
    assert "set XDG_CACHE_HOME to a folder you can write" in warning
    out, err = io.StringIO(), io.StringIO()
    assert show(Output(stdout=out, stderr=err), report) == 0
    assert "99.0.0" in out.getvalue() and "warning: the check could not be kept" in err.getvalue()
    assert report.to_json()["warnings"] == [warning]


def test_refresh_then_passive_notice_once_a_day(
    server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache" / "updates.json"
    monkeypatch.setenv("EXT_INDEX_URL", server.base)
    monkeypatch.setattr(sys, "prefix", str(pipx_facts(tmp_path).prefix))  # ext runs from there
    server.routes[EXT_PATH] = index_doc("99.0.0")
    now = 1_700_000_000.0
    refreshes: list[Path] = []  # the cache each refresh started would write

    def notice(at: float) -> Notice | None:
        return passive_notice(
            now=at, tty=True, cache_path=cache, spawn=lambda *a: refreshes.append(a[2])
        )

    def started() -> float | None:
        state = load_cache(cache)
        return state.refresh_started_at if state is not None else None

    assert notice(now) is None  # first run: nothing cached is not news
    assert (refreshes, started()) == ([cache], now)
    refresh(cache_path=cache, facts=pipx_facts(tmp_path), limits=OK, clock=lambda: now + 1)
    shown = notice(now + 2)
    assert isinstance(shown, Notice)
    assert shown.lines() == (
        f"ext 99.0.0 is available (you have {__version__}); run: {pipx_from(server.base)}",
    )
    assert notice(now + 3600) is None
    assert notice(now + 86400 + 3) is not None
    assert (refreshes, started()) == ([cache, cache], now + 86400 + 3)  # a day old by then


def test_background_refresh_module_runs(server: Server, tmp_path: Path) -> None:
    cache = tmp_path / "cache" / "updates.json"
    server.routes[EXT_PATH] = index_doc("99.0.0")
    server.routes[HOST_PATH] = registry_doc("99.0.0")
    import os

    env = {
        **os.environ,
        "EXT_INDEX_URL": server.base,
        "EXT_NPM_REGISTRY": server.base,
        "npm_config_prefix": str(tmp_path / "npm"),
    }
    host = host_facts(tmp_path)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "installer.updates",
            "refresh",
            "--cache",
            str(cache),
            "--host-package",
            PKG,
            "--host-version",
            "0.70.0",
            "--host-path",
            str(host.resolved),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    state = load_cache(cache)
    assert state is not None
    latest = {r.name: (r.latest, r.hint) for r in state.results}
    assert latest["ext"][0] == "99.0.0"
    assert latest["host"] == ("99.0.0", f"npm install -g {PKG}@latest")


def test_background_refresh_module_is_silent_on_garbage_arguments(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "installer.updates", "refresh", "--cache", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")


def test_doctor_findings_from_cache(
    server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache" / "updates.json"
    monkeypatch.setenv("EXT_INDEX_URL", server.base)
    server.routes[EXT_PATH] = index_doc("99.0.0")
    facts = pipx_facts(tmp_path)
    before = {f.id: f for f in doctor_findings(cached_report(cache_path=cache, facts=facts))}
    assert before["update.ext"].message == "ext: not checked yet"
    refresh(cache_path=cache, facts=facts, limits=OK)
    found = {f.id: f for f in doctor_findings(cached_report(cache_path=cache, facts=facts))}
    assert (found["update.method"].level, found["update.method"].message) == (
        "ok",
        "installed by pipx (pipx upgrade extset)",
    )
    assert found["update.ext"].level == "info"  # news, not a fault: --strict must not fail
    assert found["update.ext"].fix == pipx_from(server.base)  # the index asked (helper-40)
    assert found["update.host"].level == "info"


def test_doctor_says_no_index_configured(tmp_path: Path) -> None:
    cache = tmp_path / "updates.json"
    refresh(
        cache_path=cache,
        facts=pipx_facts(tmp_path),
        limits=OK,
        env={"HOME": str(tmp_path / "nohome")},
    )
    report = cached_report(cache_path=cache, facts=pipx_facts(tmp_path))
    found = {f.id: f for f in doctor_findings(report)}
    assert found["update.ext"].level == "info"
    assert found["update.ext"].message == "ext: no index configured"
    assert found["update.ext"].fix is not None and "EXT_INDEX_URL" in found["update.ext"].fix


def test_passive_path_imports_nothing_heavy(tmp_path: Path) -> None:
    code = (
        "import sys, pathlib\n"
        "from installer.updates import passive_notice\n"
        f"passive_notice(tty=True, env={{}}, cache_path=pathlib.Path({str(tmp_path / 'u.json')!r}),"
        " spawn=lambda *a: None)\n"
        f"passive_notice(tty=True, env={{}}, cache_path=pathlib.Path({str(tmp_path / 'u.json')!r}),"
        " spawn=lambda *a: None)\n"
        "heavy = {'httpx', 'nodesemver', 'tomlkit', 'importlib.metadata', 'concurrent.futures'}\n"
        "print(sorted(heavy & set(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "[]"


def test_passive_notice_never_waits_for_the_refresh(
    server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    from installer.updates.notice import spawn_refresh

    cache = tmp_path / "cache" / "updates.json"
    monkeypatch.setenv("EXT_INDEX_URL", server.base)
    server.routes[EXT_PATH] = hang(server.release)
    started: list[subprocess.Popen[bytes]] = []

    def spawn(host: HostFacts | None, set_dir: Path | None, path: Path) -> None:
        proc = spawn_refresh(host, set_dir, path)
        assert proc is not None
        started.append(proc)

    begin = time.monotonic()
    assert passive_notice(tty=True, env={}, cache_path=cache, spawn=spawn) is None
    assert time.monotonic() - begin < 1.0
    proc = started[0]
    assert proc.poll() is None  # still asking the hung server
    assert os.getsid(proc.pid) == proc.pid  # its own session: outlives the terminal
    server.release.set()
    assert proc.wait(timeout=60) == 0
    state = load_cache(cache)
    assert state is not None and state.checked_at is not None


def test_a_cached_result_speaks_only_for_the_installation_it_checked(
    server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache" / "updates.json"
    monkeypatch.setenv("EXT_INDEX_URL", server.base)
    server.routes[EXT_PATH] = index_doc("99.0.0")
    server.routes[HOST_PATH] = registry_doc("0.73.1")
    brew_pi = build_tree(tmp_path / "brew", {"Cellar/pi/0.70.0/bin/pi": "", "bin/brew": ""})
    brew = HostFacts(PKG, "0.70.0", brew_pi / "Cellar" / "pi" / "0.70.0" / "bin" / "pi")
    monkeypatch.setenv("EXT_NPM_REGISTRY", server.base)
    refresh(host=brew, cache_path=cache, facts=pipx_facts(tmp_path), limits=OK)

    same = {
        r.name: r
        for r in cached_report(host=brew, cache_path=cache, facts=pipx_facts(tmp_path)).results
    }
    npm_pi = host_facts(tmp_path)  # another pi of the same version, installed by npm
    other_facts = replace(pipx_facts(tmp_path), prefix=tmp_path / "elsewhere")
    other = cached_report(host=npm_pi, cache_path=cache, facts=other_facts)

    assert same["host"].hint == "brew upgrade pi"
    assert same["ext"].hint == pipx_from(server.base)
    # neither the brew fix nor the pipx one is offered to them
    assert [r.name for r in other.results] == ["set"]


def test_with_no_host_found_no_cached_host_check_is_said(
    server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """helper-57: doctor on a set whose pi was not found said another set's pi's last check
    (`updates.host canary: npm got no answer`), with its hint."""
    cache = tmp_path / "cache" / "updates.json"
    monkeypatch.setenv("EXT_INDEX_URL", server.base)
    monkeypatch.setenv("EXT_NPM_REGISTRY", server.base)
    server.routes[EXT_PATH] = index_doc("99.0.0")
    server.routes[HOST_PATH] = registry_doc("0.73.1")
    refresh(host=host_facts(tmp_path), cache_path=cache, facts=pipx_facts(tmp_path), limits=OK)

    unfound = cached_report(host=None, cache_path=cache, facts=pipx_facts(tmp_path))

    assert "host" not in [r.name for r in unfound.results]
    assert "ext" in [r.name for r in unfound.results]


def test_the_pi_hint_stays_inside_the_tested_range(server: Server, tmp_path: Path) -> None:
    server.routes[HOST_PATH] = registry_doc("0.75.0", "0.73.1", "0.73.4", "0.74.0", "0.75.0")
    host = replace(host_facts(tmp_path, "0.73.1"), tested="~0.73.0")
    config = UpdateConfig(registry=server.base, registry_source="test")

    found = check_host(config, host, {}, tmp_path / "npm", OK)

    assert (found.status, found.latest) == ("update-available", "0.73.4")
    assert found.hint == f"npm install -g {PKG}@0.73.4"
    assert "0.75.0 is out, outside the tested range (~0.73.0)" in found.detail
    assert "before widening [host] tested" in found.detail
    on_newest = check_host(config, replace(host, version="0.73.4"), {}, tmp_path / "npm", OK)
    assert (on_newest.status, on_newest.hint) == ("up-to-date", None)
    assert "0.75.0 is out" in on_newest.detail


def test_with_no_registry_configured_npm_is_asked(tmp_path: Path) -> None:
    answer = {"dist-tags.latest": "1.6.2", "versions": ["1.5.0", "1.6.0", "1.6.2"]}
    bin_dir = fake_tool(tmp_path / "bin", "npm", json.dumps(answer)).parent
    new = "@earendil-works/pi-coding-agent"  # today's package: npm is asked about it alone
    npm = build_tree(tmp_path / "npm", {f"lib/node_modules/{new}/dist/bundle/cli.js": ""})
    cli = npm / "lib" / "node_modules" / new / "dist" / "bundle" / "cli.js"
    host = HostFacts(new, "1.5.0", cli, tested=">=1.5.0 <1.7.0")

    found = check_host(UpdateConfig(), host, {"PATH": str(bin_dir)}, tmp_path / "npm", OK)

    assert (found.status, found.latest) == ("update-available", "1.6.2")
    # The latest is inside the range: named, not `@latest`, which a cached hint would
    # follow past the range once another release is out (helper-40).
    assert found.hint == f"npm install -g {new}@1.6.2"


def test_with_no_index_configured_pip_is_asked(tmp_path: Path) -> None:
    python = fake_tool(
        tmp_path / "py", "python", "extset (0.3.0)\nAvailable versions: 0.3.0, 0.2.0, 0.1.0"
    )
    facts = replace(pipx_facts(tmp_path), python=str(python))

    report = check_now(env={}, limits=OK, config=UpdateConfig(), facts=facts, current="0.1.0")

    ext = report.get("ext")
    assert ext is not None
    assert (ext.status, ext.latest, ext.hint) == (
        "update-available",
        "0.3.0",
        "pipx upgrade extset",
    )


def test_with_no_index_configured_a_uv_tool_asks_uv(tmp_path: Path) -> None:
    """A uv tool's venv has no pip: uv is asked, with the index uv is configured with."""
    prefix = build_tree(
        tmp_path / "uv" / "tools" / "extset",
        {"uv-receipt.toml": "", "lib/extset-0.1.0.dist-info/INSTALLER": "uv\n"},
    )
    no_pip = fake_tool(tmp_path / "no-pip", "python", "", code=1)
    uv = fake_tool(tmp_path / "bin", "uv", "extset==0.3.0")
    facts = InstallFacts(prefix, prefix / "lib" / "extset-0.1.0.dist-info", str(no_pip), {})

    report = check_now(
        env={"PATH": str(uv.parent)}, limits=OK, config=UpdateConfig(), facts=facts, current="0.1.0"
    )

    ext = report.get("ext")
    assert ext is not None
    assert (ext.status, ext.latest, ext.hint) == (
        "update-available",
        "0.3.0",
        "uv tool upgrade extset",
    )


def test_a_registry_of_the_npmrc_is_asked_with_its_auth_token(
    server: Server, tmp_path: Path
) -> None:
    """A trial (helper-40): a registry that needs the token ~/.npmrc gives it was asked
    without it, and its 401 said as 'check the network'. The token goes with the question,
    as npm sends it; without one, the refusal is said as a login to give."""
    from installer.updates.config import load_config

    doc = registry_bytes("0.73.1", "0.73.1")

    def needs_token(handler: BaseHTTPRequestHandler) -> None:
        ok = handler.headers.get("Authorization") == "Bearer s3cret"
        send(200, doc)(handler) if ok else send(401, b'{"error": "login"}')(handler)

    server.routes[f"/auth{HOST_PATH}"] = needs_token
    npmrc = tmp_path / "npmrc"
    host = server.base.removeprefix("http:")
    npmrc.write_text(
        f"registry={server.base}/auth/\n{host}/auth/:_authToken=${{NPM_TOKEN}}\n"
        f"{host}/other/:_authToken=wrong\n"
    )

    def asked(env: dict[str, str]) -> CheckResult:
        config = load_config(env, config_path=tmp_path / "c.toml", pip_files=(), npmrc=npmrc)
        assert "s3cret" not in repr(config)  # never shown
        return check_host(config, host_facts(tmp_path), env, tmp_path / "npm", OK)

    found = asked({"NPM_TOKEN": "s3cret"})
    assert (found.status, found.latest) == ("update-available", "0.73.1")
    refused = asked({})
    assert (refused.status, refused.unanswered) == ("unavailable", False)
    assert refused.detail == (
        f"the registry of {npmrc} answered 401 (it asks for a login: npm login, or an "
        "_authToken for it in ~/.npmrc)"
    )
