"""`/ext` inside the real pi, in a pseudo-terminal: stage two switches, apply, and the session
reloads without them; a session started with a guard's flag keeps that item on.

A probe extension (a real file in the agent dir, not the set's) logs every `session_start` of
the session, so a reload is seen from inside pi; session-timer draws a clock in the footer
while it is loaded, so its going is seen on the screen.
"""

from __future__ import annotations

import contextlib
import json
import re
import shlex
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest

from tests.e2e.conftest import REPO, Run

pytestmark = pytest.mark.e2e

DOWN = "\x1b[B"
OVERLAY = "Space stages · Enter applies · Esc cancels"
TITLE = "ext: switch the set's items"
EDITOR = r"─{100}\s+─{100}"  # pi's editor, empty, 120 columns wide: drawn where /ext was
_ANSI = re.compile(
    r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b_[^\x1b]*\x1b\\"
)
PROBE = """
import { appendFileSync } from "node:fs";
export default function (pi: any) {
\tpi.on("session_start", (event: any) => {
\t\tconst line = JSON.stringify({ pid: process.pid, reason: event.reason });
\t\tappendFileSync(process.env.PROBE_LOG as string, line + "\\n");
\t});
}
"""


class Screen:
    """pi in a pty; what it drew, as text (escape sequences dropped), read as it comes."""

    def __init__(self, child: pexpect.spawn) -> None:
        self.child = child
        self.raw = ""
        self.text = ""

    def _read(self) -> None:
        with contextlib.suppress(pexpect.TIMEOUT):
            self.raw += self.child.read_nonblocking(65536, timeout=0.3)
            self.text = _ANSI.sub("", self.raw)  # whole: a sequence may span two reads

    def wait(self, pattern: str, timeout: float = 60, since: int | None = None) -> str:
        """Read until `pattern` shows in what was drawn since the call (or since `since`, a
        length of .text); that text (fails with all of it)."""
        start = len(self.text) if since is None else since
        deadline = time.monotonic() + timeout
        while not re.search(pattern, self.text[start:]):
            if time.monotonic() > deadline:
                raise AssertionError(f"{pattern!r} never showed; pi drew:\n{self.text[-4000:]}")
            self._read()
        return self.text[start:]

    def drain(self, seconds: float) -> str:
        """Whatever pi draws in the next `seconds`."""
        start = len(self.text)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self._read()
        return self.text[start:]

    def keys(self, *keys: str) -> None:
        for k in keys:
            self.child.send(k)
            time.sleep(0.15)


@pytest.fixture
def agent(ext: Run, tmp_path: Path) -> Path:
    """An agent dir with the bundled set installed by ext, notify switched off, and the probe."""
    agent = tmp_path / "agent"
    agent.mkdir()
    ext("--set", str(REPO), "--agent-dir", str(agent), "install", "--yes", check=True)
    ext("--set", str(REPO), "--agent-dir", str(agent), "disable", "notify", "--yes", check=True)
    (agent / "extensions" / "zz-probe.ts").write_text(PROBE)
    return agent


def states(ext: Run, agent: Path) -> dict[str, str]:
    proc = ext("--set", str(REPO), "--agent-dir", str(agent), "--json", "list", check=True)
    return {i["name"]: i["state"] for i in json.loads(proc.stdout)["items"]}


def position(ext: Run, agent: Path, name: str) -> int:
    """Where `name` is in the overlay: ext's list order."""
    return list(states(ext, agent)).index(name)


class Pi:
    """Starts pi on the agent dir in a pty; the probe's log of its session starts."""

    def __init__(self, pi_bin: Path, agent: Path, env: dict[str, str], cwd: Path) -> None:
        self.pi_bin, self.cwd = pi_bin, cwd
        self.log = cwd / "probe.log"
        self.env = {**env, "PI_CODING_AGENT_DIR": str(agent), "PROBE_LOG": str(self.log)}
        self.env["TERM"] = "xterm-256color"
        self.children: list[pexpect.spawn] = []

    def start(self, *args: str) -> Screen:
        """A session, once pi has drawn session-timer's clock (the extensions are loaded)."""
        child = pexpect.spawn(
            str(self.pi_bin),
            list(args),
            cwd=str(self.cwd),
            env=self.env,
            encoding="utf-8",
            dimensions=(40, 120),
            timeout=60,
        )
        self.children.append(child)
        screen = Screen(child)
        screen.wait("⏱")
        return screen

    def starts(self) -> list[dict[str, object]]:
        """Each session_start the probe saw: its pid and reason."""
        return [json.loads(line) for line in self.log.read_text().splitlines()]


@pytest.fixture
def pi(pi_bin: Path, agent: Path, e2e_env: dict[str, str], tmp_path: Path) -> Iterator[Pi]:
    host = Pi(pi_bin, agent, e2e_env, tmp_path)
    yield host
    for child in host.children:
        child.terminate(force=True)


