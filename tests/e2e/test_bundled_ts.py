"""The bundled set's TypeScript: its logic under node's test runner, and the set in the real pi.

The node tests import the extensions through the jiti that the installed pi
ships, so they see the code as pi's loader does. The pi tests link the set by
hand (no `ext`), so a failure here is the extensions' own. The last two drive
the real pi against a scripted model served on loopback, so the extensions'
handlers run inside pi: a blocked command, a confirmed one, a restore on /fork.
"""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any, NoReturn

import pytest

from tests.e2e.conftest import EXT, REPO
from tests.helpers import serve, stop

pytestmark = pytest.mark.e2e

TS_TESTS = REPO / "tests" / "ts"
DOC = REPO / "README.md"  # a section per bundled extension
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
    """Run pi once against `agent`, with `stdin` as its input (none: no input at all)."""
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
        # The installed ext: the project-hooks tests record consent through it.
        env={**e2e_env, "EXTSET_PI": str(pi_bin), "EXTSET_EXT": str(EXT), "TMPDIR": str(tmp_path)},
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


# ---- the real pi against a scripted model -----------------------------------

Reply = dict[str, str]  # {"bash": command} for a tool call, {"text": words} to finish
GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.invalid",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.invalid",
}


class FakeModel:
    """An OpenAI-compatible chat endpoint on loopback that streams scripted replies."""

    def __init__(self, replies: list[Reply]) -> None:
        self.replies = list(replies)
        self.requests: list[dict[str, Any]] = []
        model = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                model.requests.append(body)
                reply = model.replies.pop(0) if model.replies else {"text": "done"}
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                for chunk in _chunks(reply, len(model.requests)):
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                self.wfile.write(b"data: [DONE]\n\n")

        self.server = serve(Handler)

    def configure(self, agent: Path) -> tuple[str, ...]:
        """Write the provider into the agent dir's models.json; the pi flags that select it."""
        provider = {
            "baseUrl": f"http://127.0.0.1:{self.server.server_port}/v1",
            "api": "openai-completions",
            "apiKey": "test",
            "compat": {"supportsDeveloperRole": False, "supportsReasoningEffort": False},
            "models": [{"id": "fake-model"}],
        }
        (agent / "models.json").write_text(json.dumps({"providers": {"fake": provider}}))
        return ("--provider", "fake", "--model", "fake-model", "--offline")

    def tool_results(self) -> list[str]:
        """The text of every tool result pi sent back, in order."""
        return [
            m["content"] if isinstance(m["content"], str) else json.dumps(m["content"])
            for body in self.requests
            for m in body["messages"]
            if m["role"] == "tool"
        ]

    def close(self) -> None:
        stop(self.server)


