"""Both streams captured in one (`2>&1 | tee`, a CI log): the lines come in the order ext
wrote them, each note after the plan it follows, though stdout to a pipe is buffered."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.helpers import build_tree

EXT = Path(sys.executable).with_name("ext")


def test_notes_follow_the_plan_in_one_captured_stream(tmp_path: Path) -> None:
    root = build_tree(
        tmp_path / "set",
        {
            "extset.toml": '[set]\nname = "probe"\n',
            "extensions/a.ts": "export default function () {}\n",
            "extensions/b.ts": "export default function () {}\n",
        },
    )
    at = [str(EXT), "--set", str(root), "--agent-dir", str(tmp_path / "agent")]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    env.update(NO_COLOR="1", EXT_NO_UPDATE_CHECK="1")
    subprocess.run([*at, "install", "--create", "--skip", "b", "--yes"], env=env, check=True)

    done = subprocess.run(
        [*at, "enable", "b", "--yes"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        check=True,
    )

    lines = done.stdout.splitlines()
    assert lines[0].startswith("agent dir ")
    assert lines.index("done: 1 linked") < lines.index("now enabled: b"), done.stdout


def test_the_plan_comes_before_its_question_when_stdout_is_a_pipe(tmp_path: Path) -> None:
    """`ext install 2>&1 | cat` at a terminal (a log kept with tee): the plan is in the pipe
    before `Apply these changes?`, so no one answers without seeing it."""
    import shlex

    import pexpect

    root = build_tree(
        tmp_path / "set",
        {"extset.toml": '[set]\nname = "probe"\n', "extensions/a.ts": "// a\n"},
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    env.update(NO_COLOR="1", EXT_NO_UPDATE_CHECK="1")
    at = [str(EXT), "--set", str(root), "--agent-dir", str(tmp_path / "agent")]
    command = shlex.join([*at, "install", "--create"]) + " 2>&1 | cat"
    child = pexpect.spawn("sh", ["-c", command], env=env, encoding="utf-8")
    child.expect(r"Apply these changes\? \[y/N\] ", timeout=60)
    assert "+ link       extensions/a.ts" in child.before, child.before
    child.sendline("n")
    child.expect(pexpect.EOF, timeout=60)