def open_ext(screen: Screen) -> str:
    """Type /ext and Enter; what the overlay drew."""
    screen.keys("/ext")
    screen.wait("Switch the set's extensions")  # pi's command completion, drawn
    entered = len(screen.text)
    screen.keys("\r")
    try:  # its title is drawn at once; its list once ext has answered, which load can slow
        screen.wait(TITLE, timeout=5, since=entered)
    except AssertionError:
        # Enter on an open completion list only completes the command: the next one runs it.
        # (While /ext asks ext, it ignores Enter; once it lists, Enter would apply.)
        screen.keys("\r")
    return screen.wait(OVERLAY, since=entered)


def test_ext_in_pi_switches_two_items_in_one_plan_and_the_session_reloads(
    pi: Pi, ext: Run, agent: Path
) -> None:
    screen = pi.start()
    open_ext(screen)
    at_notify = position(ext, agent, "notify")
    at_timer = position(ext, agent, "session-timer")
    screen.keys(*[DOWN] * at_notify, " ", *[DOWN] * (at_timer - at_notify), " ")
    screen.wait(r"session-timer\s+○ off \(on Enter\)")
    screen.keys("\r")
    shown = screen.wait("Enter closes and reloads pi")
    assert re.search(r"\+ enabled  extensions/notify\.ts(?!\.off)", shown), shown  # the new path
    assert "- disabled extensions/session-timer.ts" in shown

    # The agent dir and ext agree, before pi reloads.
    assert (agent / "extensions" / "notify.ts").is_symlink()
    assert (agent / "extensions" / "session-timer.ts.off").is_symlink()
    assert not (agent / "extensions" / "session-timer.ts").exists()
    assert states(ext, agent)["notify"] == "enabled"
    assert states(ext, agent)["session-timer"] == "disabled"

    screen.keys("\r")
    screen.wait("Reloaded")
    after = screen.drain(3)
    assert "⏱" not in after, after  # session-timer is gone from this session
    sessions = pi.starts()
    assert [s["reason"] for s in sessions] == ["startup", "reload"]
    assert sessions[0]["pid"] == sessions[1]["pid"]  # the same session, reloaded

    # /ext again: it shows what ext now says, and Escape drops what was staged.
    assert re.search(r"session-timer\s+○ off", open_ext(screen))
    screen.keys(*[DOWN] * at_timer, " ")
    screen.wait(r"session-timer\s+● on \(on Enter\)")
    screen.keys("\x1b")
    # The editor back (its two borders): a "/" sent before pi had read the Escape alone would
    # come with it, as Alt+/.
    screen.wait(EDITOR)
    screen.keys("/ext")
    screen.wait("Switch the set's extensions")  # the overlay is closed: pi's editor has the keys
    screen.drain(2)  # time enough for a plan and a reload, were there one
    assert states(ext, agent)["session-timer"] == "disabled"
    assert [s["reason"] for s in pi.starts()] == ["startup", "reload"]


def test_a_guarded_item_is_refused_in_the_session_that_has_its_flag_and_the_rest_applies(
    pi: Pi, ext: Run, agent: Path
) -> None:
    screen = pi.start("--confirm-destructive-block")
    opened = len(screen.text)  # the first row's hint is drawn with the list
    open_ext(screen)
    guarded = position(ext, agent, "confirm-destructive")
    at_timer = position(ext, agent, "session-timer")
    screen.keys(*[DOWN] * guarded)
    hint = "guarded here: this session was started with --confirm-destructive-block"
    screen.wait(hint, since=opened)
    screen.keys(" ")
    screen.wait(r"confirm-destructive\s+● on \(refused here\)")  # it stays on
    screen.keys(*[DOWN] * (at_timer - guarded), " ", "\r")
    shown = screen.wait("Enter closes and reloads pi")
    assert re.search(r"refused: confirm-destructive stays on: this session was\s+started", shown)
    assert "- disabled extensions/session-timer.ts" in shown

    assert (agent / "extensions" / "confirm-destructive.ts").is_symlink()
    assert (agent / "extensions" / "session-timer.ts.off").is_symlink()
    listed = states(ext, agent)
    assert (listed["confirm-destructive"], listed["session-timer"]) == ("enabled", "disabled")
    screen.keys("\r")
    screen.wait("Reloaded")
    assert [s["reason"] for s in pi.starts()] == ["startup", "reload"]


