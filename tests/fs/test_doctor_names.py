"""doctor names an extension as `ext list` does, and says each finding about a file once."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from installer.commands.install import Install, install
from installer.doctor import Finding, resolve_subject, run_checks
from installer.doctor.checks.host import _labels, load_findings
from installer.ground.context import Env, resolve
from installer.host.pi import HostInfo, LoadFailure, LoadReport
from installer.sets.resources import discover, resolve_name
from tests.helpers import build_tree, yes

NEW_SCOPE_VALUE = (
    'import { getAgentDir } from "@earendil-works/pi-coding-agent";\n'
    "export default function () { getAgentDir(); }\n"
)


def old_pi() -> HostInfo:
    """A pi 0.73, where a value import from the new scope cannot load."""
    path = Path("/opt/pi/bin/pi")
    old = "@mariozechner"
    return HostInfo("pi", path, path, "0.73.1", f"{old}/pi-coding-agent", old, "package.json")


@pytest.fixture
def package_set(tmp_path: Path) -> Path:
    """A pi package whose manifest names `<folder>/index.ts` files."""
    manifest = {"extensions": ["./tools/index.ts", "./good/index.ts"]}
    return build_tree(
        tmp_path / "set",
        {
            "extset.toml": '[set]\nname = "p"\n',
            "package.json": json.dumps({"name": "p", "type": "module", "pi": manifest}),
            "tools/index.ts": NEW_SCOPE_VALUE,
            "good/index.ts": "export default function () {}\n",
        },
    )


def checks(tmp_path: Path, root: Path, mode: str, *ids: str) -> list[Finding]:
    agent = tmp_path / f"agent-{mode}"
    agent.mkdir()
    env = Env(environ=dict(os.environ), cwd=tmp_path)
    install(resolve(env, root, agent), Install(mode=mode), yes)
    subject = resolve_subject(env, root, agent, lambda _c, _p: old_pi())
    return run_checks(subject, list(ids))


@pytest.mark.parametrize("mode", ["register", "link"])
def test_a_bad_import_in_a_manifests_folder_index_is_one_error_named_after_the_folder(
    tmp_path: Path, package_set: Path, mode: str
) -> None:
    found = [f for f in checks(tmp_path, package_set, mode, "host.scope") if f.level == "error"]

    [one] = found  # register mode read it twice: as the set's item and as the package's file
    assert one.message.startswith(f"tools: {package_set / 'tools' / 'index.ts'}:1 imports")


def test_a_load_failure_names_the_item_ext_disable_knows(tmp_path: Path, package_set: Path) -> None:
    agent = tmp_path / "agent"
    agent.mkdir()
    env = Env(environ=dict(os.environ), cwd=tmp_path)
    install(resolve(env, package_set, agent), Install(mode="register"), yes)
    subject = resolve_subject(env, package_set, agent, lambda _c, _p: old_pi())
    bad = package_set / "tools" / "index.ts"
    report = LoadReport((LoadFailure(bad, "boom"),), False, True, 1, "")

    [found] = load_findings(report, _labels(subject), "pi")

    assert found.message.startswith("tools: pi could not load")
    assert found.fix == "fix the extension, or `ext disable tools` until it loads"
    [item] = resolve_name(discover(package_set), "tools")  # the fix names a real item
    assert item.entries() == [os.path.realpath(bad)]
