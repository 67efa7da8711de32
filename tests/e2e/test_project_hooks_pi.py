"""The bundled project-hooks extension inside the real pi, against a scripted model.

The model is pi's own faux provider (`registerFauxProvider` from `@mariozechner/pi-ai`,
loaded by `faux_model.ts`), so each turn plays inside pi's process. It asks for a
`bash` call; the project's PreToolUse hook blocks it only when its exact config is
approved (by `ext consent approve`, or at pi's own prompt), never when it is
declined, unapproved or changed since. A Stop hook runs at the
end, a hook that outlives its timeout blocks (fails closed), and a child a hook
starts is killed with its process group, at the hook's exit or at its timeout.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pexpect
import pytest

from tests.e2e.conftest import EXT, REPO, Run
from tests.e2e.faux import FauxModel
from tests.e2e.test_bundled_ts import Rpc, run

pytestmark = pytest.mark.e2e

WROTE = "echo x > out.txt"


def settings(pre: dict[str, Any], *extra: dict[str, Any]) -> str:
    hooks: dict[str, Any] = {
        "PreToolUse": [{"matcher": "Bash", "hooks": [pre, *extra]}],
        "Stop": [
            {
                "hooks": [
                    {"type": "command", "command": 'echo stopped >> "$CLAUDE_PROJECT_DIR/stop.log"'}
                ]
            }
        ],
    }
    return json.dumps({"model": "any", "hooks": hooks}, indent=2)


GUARD = {
    "type": "command",
    "command": "cat > pre.json; sleep 300 >/dev/null 2>&1 & echo $! > child.pid; "
    'echo "the project forbids this" >&2; exit 2',
}
SKIPPED = {"type": "http", "url": "http://127.0.0.1:9/hook"}
SLOW = {
    "type": "command",
    "command": "sleep 300 >/dev/null 2>&1 & echo $! > slow.pid; wait",
    "timeout": 2,  # time for the shell to write the pid before its group is killed, under load
}


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (OSError, ProcessLookupError):
        return False
    return stat.rsplit(") ", 1)[1][0] != "Z"


def pi_in_a_terminal(
    pi_bin: Path, agent: Path, env: dict[str, str], proj: Path, timeout: float = 60, rows: int = 30
) -> pexpect.spawn:
    """pi's interactive screen in a `rows` x 100 terminal, offline, started in `proj`."""
    return pexpect.spawn(
        str(pi_bin),
        ["--offline", "--no-session"],
        cwd=str(proj),
        env={**env, "PI_CODING_AGENT_DIR": str(agent), "TERM": "xterm-256color"},
        encoding="utf-8",
        dimensions=(rows, 100),
        timeout=timeout,
    )


def hooks_agent_dir(root: Path) -> Path:
    """An agent dir with project-hooks alone linked in (each pi start compiles less)."""
    (root / "agent" / "extensions").mkdir(parents=True)
    (root / "agent" / "extensions" / "project-hooks").symlink_to(
        REPO / "extensions" / "project-hooks"
    )
    return root / "agent"


@pytest.fixture
def where(tmp_path: Path) -> tuple[Path, Path]:
    proj = tmp_path / "proj"
    (proj / ".claude").mkdir(parents=True)
    return hooks_agent_dir(tmp_path), proj