def test_an_item_another_session_needs_is_refused_by_ext_and_the_rest_applies(
    pi: Pi, ext: Run, agent: Path
) -> None:
    """The guard only ext can see (another session has the flag): the item stays on with
    ext's reason, the other staged change is applied as a plan of its own."""
    other = pi.start("--confirm-destructive-block")
    record = agent / ".extset" / "sessions" / f"{other.child.pid}.json"
    deadline = time.monotonic() + 30
    while not record.exists():  # ext-sessions writes it at session_start
        assert time.monotonic() < deadline, f"{record} never appeared"
        other.drain(0.2)
    screen = pi.start()
    opened = len(screen.text)  # the first row's hint is drawn with the list
    open_ext(screen)
    guarded = position(ext, agent, "confirm-destructive")
    at_timer = position(ext, agent, "session-timer")
    screen.keys(*[DOWN] * guarded)
    hint = "kept on while a session started with --confirm-destructive-block runs"
    screen.wait(hint, since=opened)
    assert "guarded here" not in screen.text  # this session was started without the flag
    screen.keys(" ", *[DOWN] * (at_timer - guarded), " ", "\r")
    shown = screen.wait("Enter closes and reloads pi")
    flat = " ".join(shown.split())
    assert "refused: confirm-destructive stays on: a live session (pid" in flat
    assert f"{other.child.pid}:" in flat and "was started with --confirm-destructive-block" in flat
    # pasteable from any folder: this dir and this set named (helper-32)
    assert "--agent-dir" in flat and "disable confirm-destructive --force" in flat
    assert "nothing was written" not in flat
    assert "- disabled extensions/session-timer.ts" in shown

    assert (agent / "extensions" / "confirm-destructive.ts").is_symlink()
    assert (agent / "extensions" / "session-timer.ts.off").is_symlink()
    listed = states(ext, agent)
    assert (listed["confirm-destructive"], listed["session-timer"]) == ("enabled", "disabled")
    screen.keys("\r")
    screen.wait("Reloaded")
    mine = [s["reason"] for s in pi.starts() if s["pid"] == screen.child.pid]
    assert mine == ["startup", "reload"]


class Tmux:
    """pi in a tmux server of the test's own (its socket under tmp_path): the screen as rows."""

    def __init__(self, tmux: str, socket: Path) -> None:
        self.base = [tmux, "-S", str(socket), "-f", "/dev/null"]

    def __call__(self, *args: str, env: dict[str, str] | None = None) -> str:
        done = subprocess.run(
            [*self.base, *args], env=env, capture_output=True, text=True, check=True, timeout=30
        )
        return done.stdout

    def rows(self) -> list[str]:
        return self("capture-pane", "-p", "-t", "pi").splitlines()

    def wait(self, pattern: str, timeout: float = 60) -> list[str]:
        deadline = time.monotonic() + timeout
        while True:
            rows = self.rows()
            if any(re.search(pattern, row) for row in rows):
                return rows
            if time.monotonic() > deadline:
                raise AssertionError(f"{pattern!r} never showed:\n" + "\n".join(rows))
            time.sleep(0.2)  # a poll of tmux's screen, not a wait for time to pass


def test_ext_is_drawn_above_pi_s_footer_never_over_it(
    pi_bin: Path, agent: Path, e2e_env: dict[str, str], tmp_path: Path
) -> None:
    """pi 0.73's footer stands mid-screen while a session is short: a centred overlay covered
    it. On both pis /ext takes the editor's place, with the footer (the ⏱ row) below it."""
    tmux = shutil.which("tmux")
    if tmux is None:
        pytest.skip("tmux is not installed")
    screen = Tmux(tmux, tmp_path / "tmux.sock")
    env = {**e2e_env, "PI_CODING_AGENT_DIR": str(agent), "TERM": "xterm-256color"}
    env["PROBE_LOG"] = str(tmp_path / "probe.log")
    command = shlex.join([str(pi_bin)])
    screen(
        "new-session",
        "-d",
        "-s",
        "pi",
        "-x",
        "120",
        "-y",
        "40",
        "-c",
        str(tmp_path),
        command,
        env=env,
    )
    try:
        screen.wait("⏱")
        screen("send-keys", "-t", "pi", "/ext")
        screen.wait("Switch the set's extensions")
        screen("send-keys", "-t", "pi", "Enter")
        try:  # as open_ext: the title at once, the list once ext answered
            screen.wait(TITLE, timeout=5)
        except AssertionError:  # Enter on the completion list only completed the command
            screen("send-keys", "-t", "pi", "Enter")
        rows = screen.wait(OVERLAY)
    finally:
        subprocess.run([*screen.base, "kill-server"], check=False, timeout=30)
    title = next(i for i, row in enumerate(rows) if TITLE in row)
    hint = next(i for i, row in enumerate(rows) if OVERLAY in row)
    footer = [i for i, row in enumerate(rows) if "⏱" in row]
    assert footer and all(i > hint for i in footer), "\n".join(rows)
    assert "⏱" not in rows[title]
