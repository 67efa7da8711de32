"""Console and JSON output, colour, the plan's lines and the y/N prompt: what installer.render
prints results with."""

from __future__ import annotations

import contextlib
import os
import re
import sys
from pathlib import Path

from installer.ground import screen
from installer.ground.errors import Declined, ExtError, GuardRefused, NoTerminal
from installer.ground.streams import STDOUT_GONE, let_go, reader_gone

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: `ext env` and `ext list` never build a plan
    from collections.abc import Callable
    from typing import Any, TextIO

    from installer.engine.plan import Action, Plan

SYMBOL = {
    "link": "+",
    "relink": "~",
    "backup": "!",
    "prune": "-",
    "unlink": "-",
    "enable": "+",
    "disable": "-",
    "seed": "+",
    "register": "+",
    "unregister": "-",
    "filter": "~",
    "approve": "?",
    "migrate": "~",
    "restore": "<",
    "rmdir": "-",
    "mkdir": "+",
    "retire": "-",
    "claim": "~",
    "create": "+",
    "copy": "+",
}
_COLOR = {"+": "32", "-": "31", "~": "33", "!": "35", "?": "36"}


# Our own colours survive escaping (only these, only with colour on); any other escape
# sequence in a line came from a set, a hook file or the file system and is shown, not run.
_SGR = re.compile(r"(\x1b\[(?:0|3[1-6])m)")


def escape(text: str, colors: bool = False) -> str:
    """text with every control, bidi and zero-width character shown as an escape.

    The one function the renderer applies to each line it writes, by the one rule of
    installer.ground.screen (which pi's side shares). With colours on, our own SGR
    sequences are kept and everything else is escaped.
    """
    if screen.plain(text):
        return text
    if colors:
        return "".join(p if _SGR.fullmatch(p) else screen.escape(p) for p in _SGR.split(text))
    return screen.escape(text)


def _json_safe(text: str) -> str:
    """JSON text with C1, bidi and invisible characters as \\u escapes: the same data once
    parsed, and nothing a terminal would act on when the document is read on screen.

    json.dumps already escapes C0; anything else unprintable can only sit inside a string.
    """
    if screen.plain(text.replace("\n", "")):
        return text
    return "".join(c if screen.shown(c) or c == "\n" else _json_escape(c) for c in text)


def _json_escape(c: str) -> str:
    code = ord(c)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def _same(text: str) -> str:
    return text


def shorten(text: str, home: str | None = None) -> str:
    """Show the home folder as `~`: people paste this output into issues."""
    home = home if home is not None else os.environ.get("HOME", "")
    if home and home != "/":
        return text.replace(home.rstrip("/") + "/", "~/")
    return text


