"""`ext outdated` / `ext update --check` end to end, against index and registry on loopback."""

from __future__ import annotations

import json
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

from installer.host.lines import NEW_PACKAGE, OLD_PACKAGE
from tests.e2e.conftest import Run
from tests.helpers import build_tree, serve, stop
from tests.pis import RealPi

pytestmark = pytest.mark.e2e

# Both of pi's packages as the registry has them: the old one ended at 0.73.1.
OLD = {"dist-tags": {"latest": "0.73.1"}, "versions": {"0.73.0": {}, "0.73.1": {}}}
NEW = {"dist-tags": {"latest": "1.99.0"}, "versions": {"1.6.0": {}, "1.99.0": {}}}
BODIES = {
    "/pypi/extset/json": {"info": {"version": "9.1.0"}},
    **{f"/@mariozechner%{c}pi-coding-agent": OLD for c in ("2f", "2F")},
    **{f"/@earendil-works%{c}pi-coding-agent": NEW for c in ("2f", "2F")},
}


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = BODIES.get(self.path)
        if body is None:
            self.send_error(404)
            return
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:
        return


@pytest.fixture
def server() -> Iterator[str]:
    httpd = serve(_Handler)
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    stop(httpd)


def test_outdated_names_newer_versions_with_hints(
    ext: Run, e2e_env: dict[str, str], server: str, tmp_path: Path, real_pi: RealPi
) -> None:
    """On each real pi (its package.json read, no Node started): today's package is offered
    an upgrade in its own prefix; the old one is told pi moved, and how to switch to it."""
    the_set = build_tree(tmp_path / "set", {"extensions/a.ts": "export default () => {};"})
    env = {**e2e_env, "EXT_INDEX_URL": f"{server}/simple/", "EXT_NPM_REGISTRY": server}
    done = ext("--set", str(the_set), "outdated", env=env)
    assert done.returncode == 0, done.stderr
    assert "9.1.0" in done.stdout
    assert f"{NEW_PACKAGE} 1.99.0 is available (you have {real_pi.version})" in done.stdout
    prefix = f"npm --prefix {real_pi.bin.parents[1].parent.resolve()}"  # .cache/pi-<version>
    switch = f"{prefix} uninstall {OLD_PACKAGE} && " if real_pi.line.package == OLD_PACKAGE else ""
    assert f"run: {switch}{prefix} install {NEW_PACKAGE}@latest" in done.stdout
    assert "git -C" in done.stdout  # ext is an editable install of this checkout

    data = json.loads(ext("--set", str(the_set), "--json", "update", "--check", env=env).stdout)
    assert data["updates_available"] is True
    by_name = {c["name"]: c for c in data["checks"]}
    assert by_name["ext"]["latest"] == "9.1.0"
    assert by_name["host"]["latest"] == "1.99.0"


def test_outdated_without_configuration_says_so_and_exits_0(
    ext: Run, e2e_env: dict[str, str], tmp_path: Path
) -> None:
    the_set = build_tree(tmp_path / "set", {"extensions/a.ts": "export default () => {};"})
    # Unconfigured, ext asks npm and pip; here neither may reach a registry.
    npm = build_tree(tmp_path / "bin", {"npm": "#!/bin/sh\nexit 1\n"}) / "npm"
    npm.chmod(0o755)
    path = f"{npm.parent}:{e2e_env['PATH']}"
    done = ext(
        "--set", str(the_set), "outdated", env={**e2e_env, "PATH": path, "PIP_NO_INDEX": "1"}
    )
    assert done.returncode == 0, done.stderr
    assert "no index configured" in done.stdout


@pytest.mark.parametrize("named", [("EXT_AGENT_DIR",), ("--agent-dir",)])
def test_a_check_needs_no_agent_dir(
    ext: Run, e2e_env: dict[str, str], server: str, tmp_path: Path, named: tuple[str]
) -> None:
    """A trial: `EXT_AGENT_DIR=~/nope ext update --check` exited 4 (`agent dir … does not
    exist`), where the README says it always exits 0: it checks ext, pi and the set."""
    the_set = build_tree(tmp_path / "set", {"extensions/a.ts": "export default () => {};"})
    nope = tmp_path / "nope"
    env = {**e2e_env, "EXT_INDEX_URL": f"{server}/simple/", "EXT_NPM_REGISTRY": server}
    where = ["--agent-dir", str(nope)] if named == ("--agent-dir",) else []
    if not where:
        env["EXT_AGENT_DIR"] = str(nope)
    for command in (["update", "--check"], ["outdated"]):
        done = ext("--set", str(the_set), *where, *command, env=env)
        assert done.returncode == 0, done.stderr
        assert "9.1.0" in done.stdout
    assert not nope.exists()
