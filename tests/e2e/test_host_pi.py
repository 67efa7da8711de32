"""The host profile against the real pi: version without node, the offline load check, launch."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from installer.host.lines import SCOPES, line_of
from installer.host.pi import HostInfo, find_host, offline_load_check
from installer.sets.scan_source import scan_imports, scope_drift
from tests.e2e.conftest import REPO
from tests.helpers import build_tree

pytestmark = pytest.mark.e2e

CACHED_PI = REPO / ".cache" / "pi" / "node_modules" / ".bin" / "pi"


@pytest.fixture
def host(pi_bin: Path) -> HostInfo:
    found = find_host(str(pi_bin))
    assert found is not None
    return found


def test_version_and_scope_come_from_package_json_without_starting_node(
    pi_bin: Path, e2e_env: dict[str, str]
) -> None:
    # A PATH with no node on it: had find_host run `pi --version`, it would get nothing.
    host = find_host(str(pi_bin), path_env=str(pi_bin.parent))

    assert host is not None
    assert host.path == pi_bin.absolute()
    assert host.resolved.name == "cli.js" and host.resolved == pi_bin.resolve()
    assert host.version_source == "package.json"
    assert host.package is not None and host.package.endswith("/pi-coding-agent")
    assert host.scope in SCOPES
    printed = subprocess.run(
        [str(pi_bin), "--version"], env=e2e_env, capture_output=True, text=True, check=True
    )
    assert host.version == (printed.stdout + printed.stderr).strip()  # pi 0.73.1: on stderr
    if pi_bin == CACHED_PI:  # the version DESIGN.md was checked against
        assert (host.version, host.scope) == ("0.73.1", "@mariozechner")


def test_offline_load_check_reports_exactly_the_imports_of_a_scope_this_pi_lacks(
    host: HostInfo, tmp_path: Path, e2e_env: dict[str, str]
) -> None:
    # Each scope's value import, and a type import of each: pi 0.73 fails the new scope's
    # value import alone, pi 1.x (which maps @mariozechner onto its own modules) fails none.
    types = "".join(f'import type {{ ExtensionAPI as T{i} }} from "{s}/pi-coding-agent";\n'
                    for i, s in enumerate(SCOPES))  # fmt: skip
    agent = build_tree(
        tmp_path / "agent",
        {
            f"extensions/{scope[1:]}.ts": (
                types + f'import {{ getAgentDir }} from "{scope}/pi-coding-agent";\n'
                "export default function (pi: T0) {\n  getAgentDir();\n"
                f'  pi.registerFlag("{scope[1:]}-probe", {{ type: "boolean" }});\n'
                "}\n"
            )
            for scope in SCOPES
        },
    )
    pi = line_of(host.version, host.package)

    report = offline_load_check(host, agent, e2e_env, timeout=90)

    lacking = [s for s in SCOPES if s not in pi.scopes]
    assert not report.timed_out, report.output
    expected = [agent / "extensions" / f"{s[1:]}.ts" for s in lacking]
    assert sorted(f.path for f in report.failures) == sorted(expected), report.output
    for failure, scope in zip(sorted(report.failures), lacking, strict=True):
        assert f"Cannot find module '{scope}/pi-coding-agent'" in failure.reason
    # The static scanner agrees, without running anything.
    for scope in SCOPES:
        imports = scan_imports((agent / "extensions" / f"{scope[1:]}.ts").read_text())
        fails = [d.line for d in scope_drift(imports, pi) if d.fails_here]
        assert fails == ([len(SCOPES) + 1] if scope in lacking else [])


def test_offline_load_check_never_sends_the_prompt_even_with_a_key(
    host: HostInfo, tmp_path: Path, e2e_env: dict[str, str]
) -> None:
    # Without --model pointing nowhere, pi would send "x" to a real model with this
    # key (and here, with no network, hang until the timeout).
    agent = build_tree(tmp_path / "agent", {"extensions/ok.ts": "export default () => {};\n"})
    env = {**e2e_env, "ANTHROPIC_API_KEY": "sk-ant-not-a-real-key"}

    report = offline_load_check(host, agent, env, timeout=60)

    assert (report.failures, report.timed_out, report.finished) == ((), False, True), report.output


def test_launch_execs_the_real_pi_with_the_agent_dir(
    host: HostInfo, tmp_path: Path, e2e_env: dict[str, str]
) -> None:
    package = tmp_path / "local-package"
    agent = build_tree(
        tmp_path / "agent",
        {
            "settings.json": json.dumps({"packages": [str(package)]}),
            f"{package.relative_to(tmp_path)}/extensions/": None,
        },
    )

    def launched(*args: str) -> subprocess.CompletedProcess[str]:
        code = textwrap.dedent(
            f"""\
            import os
            from pathlib import Path
            from installer.host.pi import find_host, launch
            launch(find_host({str(host.path)!r}), Path({str(agent)!r}), {list(args)!r})
            """
        )
        return subprocess.run(
            [sys.executable, "-c", code],
            env=e2e_env,
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=90,
            check=False,
        )

    version = launched("--version")
    listed = launched("list")

    assert version.returncode == 0, version.stderr
    assert (version.stdout + version.stderr).strip() == host.version
    assert listed.returncode == 0, listed.stderr
    assert str(package) in listed.stdout  # pi read settings.json from our agent dir
