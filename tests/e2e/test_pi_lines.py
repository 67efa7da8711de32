"""The table of pi lines (installer/host/lines.py) against each real pi: every fact of a row is
what that row's pi does. A test here runs once per pi ([pi1.6.0], [pi0.73.1])."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from installer.host.lines import SCOPES, line_of
from installer.host.loader import Unavailable, ask
from installer.host.node import find_node
from installer.host.pi import HostInfo, find_host, offline_load_check, package_dir
from installer.updates.hostmethod import MARKER, MARKER_FIELDS, SELF_UPDATE_VAR
from tests.helpers import build_tree
from tests.pis import RealPi

pytestmark = pytest.mark.e2e


@pytest.fixture
def host(real_pi: RealPi) -> HostInfo:
    found = find_host(str(real_pi.bin), real_pi.path())
    assert found is not None
    return found


def test_the_pi_found_is_of_its_own_row(real_pi: RealPi, host: HostInfo) -> None:
    line = line_of(host.version, host.package)
    package = package_dir(host)

    assert line == real_pi.line
    assert (host.version, host.package, host.version_source) == (
        line.tested,
        line.package,
        "package.json",
    )
    assert package is not None
    assert host.resolved == (package / line.bin).resolve()
    engines = json.loads((package / "package.json").read_text())["engines"]
    assert engines["node"] == line.node


def test_value_imports_load_from_exactly_the_rows_scopes(
    real_pi: RealPi, host: HostInfo, tmp_path: Path
) -> None:
    files = {
        f"extensions/{scope[1:]}.ts": (
            f'import {{ VERSION }} from "{scope}/pi-coding-agent";\n'
            "export default function () { void VERSION; }\n"
        )
        for scope in SCOPES
    }
    files["extensions/types-only.ts"] = (
        f'import type {{ ExtensionAPI }} from "{SCOPES[-1]}/pi-coding-agent";\n'
        "export default function (pi: ExtensionAPI) { void pi; }\n"
    )
    agent = build_tree(tmp_path / "agent", files)

    report = offline_load_check(host, agent, {"PATH": real_pi.path(), "HOME": str(tmp_path)})

    assert report.finished, report.output
    failed = {f.path.name for f in report.failures}
    assert failed == {f"{s[1:]}.ts" for s in SCOPES if s not in real_pi.line.scopes}


def test_a_pi_key_without_resource_fields_is_read_as_the_row_says(
    real_pi: RealPi, host: HostInfo, tmp_path: Path
) -> None:
    loaded = {}
    for key in ({}, {"image": "shot.png"}):
        root = build_tree(
            tmp_path / f"set{len(loaded)}",
            {
                "package.json": json.dumps({"name": "s", "pi": key}),
                "extensions/hello.ts": "export default function () {}\n",
            },
        )
        agent = build_tree(
            tmp_path / f"agent{len(loaded)}",
            {"settings.json": json.dumps({"packages": [str(root)]})},
        )
        views = ask(host, [(agent, tmp_path)], {"PATH": real_pi.path(), "HOME": str(tmp_path)})
        assert not isinstance(views, Unavailable), views.reason
        loaded[json.dumps(key)] = bool(views[0].reals("extension"))

    conventional = real_pi.line.bare_pi_key == "conventional"
    assert loaded == {"{}": conventional, '{"image": "shot.png"}': conventional}


def test_the_sdk_takes_what_the_row_says_for_a_session(real_pi: RealPi, host: HostInfo) -> None:
    package = package_dir(host)
    node = find_node(host, real_pi.path())
    assert package is not None and node is not None
    script = (
        "const sdk = await import(process.argv[1]);"
        "console.log(JSON.stringify({authStorage: typeof sdk.AuthStorage,"
        " modelRuntime: typeof sdk.ModelRuntime}));"
    )
    entry = (package / "dist" / "index.js").as_uri()
    done = subprocess.run(
        [str(node.path), "--input-type=module", "-e", script, entry],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )

    exports = json.loads(done.stdout.strip().splitlines()[-1])
    assert exports[real_pi.line.session_api] == "function", exports
    if real_pi.line.session_api == "authStorage":
        assert exports["modelRuntime"] == "undefined", exports


def test_a_managed_install_is_read_as_pi_reads_it(real_pi: RealPi) -> None:
    cli = (real_pi.package_dir / "dist" / "package-manager-cli.js").read_text(encoding="utf-8")

    has = "PI_MANAGED_INSTALL_ROOT" in cli and f'"{MARKER}"' in cli
    assert has is real_pi.line.managed_install
    for key, value in MARKER_FIELDS.items():  # the marker's fields, as pi checks them
        assert (f"marker.{key} !== {json.dumps(value)}" in cli) is real_pi.line.managed_install
    # a release's package: <root>/releases/<version>/node_modules/.bin/pi
    assert ('join(managedRoot, "releases")' in cli) is real_pi.line.managed_install


def test_the_self_update_command_is_filled_as_pi_fills_it(real_pi: RealPi) -> None:
    config = (real_pi.package_dir / "dist" / "config.js").read_text(encoding="utf-8")

    assert (f"process.env.{SELF_UPDATE_VAR}" in config) is real_pi.line.self_update_command
    placeholders = r"/\{(packageName|version|installSpec)\}/g"
    assert (placeholders in config) is real_pi.line.self_update_command