def _chunks(reply: Reply, n: int) -> Iterator[dict[str, Any]]:
    base = {"id": f"r{n}", "object": "chat.completion.chunk", "created": 0, "model": "fake-model"}
    if "bash" in reply:
        call = {
            "index": 0,
            "id": f"call_{n}",
            "type": "function",
            "function": {"name": "bash", "arguments": json.dumps({"command": reply["bash"]})},
        }
        deltas = [({"role": "assistant", "tool_calls": [call]}, None), ({}, "tool_calls")]
    else:
        deltas = [({"role": "assistant", "content": reply["text"]}, None), ({}, "stop")]
    for delta, finish in deltas:
        yield {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


class Rpc:
    """pi in RPC mode: JSON lines in, every record out kept in order."""

    def __init__(self, argv: list[str], env: dict[str, str], cwd: Path, log: Path) -> None:
        self.log = log.open("w")
        self.proc = subprocess.Popen(
            argv,
            cwd=cwd,
            env=env,
            text=True,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
        )
        self.records: list[dict[str, Any]] = []
        self._inbox: queue.Queue[dict[str, Any] | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.startswith("{"):
                self._inbox.put(json.loads(line))
        self._inbox.put(None)

    def send(self, record: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(record) + "\n")
        self.proc.stdin.flush()

    def wait(self, match: Callable[[dict[str, Any]], bool], timeout: float = 90) -> dict[str, Any]:
        """The next record that matches; fails with everything seen when none comes."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                record = self._inbox.get(timeout=left)
            except queue.Empty:
                break
            if record is None:
                break
            self.records.append(record)
            if match(record):
                return record
        raise AssertionError(f"no matching record; pi said: {self.records[-20:]}")

    def ui_request(self, method: str) -> dict[str, Any]:
        """The next dialog pi asks the client to show."""
        return self.wait(
            lambda r: r.get("type") == "extension_ui_request" and r["method"] == method
        )

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


def test_with_no_one_to_ask_the_real_pi_blocks_a_destructive_command(
    pi_bin: Path, e2e_env: dict[str, str], tmp_path: Path
) -> None:
    work = tmp_path / "work"
    (work / "victim").mkdir(parents=True)
    (work / "victim" / "keep.txt").write_text("keep")
    agent = linked_agent_dir(tmp_path, "extensions")
    model = FakeModel([{"bash": "rm -rf victim"}, {"text": "I did not delete it."}])
    try:
        args = model.configure(agent)
        proc = run(pi_bin, agent, e2e_env, work, "-p", "tidy up", *args, "--no-session")
    finally:
        model.close()
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (work / "victim" / "keep.txt").exists()
    (result,) = model.tool_results()
    assert "confirm-destructive blocked a recursive delete" in result


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git repository with one commit and an uncommitted change of the user's."""
    work = tmp_path / "work"
    work.mkdir()
    env = {**os.environ, **GIT_IDENTITY}
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "start"]):
        if args[0] == "add":
            (work / "a.txt").write_text("v0\n")
        subprocess.run(["git", *args], cwd=work, env=env, check=True)
    (work / "a.txt").write_text("v1 (yours)\n")
    (work / "build").mkdir()
    return work


def test_the_real_pi_asks_then_restores_the_code_on_fork(
    pi_bin: Path, e2e_env: dict[str, str], tmp_path: Path, repo: Path
) -> None:
    agent = linked_agent_dir(tmp_path, "extensions")
    model = FakeModel([{"bash": "rm -rf build && echo 'v2 (agent)' > a.txt"}, {"text": "done"}])
    argv = [str(pi_bin), "--mode", "rpc", *model.configure(agent)]
    env = {**e2e_env, **GIT_IDENTITY, "PI_CODING_AGENT_DIR": str(agent)}
    rpc = Rpc(argv, env, repo, tmp_path / "pi.stderr")
    try:
        rpc.send({"id": "go", "type": "prompt", "message": "rebuild it"})
        ask = rpc.ui_request("confirm")
        assert "recursive delete" in ask["title"]
        assert ask["message"].startswith("rm -rf build")
        rpc.send({"type": "extension_ui_response", "id": ask["id"], "confirmed": True})
        rpc.wait(lambda r: r.get("type") == "agent_end")
        assert not (repo / "build").exists()
        assert (repo / "a.txt").read_text() == "v2 (agent)\n"

        rpc.send({"id": "msgs", "type": "get_fork_messages"})
        (message,) = rpc.wait(lambda r: r.get("id") == "msgs")["data"]["messages"]
        rpc.send({"id": "fork", "type": "fork", "entryId": message["entryId"]})
        offer = rpc.ui_request("select")
        assert offer["title"].startswith("Restore the code")
        rpc.send({"type": "extension_ui_response", "id": offer["id"], "value": offer["options"][0]})
        forked = rpc.wait(lambda r: r.get("id") == "fork")
    finally:
        rpc.close()
        model.close()
    assert forked["success"] and forked["data"]["cancelled"] is False, forked
    assert (repo / "a.txt").read_text() == "v1 (yours)\n"
    stash = subprocess.run(
        ["git", "stash", "list"], cwd=repo, capture_output=True, text=True, check=True
    ).stdout
    assert "pi git-checkpoint: before restoring" in stash
    assert not [r for r in rpc.records if r.get("type") == "extension_error"], rpc.records
