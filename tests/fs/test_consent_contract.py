"""docs/consent.md is a contract: its Node reader must agree with ext's hashes and store."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from installer.consent import commands
from installer.consent.config import read_project
from installer.consent.store import store_path
from tests.helpers import build_tree

DOC = Path(__file__).resolve().parents[2] / "docs" / "consent.md"
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="needs node to run the documented reader")

RUNNER = """
import { hookHash, isApproved, projectHookConfig } from "./consent.mjs";
const [agentDir, project] = process.argv.slice(2);
console.log(JSON.stringify({
  hash: hookHash(projectHookConfig(project)),
  approved: isApproved(agentDir, project),
}));
"""

# Numbers, keys and strings where a naive canonical form goes wrong.
TRICKY = (
    '{"model": "x", "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": ['
    '{"type": "command", "command": "echo caf\\u00e9 \\ud83c\\udf89 \\u001b[0m\\n\\"q\\" \\\\ /",'
    ' "timeout": 5.0, "big": 12345678901234567890,'
    ' "f": [1e21, 1E-7, 0.1, -0.0, 333333333.33333329]},'
    ' {"type": "command", "command": "\\u00fcber"}]}],'
    ' "Stop": [{"hooks": [{"type": "command", "command": "x",'
    ' "\\uffff": 1, "\\ud83d\\ude00": 2}]}]}}'
)


def node_view(tmp_path: Path, agent: Path, project: Path) -> dict[str, object]:
    code = re.search(r"```js\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    assert code is not None, "docs/consent.md lost its js block"
    (tmp_path / "consent.mjs").write_text(code.group(1))
    (tmp_path / "run.mjs").write_text(RUNNER)
    out = subprocess.run(
        [str(NODE), str(tmp_path / "run.mjs"), str(agent), str(project)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return dict(json.loads(out.stdout))


@pytest.fixture
def agent(tmp_path: Path) -> Path:
    path = tmp_path / "agent"
    path.mkdir()
    return path


def test_the_documented_reader_computes_ext_s_hash(tmp_path: Path, agent: Path) -> None:
    project = build_tree(
        tmp_path / "proj",
        {
            ".claude/settings.json": TRICKY,
            ".claude/settings.local.json": '{"hooks": {}}',
            ".pi/hooks.json": (
                '{"SessionStart": [{"hooks": [{"type": "command", "command": "\\u00e9"}]}]}'
            ),
        },
    )
    ours = read_project(project).sha256
    assert ours is not None
    assert node_view(tmp_path, agent, project) == {"hash": ours, "approved": False}


def test_the_documented_reader_honours_approvals_and_modes(tmp_path: Path, agent: Path) -> None:
    real = build_tree(tmp_path / "real", {".claude/settings.json": TRICKY})
    link = tmp_path / "link"
    link.symlink_to(real)
    commands.approve(agent, real, commands.describe_approval(agent, real))
    assert node_view(tmp_path, agent, link)["approved"] is True

    store_path(agent).chmod(0o666)
    assert node_view(tmp_path, agent, link)["approved"] is False
    store_path(agent).chmod(0o600)

    (real / ".claude/settings.json").write_text(TRICKY.replace("5.0", "6"))
    assert node_view(tmp_path, agent, link)["approved"] is False


def test_a_project_without_hooks_is_approved_without_an_entry(tmp_path: Path, agent: Path) -> None:
    bare = build_tree(tmp_path / "bare", {".claude/settings.json": '{"hooks": null}'})
    assert node_view(tmp_path, agent, bare) == {"hash": None, "approved": True}
