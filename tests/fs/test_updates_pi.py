"""The pi update hint on fake pis (npm's layouts under tmp_path, no Node started), against a
loopback registry serving both of pi's package names: pi moved, pi at its latest, a managed
install, a self-update command."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from installer.host.lines import NEW_PACKAGE, OLD_PACKAGE
from installer.host.pi import find_host
from installer.updates import HostFacts, UpdateConfig, check_now
from installer.updates.check import check_host
from installer.updates.results import CheckResult
from tests.fs.test_updates_check import (  # noqa: F401 -- the fixtures, used by name
    OK,
    Server,
    no_proxy,
    pipx_facts,
    send,
    server,
)
from tests.helpers import build_tree

BUNDLED = ">=0.73.0 <0.74.0"  # the bundled set's range before pi 1.x was tested
NODE = ">=22.19.0"
BINS = {OLD_PACKAGE: "dist/cli.js", NEW_PACKAGE: "dist/bundle/cli.js"}


def fake_pi(modules: Path, package: str, version: str) -> Path:
    """`<modules>/node_modules/<package>` with its package.json and bin, as npm lays it out;
    returns the package's bin file."""
    home = modules / "node_modules" / package
    manifest = {
        "name": package,
        "version": version,
        "bin": {"pi": BINS[package]},
        "engines": {"node": NODE if package == NEW_PACKAGE else ">=20.6.0"},
    }
    build_tree(home, {"package.json": json.dumps(manifest), BINS[package]: "#!/usr/bin/env node\n"})
    (home / BINS[package]).chmod(0o755)
    return home / BINS[package]


def facts(bin_file: Path, tested: str | None = None) -> HostFacts:
    """What `ext update --check` knows of the pi at `bin_file`, read as ext reads it."""
    info = find_host(str(bin_file))
    found = HostFacts.from_info(info, tested)
    assert found is not None and found.version is not None  # from package.json: no Node
    return found


def serve(srv: Server, package: str, latest: str, *published: str) -> None:
    versions = {v: {"version": v} for v in (*published, latest)}
    doc = {"name": package, "dist-tags": {"latest": latest}, "versions": versions}
    srv.routes["/" + package.replace("/", "%2f")] = send(200, json.dumps(doc).encode())


def check(srv: Server, host: HostFacts, prefix: Path, **env: str) -> CheckResult:
    """`ext update --check`'s host row; the test's HOME holds no pi settings."""
    config = UpdateConfig(registry=srv.base, registry_source="test")
    return check_host(config, host, env, prefix, OK)


@pytest.fixture
def both(request: pytest.FixtureRequest) -> Server:
    """The old package ended at 0.73.1; the new one is at 1.6.0."""
    srv: Server = request.getfixturevalue("server")
    serve(srv, OLD_PACKAGE, "0.73.1", "0.72.0")
    serve(srv, NEW_PACKAGE, "1.6.0", "0.74.0", "1.5.0")
    return srv


@pytest.fixture
def old_only(request: pytest.FixtureRequest) -> Server:
    """A registry that has never heard of the new package."""
    srv: Server = request.getfixturevalue("server")
    serve(srv, OLD_PACKAGE, "0.73.1")
    return srv


# ---- pi moved ---------------------------------------------------------------


def test_on_the_old_package_pi_moved_names_the_new_package_its_latest_and_the_switch(
    both: Server, tmp_path: Path
) -> None:
    npm = tmp_path / "npm"
    found = check(both, facts(fake_pi(npm / "lib", OLD_PACKAGE, "0.73.1")), npm)

    assert (found.status, found.current, found.latest) == ("update-available", "0.73.1", "1.6.0")
    assert found.label == NEW_PACKAGE
    assert found.hint == (f"npm uninstall -g {OLD_PACKAGE} && npm install -g {NEW_PACKAGE}@latest")
    assert found.line().startswith(
        f"{NEW_PACKAGE} 1.6.0 is available (you have 0.73.1); "
        f"pi moved here from {OLD_PACKAGE} (it needs Node {NODE}); run: npm uninstall"
    )
    assert both.requests.count("/@earendil-works%2fpi-coding-agent") == 1