class Output:
    """Where and how a command's output goes."""

    def __init__(
        self,
        json: bool = False,
        quiet: bool = False,
        color: bool = False,
        stdout: TextIO | None = None,
        stderr: TextIO | None = None,
    ) -> None:
        self.json, self.quiet, self.color = json, quiet, color
        self.stdout: TextIO = sys.stdout if stdout is None else stdout
        self._fd1 = stdout is None  # the process's stdout (a replay's tee of it, say)
        self.stderr: TextIO = sys.stderr if stderr is None else stderr
        self._fd2 = stderr is None
        self.plan_shown = False
        # Every plan first, then one question: `ext install` over the hosts a set serves.
        self.collecting = False
        self.stdout_lost = False
        self.writes = True  # a command that may write: a reader gone is said (see finish)
        self._home = os.environ.get("HOME", "")  # read once: a plan of 1,000 lines shortens each
        # `ext install` in a hint, as the person can run it (installer.cli.run.ext_as_run).
        self.typed: Callable[[str], str] = _same
        # A run over the agents a set serves: each agent's heading goes with its results.
        self.headed = False

    def paint(self, text: str, code: str) -> str:
        return f"\033[{code}m{text}\033[0m" if self.color else text

    def runnable(self, line: str) -> str:
        """A line ext wrote to tell the person what to run (an error, its fix, a warning, a
        note), with each `ext COMMAND` in it as they can run it. Never a line of data: a plan's
        paths, a list's rows, a hook's command shown for consent stay as they are."""
        return self.typed(line) if "ext " in line else line

    def out(self, line: str = "") -> None:
        self.write_out(escape(shorten(line, self._home), self.color) + "\n")

    def write_out(self, text: str) -> None:
        """Write to stdout; a reader that is gone (`ext install --yes | head -1`) stops nothing.

        Whether a closed pipe is noticed before or after the apply depends on buffering, so a
        failed write must not decide the outcome: the command runs to the end either way, and
        `finish` says so on stderr.
        """
        try:
            self.stdout.write(text)
        except (OSError, ValueError) as err:
            if not reader_gone(err):
                raise
            self._stdout_gone()

    def _stdout_gone(self) -> None:
        self.stdout_lost = True
        if self._fd1:  # the interpreter's own last flush of what it holds must not fail either
            with contextlib.suppress(OSError):
                let_go(1)
        self.stdout = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the Output

    def flush_out(self) -> None:
        """Flush stdout (a reader that is gone stops nothing, as in `write_out`)."""
        try:
            self.stdout.flush()
        except (OSError, ValueError) as err:
            if not reader_gone(err):
                raise
            self._stdout_gone()

    def write_err(self, text: str) -> None:
        """Write to stderr; a reader that is gone (`ext install --yes 2>&1 | head -1`) stops
        nothing either: what is left to say goes nowhere, and the command runs to the end."""
        try:
            self.stderr.write(text)
            self.stderr.flush()
        except (OSError, ValueError) as err:
            if not reader_gone(err):
                raise
            if self._fd2:  # the interpreter's own last flush must not fail either
                with contextlib.suppress(OSError):
                    let_go(2)
            self.stderr = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the Output

    def finish(self, code: int) -> None:
        """Flush stdout; if its reader left, say on stderr that the command still ran through:
        a command that writes only (a reader leaves a listing when it has read enough, `ext
        list | head`, as it leaves `ls`; helper-62)."""
        self.flush_out()
        if self.stdout_lost and self.writes:
            self.err(STDOUT_GONE.format(code=code))

    def said(self, line: str) -> None:
        """A line said around a result (the agent dir, a hint): on stderr, but for the agent
        dir's heading (installer.render.Heading) in a run that heads each agent's results."""
        from installer.render import Heading

        if self.headed and isinstance(line, Heading):
            self.out(line)
        else:
            self.err(self.runnable(line))

    def err(self, line: str) -> None:
        # What stdout holds goes first: both captured in one stream (`2>&1 | tee`, CI), a
        # note must not land above the plan it follows (stdout to a pipe is block-buffered).
        self.flush_out()
        self.write_err(escape(shorten(line, self._home), self.color) + "\n")

    def warn(self, message: str) -> None:
        self.err(self.paint("warning:", "33") + f" {self.runnable(message)}")

    def data(self, obj: dict[str, Any]) -> None:
        import json  # only --json needs it: text runs skip the import

        self.write_out(_json_safe(json.dumps(obj, indent=2, ensure_ascii=False)) + "\n")

    def error(self, exc: ExtError) -> None:
        if self.json:
            body = {"error": exc.message, "exit_code": int(exc.exit_code)}
            if exc.fix:
                body["fix"] = exc.fix
            if isinstance(exc, GuardRefused):
                body["refused"] = [{"name": n, "why": w} for n, w in exc.refused.items()]
            self.data(body)
            return
        if isinstance(exc, Declined):  # the person's own answer, not something gone wrong
            self.err(exc.message)
            return
        self.err(self.paint("error:", "31") + f" {self.runnable(exc.message)}")
        if exc.fix:
            self.err(f"  fix: {self.runnable(exc.fix)}")

    # plans

    def action_line(self, a: Action) -> str:
        sym = SYMBOL.get(a.action, " ")
        text = f"{sym} {a.action:<10} {a.path}"
        if a.backup:
            text += f" -> {a.backup}"
        elif a.action in ("enable", "disable", "restore") and a.target:
            text += f" -> {a.target}"
        if a.detail:
            text += f"  ({a.detail})"
        return self.paint(text, _COLOR[sym]) if sym in _COLOR else text

    def show_plan(self, plan: Plan, diffs: tuple[str, ...] = (), asking: bool = False) -> None:
        """The plan, one line per write, then the one-line summary (with --quiet: only to ask)."""
        if self.json or self.plan_shown:
            return
        self.plan_shown = True
        for w in plan.warnings:
            self.warn(w)
        if plan.is_empty or (self.quiet and not asking):
            return
        said: set[str] = set()
        for a in plan.changes:
            shown = a
            if a.detail and a.detail in said:  # said whole once: its first words now
                shown = a._replace(detail=a.detail.partition(": ")[0])  # `not selected`
            elif a.detail:
                said.add(a.detail)
            self.out(f"  {self.action_line(shown)}")
        for diff in diffs:  # as written, not shortened: the user confirms these very bytes
            for line in diff.splitlines():
                self.write_out(f"    {escape(line)}\n")
        self.out(plan.summary())

    def confirm(self, plan: Plan, yes: bool, stdin_tty: bool, diffs: tuple[str, ...] = ()) -> None:
        """Show the plan and ask once; no TTY and no --yes is a refusal (exit 3)."""
        self.show_plan(plan, diffs, asking=not yes)
        if not yes:
            self.ask("Apply these changes?", stdin_tty)

    def ask(
        self,
        question: str,
        stdin_tty: bool,
        done: str = "written",
        first: str = "",
        again: tuple[str, ...] = ("--yes",),
    ) -> None:
        """Ask y/N on stderr; no TTY, or any answer but yes, is a refusal (exit 3): with no
        TTY, the command again with `again` is the fix (NoTerminal)."""
        if not stdin_tty:
            raise NoTerminal(done, first, again)
        self.flush_out()  # the plan (stdout, maybe a pipe) before the question about it
        self.write_err(f"{escape(question)} [y/N] ")
        answer = sys.stdin.readline().strip().lower()
        if answer not in ("y", "yes"):
            raise Declined(f"declined; nothing was {done}")

    def press_enter(self, to: str, declined: str) -> None:
        """Wait for Enter on a terminal before what is about `to` happen (what was printed
        would be wiped); Ctrl-D is a refusal (exit 3), as Ctrl-C stops ext."""
        self.flush_out()
        self.write_err(f"press Enter to {to}, or Ctrl-C to stop\n")
        if not sys.stdin.readline():
            raise Declined(f"declined; {declined}")


def use_color(no_color: bool, environ: dict[str, str], stream: TextIO) -> bool:
    """Colour only on a terminal, and never with NO_COLOR or --no-color."""
    # NO_COLOR set and not empty (no-color.org: an empty value asks for nothing)
    if no_color or environ.get("NO_COLOR") or environ.get("TERM") == "dumb":
        return False
    return stream.isatty()


def tilde(path: Path) -> str:
    return shorten(str(path))