def print_run(
    pi_bin: Path, agent: Path, env: dict[str, str], proj: Path
) -> tuple[str, list[str], float]:
    """One `pi -p` turn: the model runs WROTE then stops; (stderr, tool results, seconds)."""
    model = FauxModel(agent.parent / "faux", [{"bash": WROTE}, {"text": "done"}])
    started = time.monotonic()
    proc = run(
        pi_bin, agent, {**env, **model.env}, proj, "-p", "write it", *model.args, "--no-session"
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stderr, model.tool_results(), time.monotonic() - started


def test_print_mode_runs_only_approved_hooks_and_they_block(
    pi_bin: Path, ext: Run, e2e_env: dict[str, str], where: tuple[Path, Path]
) -> None:
    agent, proj = where
    env = {**e2e_env, "EXTSET_EXT": str(EXT)}
    (proj / ".claude/settings.json").write_text(settings(GUARD, SKIPPED))
    approve = ("--agent-dir", str(agent), "consent", "approve", str(proj), "--yes")

    # Never approved: the hooks do not run, and pi says so once.
    stderr, _, _ = print_run(pi_bin, agent, env, proj)
    assert (proj / "out.txt").exists()
    assert not (proj / "pre.json").exists() and not (proj / "stop.log").exists()
    assert stderr.count("have never been approved") == 1, stderr
    assert f"ext --agent-dir {agent} consent approve {proj.resolve()}" in stderr
    (proj / "out.txt").unlink()

    # Approved: the guard blocks with its reason, its forked child dies with its group,
    # the http hook is skipped and said, and the Stop hook runs.
    ext(*approve, check=True)
    stderr, results, _ = print_run(pi_bin, agent, env, proj)
    assert not (proj / "out.txt").exists()
    assert any("the project forbids this" in r for r in results), results
    sent = json.loads((proj / "pre.json").read_text())
    assert sent["hook_event_name"] == "PreToolUse" and sent["tool_name"] == "Bash"
    assert sent["tool_input"]["command"] == WROTE and sent["cwd"] == str(proj)
    assert not alive(int((proj / "child.pid").read_text()))
    assert 'type "http"' in stderr
    assert (proj / "stop.log").read_text() == "stopped\n"

    # Changed since the approval: not run until approved again.
    (proj / ".claude/settings.json").write_text(settings(SLOW))
    stderr, _, _ = print_run(pi_bin, agent, env, proj)
    assert (proj / "out.txt").exists()
    assert "changed since they were approved" in stderr
    assert (proj / "stop.log").read_text() == "stopped\n"
    (proj / "out.txt").unlink()

    # Approved again: it runs again; a hook past its timeout blocks (fails closed).
    ext(*approve, check=True)
    _, results, seconds = print_run(pi_bin, agent, env, proj)
    assert not (proj / "out.txt").exists()
    assert any("timed out after 2 s" in r and "blocked" in r for r in results), results
    assert not alive(int((proj / "slow.pid").read_text()))  # its child went with its group
    assert seconds < 25
    assert (proj / "stop.log").read_text() == "stopped\nstopped\n"
    assert not (agent / "hooks").exists()


def test_asked_in_pi_no_lasts_the_session_and_yes_is_recorded(
    pi_bin: Path, ext: Run, e2e_env: dict[str, str], where: tuple[Path, Path], tmp_path: Path
) -> None:
    agent, proj = where
    declined = {"type": "command", "command": "touch hook-ran; exit 2"}
    (proj / ".claude/settings.json").write_text(settings(declined))
    model = FauxModel(tmp_path / "faux", [{"bash": WROTE}, {"text": "ok"}] * 3)
    argv = [str(pi_bin), "--mode", "rpc", *model.args, "--no-session"]
    env = {**e2e_env, **model.env, "PI_CODING_AGENT_DIR": str(agent), "EXTSET_EXT": str(EXT)}
    rpc = Rpc(argv, env, proj, tmp_path / "pi.stderr")
    try:
        rpc.send({"id": "1", "type": "prompt", "message": "write it"})
        ask = rpc.ui_request("confirm")
        assert "touch hook-ran; exit 2" in ask["message"]
        rpc.send({"type": "extension_ui_response", "id": ask["id"], "confirmed": False})
        rpc.wait(lambda r: r.get("type") == "agent_end")
        assert (proj / "out.txt").exists() and not (proj / "hook-ran").exists()
        (proj / "out.txt").unlink()

        rpc.send({"id": "2", "type": "prompt", "message": "again"})
        rpc.wait(lambda r: r.get("type") == "agent_end")  # no second question
        asked = [r for r in rpc.records if r.get("method") == "confirm"]
        assert len(asked) == 1
        assert (proj / "out.txt").exists() and not (proj / "hook-ran").exists()
        (proj / "out.txt").unlink()

        (proj / ".claude/settings.json").write_text(
            settings({"type": "command", "command": "echo blocked in rpc >&2; exit 2"})
        )
        rpc.send({"id": "3", "type": "prompt", "message": "and again"})
        ask = rpc.ui_request("confirm")
        assert "echo blocked in rpc >&2; exit 2" in ask["message"]
        rpc.send({"type": "extension_ui_response", "id": ask["id"], "confirmed": True})
        rpc.wait(lambda r: r.get("type") == "agent_end")
    finally:
        rpc.close()
    assert not (proj / "out.txt").exists()
    assert any("blocked in rpc" in r for r in model.tool_results())
    check = ext("--agent-dir", str(agent), "consent", "check", str(proj))
    assert check.returncode == 0, check.stdout + check.stderr
    assert not (agent / "hooks").exists()
    history = ext("--agent-dir", str(agent), "--json", "history", check=True).stdout
    assert json.loads(history)["history"][-1]["command"] == "consent approve"


def test_after_an_approval_pi_starts_without_the_hooks_folder_warning_and_runs_the_hooks(
    pi_bin: Path, ext: Run, e2e_env: dict[str, str], tmp_path: Path
) -> None:
    agent = hooks_agent_dir(tmp_path)
    proj = tmp_path / "proj"
    (proj / ".claude").mkdir(parents=True)
    started = {"type": "command", "command": "echo started > started.txt"}
    hooks = {"SessionStart": [{"hooks": [started]}]}
    (proj / ".claude/settings.json").write_text(json.dumps({"hooks": hooks}))

    def start() -> tuple[int, str]:
        child = pi_in_a_terminal(pi_bin, agent, e2e_env, proj)
        try:
            seen = child.expect(["Press any key", "Run this project's hooks", "─"])
            if seen == 2:  # the editor's border: started; the SessionStart hook has its turn
                deadline = time.monotonic() + 20
                while not (proj / "started.txt").exists() and time.monotonic() < deadline:
                    child.expect([pexpect.TIMEOUT, pexpect.EOF], timeout=0.1)
            return seen, child.before
        finally:
            child.terminate(force=True)

    (agent / "hooks").mkdir()  # what ext used to leave: pi stops for it
    seen, before = start()
    assert seen == 0 and "hooks/ directory found" in before
    (agent / "hooks").rmdir()

    ext("--agent-dir", str(agent), "consent", "approve", str(proj), "--yes", check=True)
    assert not (agent / "hooks").exists()
    seen, before = start()
    assert seen == 2, before  # neither the warning nor a question
    assert "hooks/ directory found" not in before
    assert (proj / "started.txt").read_text() == "started\n"


def test_a_stop_hook_runs_in_print_mode_in_a_git_project_beside_the_whole_bundled_set(
    pi_bin: Path, ext: Run, e2e_env: dict[str, str], tmp_path: Path
) -> None:
    """helper-54: on pi 0.73, in a git repository, git-checkpoint's snapshot at turn start
    held up pi's queue of extension events; print mode ended the session before agent_end
    came, so every extension's agent_end failed ("ctx is stale") and no Stop hook ran. With
    no UI there is no /fork to offer a checkpoint on: no snapshot is taken."""
    import subprocess

    agent = tmp_path / "agent"
    ext("--agent-dir", str(agent), "install", "--yes", "--create", cwd=REPO, check=True)
    proj = tmp_path / "proj"
    (proj / ".claude").mkdir(parents=True)
    stop = [{"hooks": [{"type": "command", "command": "touch ran-stop"}]}]
    (proj / ".claude/settings.json").write_text(json.dumps({"hooks": {"Stop": stop}}))
    subprocess.run(["git", "init", "-q", str(proj)], check=True, env=e2e_env)
    ext("--agent-dir", str(agent), "consent", "approve", str(proj), "--yes", check=True)

    stderr, _, _ = print_run(pi_bin, agent, {**e2e_env, "EXTSET_EXT": str(EXT)}, proj)

    assert (proj / "out.txt").exists()
    assert "stale" not in stderr, stderr
    assert (proj / "ran-stop").exists(), stderr