def test_a_wrapper_of_pi_is_checked_by_its_version_and_updated_by_hand(
    both: Server, tmp_path: Path
) -> None:
    """`[host] command = "~/bin/mypi"`, a script that starts pi: no npm package lies behind its
    path, but each release of pi is of one package (doctor's host.moved says which), so the
    version it prints is asked about; how the pi it starts was installed is not known."""
    wrapper = HostFacts(package=None, version="0.73.1", resolved=tmp_path / "bin" / "mypi")
    found = check(both, replace(wrapper, command="mypi"), tmp_path / "npm")

    assert (found.status, found.current, found.latest) == ("update-available", "0.73.1", "1.6.0")
    assert (found.label, found.hint) == (NEW_PACKAGE, None)
    assert "mypi is no npm install of pi that ext can read" in found.detail
    assert "switch to it by hand" in found.detail
    newest = check(both, replace(wrapper, version="1.6.0"), tmp_path / "npm")
    assert (newest.status, newest.label) == ("up-to-date", NEW_PACKAGE)
    # A version that is no release of pi's says nothing of its package: not checked, and why.
    unknown = check(both, replace(wrapper, version=None, command="mypi"), tmp_path / "npm")
    assert (unknown.status, unknown.label) == ("not-applicable", "mypi")
    assert (
        unknown.line() == "mypi: not checked: it printed no version, so its pi package is unknown"
    )


