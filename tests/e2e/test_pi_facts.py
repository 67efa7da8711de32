"""The facts about pi that the link engine's disable and backup rules rely on, pinned on pi."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from installer.host.lines import OLDEST
from tests.e2e.conftest import Run
from tests.helpers import build_tree
from tests.pis import RealPi

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


TILDES = ["~", "~/", "~/agent", "~//agent", "~/a/../b", "~alice", "~alice/agent", "a/~/b", "./~"]


def test_a_tilde_in_the_agent_dir_is_read_as_each_pi_reads_it(
    real_pi: Any, e2e_env: dict[str, str], tmp_path: Path
) -> None:
    """installer.ground.home.expand_home, held to each pi's own expandTildePath (config.js:
    pi 0.73 joins the home and the rest as text, pi 1.x by its normalizePath), paths the
    kernel reads alike (helper-52: the test compared expand_home with its own formula)."""
    import os
    import shutil

    from installer.ground.home import expand_home

    home = str(tmp_path / "home me")
    config = json.dumps(str(real_pi.package_dir / "dist/config.js"))
    script = (
        f"import {{ expandTildePath }} from {config};"
        "process.stdout.write(JSON.stringify(JSON.parse(process.argv[1]).map(expandTildePath)));"
    )
    node = shutil.which("node", path=e2e_env["PATH"])
    assert node is not None
    done = subprocess.run(
        [node, "--input-type=module", "-e", script, json.dumps(TILDES)],
        env={**e2e_env, "HOME": home}, capture_output=True, text=True, check=True, timeout=60,
    )  # fmt: skip
    for text, theirs in zip(TILDES, json.loads(done.stdout), strict=True):
        ours = str(expand_home(text, home))
        # `//` is one `/` to the kernel; `..` ext leaves to the kernel, as pi 0.73 does (pi 1.x
        # folds it by the text: the two differ only past a folder that is a link or missing)
        assert os.path.normpath(ours) == os.path.normpath(theirs), (text, ours, theirs)


def test_a_string_of_folder_entries_is_read_a_character_at_a_time_by_pi_0_73(
    pi: Run, real_pi: RealPi, ext: Run, tmp_path: Path
) -> None:
    """helper-92: `"pi": {"extensions": "ab"}` in a folder extension's package.json: pi 0.73
    loads the files `a` and `b` (it walks the string), pi 1.x its index.ts; ext judged the
    index.ts alone, so a FIFO `a` went by unjudged and hung pi 0.73. ext refuses such a
    folder on either pi, naming what 0.73 would load and the list to write."""
    folder = {
        "package.json": json.dumps({"name": "foo", "pi": {"extensions": "ab"}}),
        "index.ts": _ext("probe-index"),
        "a": _ext("probe-a").replace("(pi: any)", "(pi)"),  # no suffix: read as JavaScript
        "b": _ext("probe-b").replace("(pi: any)", "(pi)"),
    }
    agent = build_tree(tmp_path / "agent", {f"extensions/foo/{k}": v for k, v in folder.items()})
    done = pi(agent, "--help")
    text = done.stdout + done.stderr
    old = real_pi.line is OLDEST
    assert ("probe-a" in text, "probe-b" in text, "probe-index" in text) == (old, old, not old)
    files = {f"extensions/foo/{k}": v for k, v in folder.items()}
    the_set = build_tree(tmp_path / "set", {"extset.toml": '[set]\nname = "s"\n', **files})
    refused = ext("--set", str(the_set), "--agent-dir", str(tmp_path / "a2"), "install", "--create")
    assert refused.returncode == 2, refused.stderr
    assert (
        'pi.extensions is a string ("ab"), which pi 0.73 reads one character at a time, as the '
        "paths 'a', 'b'"
    ) in refused.stderr
    assert '/package.json: "extensions": ["ab"]' in refused.stderr
    assert not (tmp_path / "a2").exists()


def test_a_prompts_nested_frontmatter_costs_pi_memory_at_every_start(
    pi_bin: Path, e2e_env: dict[str, str], tmp_path: Path
) -> None:
    """helper-92: a prompt whose frontmatter nests `[` 15 million levels deep ran pi out of
    memory at every start. Pinned at a size a test can afford: 200,000 levels take pi's start
    over 150 MB beyond one level's (about 1 kB a level), the fact installer.sets.modes.NESTS
    bounds."""

    def peak(depth: int) -> int:
        agent = tmp_path / f"agent-{depth}"
        head = "---\ndescription: x\nk: " + "[" * depth + "]" * depth + "\n---\nSay hi.\n"
        build_tree(agent, {"prompts/deep.md": head})
        code = (  # pi's peak, as its parent sees it: a parent of its own for each start
            "import resource, subprocess, sys\n"
            "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
        )
        env = {**e2e_env, "PI_CODING_AGENT_DIR": str(agent)}
        done = subprocess.run(
            [sys.executable, "-c", code, str(pi_bin), "--help"],
            env=env, capture_output=True, text=True, timeout=120, check=True,
        )  # fmt: skip
        return int(done.stdout) // 1024  # MB

    assert peak(200_000) - peak(1) > 150
