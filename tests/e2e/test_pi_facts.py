"""The facts about pi that the link engine's disable and backup rules rely on, pinned on pi."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.e2e.conftest import Run
from tests.helpers import build_tree

pytestmark = pytest.mark.e2e


def _ext(flag: str) -> str:
    return (
        "export default function (pi: any) {\n"
        f'  pi.registerFlag("{flag}", {{ description: "probe", type: "boolean" }});\n'
        "}\n"
    )


def _skill(name: str) -> str:
    return f"---\nname: {name}\ndescription: A probe skill named {name}.\n---\n\nProbe.\n"


@pytest.fixture
def agent(tmp_path: Path) -> Path:
    """Every enabled, disabled and backed-up form ext writes, side by side."""
    return build_tree(
        tmp_path / "agent",
        {
            "extensions/live.ts": _ext("probe-live"),
            "extensions/off-file.ts.off": _ext("probe-off-file"),
            "extensions/bak-file.ts.bak.20261129-101500": _ext("probe-bak-file"),
            "extensions/dir-live/index.ts": _ext("probe-dir-live"),
            "extensions/dir-renamed.off/index.ts": _ext("probe-dir-renamed-off"),
            "extensions/.off/dir-parked/index.ts": _ext("probe-dir-parked"),
            "extensions/dir-beside.bak.20261129-101500/index.ts": _ext("probe-dir-beside-bak"),
            "extensions/.bak/dir-parked.bak.20261129-101500/index.ts": _ext("probe-dir-bak"),
            "skills/live-skill/SKILL.md": _skill("live-skill"),
            "skills/renamed-skill.off/SKILL.md": _skill("renamed-skill"),
            "skills/.off/parked-skill/SKILL.md": _skill("parked-skill"),
            "skills/.bak/backed-skill.bak.20261129-101500/SKILL.md": _skill("backed-skill"),
            "prompts/live-prompt.md": "Say hi.\n",
            "prompts/off-prompt.md.off": "Say hi.\n",
            "prompts/bak-prompt.md.bak.20261129-101500": "Say hi.\n",
        },
    )


def test_which_extension_forms_pi_loads(pi: Run, agent: Path) -> None:
    done = pi(agent, "--help")
    text = done.stdout + done.stderr
    loaded = {"probe-live", "probe-dir-live", "probe-dir-renamed-off", "probe-dir-beside-bak"}
    ignored = {"probe-off-file", "probe-bak-file", "probe-dir-parked", "probe-dir-bak"}
    for flag in loaded:
        assert f"--{flag}" in text, f"pi no longer loads {flag}: revisit DESIGN.md's facts"
    for flag in ignored:
        assert f"--{flag}" not in text, f"pi now loads {flag}: revisit the disable/backup rules"


def test_which_skill_and_prompt_forms_pi_loads(
    pi_bin: Path, e2e_env: dict[str, str], agent: Path, tmp_path: Path
) -> None:
    request = json.dumps({"id": "cmds", "type": "get_commands"}) + "\n"
    done = subprocess.run(
        [str(pi_bin), "--mode", "rpc", "--offline", "--no-session"],
        input=request,
        env={**e2e_env, "PI_CODING_AGENT_DIR": str(agent)},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    records = [json.loads(x) for x in done.stdout.splitlines() if x.startswith("{")]
    (response,) = [r for r in records if r.get("id") == "cmds"]
    names = {c["name"] for c in response["data"]["commands"]}
    assert {"skill:live-skill", "skill:renamed-skill", "live-prompt"} <= names, names
    for hidden in ("skill:parked-skill", "skill:backed-skill", "off-prompt", "bak-prompt"):
        assert not any(n.startswith(hidden) for n in names), (hidden, names)
