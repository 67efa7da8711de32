"""The bundled set's TypeScript: its logic under node's test runner, and the set in the real pi.

The node tests import the extensions through the jiti that the installed pi
ships, so they see the code as pi's loader does. The pi tests link the set by
hand (no `ext`), so a failure here is the extensions' own.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import NoReturn

import pytest

from tests.e2e.conftest import REPO

pytestmark = pytest.mark.e2e

TS_TESTS = REPO / "tests" / "ts"
DOC = REPO / "docs" / "bundled-set.md"
_FLAG = re.compile(r"""registerFlag\(\s*["']([^"']+)["']""")


def _missing(what: str) -> NoReturn:
    message = f"{what}: run scripts/setup"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture
def node() -> Path:
    """node on PATH; in CI its absence fails the test instead of skipping it."""
    found = shutil.which("node")
    if found is None:
        _missing("node is not on PATH")
    return Path(found)


def bundled_flags() -> dict[str, list[str]]:
    """Each bundled extension's flags, read from its source."""
    out: dict[str, list[str]] = {}
    for entry in sorted((REPO / "extensions").iterdir()):
        files = sorted(entry.rglob("*.ts")) if entry.is_dir() else [entry]
        out[entry.name] = [f for path in files for f in _FLAG.findall(path.read_text())]
    return out


def linked_agent_dir(root: Path, *kinds: str) -> Path:
    """An agent dir holding a symlink to each of the set's resources of these kinds."""
    agent = root / "agent"
    for kind in kinds:
        (agent / kind).mkdir(parents=True)
        for entry in sorted((REPO / kind).iterdir()):
            (agent / kind / entry.name).symlink_to(entry)
    return agent


def run(
    pi: Path, agent: Path, env: dict[str, str], cwd: Path, *args: str, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(pi), *args],
        cwd=cwd,
        env={**env, "PI_CODING_AGENT_DIR": str(agent)},
        input=stdin,
        stdin=None if stdin is not None else subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )


def test_the_typescript_unit_tests_pass(
    node: Path, pi_bin: Path, e2e_env: dict[str, str], tmp_path: Path
) -> None:
    files = sorted(TS_TESTS.glob("*.test.mjs"))
    assert files, "tests/ts has no *.test.mjs"
    proc = subprocess.run(
        [str(node), "--test", *map(str, files)],
        cwd=REPO,
        env={**e2e_env, "EXTSET_PI": str(pi_bin), "TMPDIR": str(tmp_path)},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout[-12000:] + proc.stderr[-4000:]
    assert re.search(r"^# fail 0$", proc.stdout, re.MULTILINE), proc.stdout[-2000:]


def test_every_bundled_extension_registers_a_flag_that_the_docs_describe() -> None:
    doc = DOC.read_text()
    for name, flags in bundled_flags().items():
        assert flags, f"{name} registers no flag: `pi --help` could not show that it loaded"
        assert f"## {name.removesuffix('.ts')}" in doc, f"{DOC.name} has no section for {name}"
        for flag in flags:
            assert f"--{flag}" in doc, f"{DOC.name} does not describe --{flag} ({name})"


def test_the_real_pi_loads_every_bundled_extension(
    pi_bin: Path, e2e_env: dict[str, str], tmp_path: Path
) -> None:
    agent = linked_agent_dir(tmp_path, "extensions")

    # With stdin not a terminal pi runs in print mode, which moves stdout to stderr.
    shown = run(pi_bin, agent, e2e_env, tmp_path, "--help")
    help_text = shown.stdout + shown.stderr
    for name, flags in bundled_flags().items():
        for flag in flags:
            assert f"--{flag}" in help_text, f"{name}: --{flag} missing from pi --help"

    load = run(pi_bin, agent, e2e_env, tmp_path, "-p", "x", "--offline", "--no-session")
    output = load.stdout + load.stderr
    assert "Failed to load extension" not in output, output
    assert "No API key found" in output, f"pi stopped before the model step:\n{output}"


def test_the_real_pi_finds_the_prompts_and_the_skill(
    pi_bin: Path, e2e_env: dict[str, str], tmp_path: Path
) -> None:
    agent = linked_agent_dir(tmp_path, "extensions", "prompts", "skills")
    request = json.dumps({"id": "cmds", "type": "get_commands"}) + "\n"
    rpc = ("--mode", "rpc", "--offline", "--no-session")
    proc = run(pi_bin, agent, e2e_env, tmp_path, *rpc, stdin=request)
    records = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    assert not [r for r in records if r.get("type") == "extension_error"], records
    (response,) = [r for r in records if r.get("id") == "cmds"]
    names = {c["name"] for c in response["data"]["commands"]}
    prompts = {p.stem for p in (REPO / "prompts").glob("*.md")}
    skills = {f"skill:{s.name}" for s in (REPO / "skills").iterdir() if (s / "SKILL.md").exists()}
    assert prompts and skills
    assert prompts | skills <= names, names