def test_a_local_prefix_switches_in_that_prefix(both: Server, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    found = check(both, facts(fake_pi(project, OLD_PACKAGE, "0.73.1")), tmp_path / "npm")

    assert found.hint == (
        f"npm --prefix {project} uninstall {OLD_PACKAGE} && "
        f"npm --prefix {project} install {NEW_PACKAGE}@latest"
    )


def test_homebrew_upgrades_its_formula(both: Server, tmp_path: Path) -> None:
    keg = tmp_path / "opt" / "homebrew" / "Cellar" / "pi-coding-agent" / "0.73.1" / "libexec"
    found = check(both, facts(fake_pi(keg / "lib", OLD_PACKAGE, "0.73.1")), tmp_path / "npm")

    assert (found.status, found.hint) == ("update-available", "brew upgrade pi-coding-agent")


def test_the_switch_stays_inside_the_tested_range(both: Server, tmp_path: Path) -> None:
    npm = tmp_path / "npm"
    host = facts(fake_pi(npm / "lib", OLD_PACKAGE, "0.73.1"), ">=0.73.0 <1.6.0")

    found = check(both, host, npm)

    assert (found.status, found.latest) == ("update-available", "1.5.0")
    assert found.hint == (f"npm uninstall -g {OLD_PACKAGE} && npm install -g {NEW_PACKAGE}@1.5.0")
    assert "the newest tested; 1.6.0 is out, outside the tested range (>=0.73.0 <1.6.0)" in (
        found.detail
    )


def test_a_range_the_new_package_has_nothing_in_keeps_the_old_and_says_what_is_beyond(
    both: Server, tmp_path: Path
) -> None:
    npm = tmp_path / "npm"
    host = facts(fake_pi(npm / "lib", OLD_PACKAGE, "0.73.1"), BUNDLED)

    found = check(both, host, npm)

    assert (found.status, found.latest, found.hint) == ("up-to-date", "0.73.1", None)
    assert found.label == OLD_PACKAGE
    assert found.detail == (
        f"pi moved to {NEW_PACKAGE} (it needs Node {NODE}); "
        f"1.6.0 is out, outside the tested range ({BUNDLED}): check its changelog and the "
        "flags and events this set uses (`pi --help`) before widening [host] tested; "
        f"then: npm uninstall -g {OLD_PACKAGE} && npm install -g {NEW_PACKAGE}@1.6.0"
    )


def test_a_registry_without_the_new_package_leaves_the_old_answer(
    old_only: Server, tmp_path: Path
) -> None:
    npm = tmp_path / "npm"

    found = check(old_only, facts(fake_pi(npm / "lib", OLD_PACKAGE, "0.73.1")), npm)

    assert (found.status, found.label, found.hint) == ("up-to-date", OLD_PACKAGE, None)


# ---- pi at its latest -------------------------------------------------------


@pytest.mark.parametrize("tested", [None, BUNDLED, "^1.0.0"])
def test_pi_at_the_latest_is_up_to_date_and_nothing_is_out(
    both: Server, tmp_path: Path, tested: str | None
) -> None:
    npm = tmp_path / "npm"
    found = check(both, facts(fake_pi(npm / "lib", NEW_PACKAGE, "1.6.0"), tested), npm)

    assert (found.status, found.latest, found.hint) == ("up-to-date", "1.6.0", None)
    assert "is out" not in found.line()
    assert "/@mariozechner%2fpi-coding-agent" not in both.requests  # today's package: no move


def test_the_report_of_pi_at_its_latest_has_no_update(both: Server, tmp_path: Path) -> None:
    npm = tmp_path / "npm"
    host = facts(fake_pi(npm / "lib", NEW_PACKAGE, "1.6.0"), BUNDLED)
    config = UpdateConfig(registry=both.base, registry_source="test")

    report = check_now(
        host=host, env={}, config=config, npm_prefix=npm, facts=pipx_facts(tmp_path), limits=OK
    )

    assert report.get("host") is not None and report.updates == ()


# ---- pi's own installer and update command ----------------------------------


def managed(root: Path, version: str, marker: object = None) -> Path:
    """A managed install as pi 1.x's installer lays it out: `<root>/managed-install.json`,
    `<root>/releases/<version>/node_modules/<package>` (dist/package-manager-cli.js)."""
    default = {"kind": "pi-managed-install", "schemaVersion": 1, "layout": "releases-v1"}
    text = json.dumps(default if marker is None else marker)
    build_tree(root, {"managed-install.json": text, "current-version": f"{version}\n"})
    return fake_pi(root / "releases" / version, NEW_PACKAGE, version)


@pytest.mark.parametrize("from_env", [False, True])
def test_a_managed_install_is_updated_with_pi_update(
    both: Server, tmp_path: Path, from_env: bool
) -> None:
    root = tmp_path / "pi-managed"
    env = {"PI_MANAGED_INSTALL_ROOT": str(root)} if from_env else {}

    found = check(both, facts(managed(root, "1.5.0")), tmp_path / "npm", **env)

    assert (found.status, found.latest, found.hint) == ("update-available", "1.6.0", "pi update")
    assert found.method == "managed"


def test_a_managed_install_with_a_bad_marker_gets_no_command(both: Server, tmp_path: Path) -> None:
    root = tmp_path / "pi-managed"
    found = check(both, facts(managed(root, "1.5.0", {"kind": "other"})), tmp_path / "npm")

    assert (found.status, found.hint, found.method) == ("update-available", None, "managed")
    assert "managed-install.json is invalid" in found.detail


def test_pi_update_cannot_pin_a_tested_release(both: Server, tmp_path: Path) -> None:
    host = facts(managed(tmp_path / "pi-managed", "0.74.0"), "<1.6.0")

    found = check(both, host, tmp_path / "npm")

    assert (found.status, found.latest, found.hint) == ("update-available", "1.5.0", None)
    assert "it cannot pin 1.5.0" in found.detail


def test_a_self_update_command_is_the_hint_filled_as_pi_fills_it(
    both: Server, tmp_path: Path
) -> None:
    npm = tmp_path / "npm"
    mise = {"PI_SELF_UPDATE_COMMAND": "mise use -g npm:{packageName}@{version}"}
    old_one = fake_pi(npm / "lib", NEW_PACKAGE, "1.0.0")

    pinned = check(both, facts(old_one, "<1.6.0"), npm, **mise)
    latest = check(both, facts(old_one), npm, **mise)

    assert (pinned.latest, pinned.hint) == ("1.5.0", f"mise use -g npm:{NEW_PACKAGE}@1.5.0")
    assert pinned.method == "pi-update-command"
    # the latest is what pi fills in itself: `pi update` runs the command
    assert (latest.latest, latest.hint) == ("1.6.0", "pi update")


def test_the_self_update_setting_of_the_agent_dir_pi_reads(both: Server, tmp_path: Path) -> None:
    npm = tmp_path / "npm"
    argv = ["nix", "profile", "upgrade", "pi"]
    agent = build_tree(
        tmp_path / "agent", {"settings.json": json.dumps({"selfUpdateCommand": argv})}
    )
    host = facts(fake_pi(npm / "lib", NEW_PACKAGE, "1.0.0"))
    env = {"PI_CODING_AGENT_DIR": str(agent)}

    found = check(both, host, npm, **env)
    pinned = check(both, replace(host, tested="<1.6.0"), npm, **env)

    assert found.hint == "pi update"  # which runs nix profile upgrade pi
    assert pinned.hint is None  # no {version} in it: it cannot install 1.5.0 on request
    assert "it cannot pin 1.5.0" in pinned.detail


def test_doctor_says_pi_moved_from_the_cache(both: Server, tmp_path: Path) -> None:
    from installer.updates import cached_report, doctor_findings, refresh

    npm = tmp_path / "npm"
    host = facts(fake_pi(npm / "lib", OLD_PACKAGE, "0.73.1"))
    cache = tmp_path / "cache" / "updates.json"
    env = {"EXT_NPM_REGISTRY": both.base, "npm_config_prefix": str(npm)}

    refresh(host=host, cache_path=cache, env=env, limits=OK, facts=pipx_facts(tmp_path))
    rows = {f.id: f for f in doctor_findings(cached_report(host=host, cache_path=cache))}

    row = rows["update.host"]
    assert row.message.startswith(f"{NEW_PACKAGE} 1.6.0 is available (you have 0.73.1); pi moved")
    assert row.level == "info"  # news, not a fault: --strict does not fail on it
    assert row.fix == f"npm uninstall -g {OLD_PACKAGE} && npm install -g {NEW_PACKAGE}@latest"
