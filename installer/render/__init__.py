"""The one renderer: every result a verb returns, for a person or as JSON, and the prompt a
verb asks through.

`render(out, result)` prints a result and returns the command's exit code. Each kind of
result has its renderer in a module of this package, found by the result's type name, so an
everyday command loads only the one it needs (`plans` for install, `listing` for list):
`plans` (plan/apply results, data), `listing` (`ext list`'s table), `doctor` (the findings),
`updates` (`ext outdated`), `consent` (`ext consent …`). `installer.render.ui.Output` holds the
primitives they share: the streams, escaping, colour, the plan lines and the y/N prompt.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from importlib import import_module

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from installer.consent.preview import ApprovalPreview
    from installer.engine.plan import Plan
    from installer.ground.context import Context
    from installer.ground.state import SetRecord
    from installer.render.ui import Output

# A result's type (module.name) -> the module of this package that renders it, as `show`.
RENDERERS = {
    "installer.engine.result.PlanResult": "plans",
    "installer.engine.result.DataResult": "plans",
    "installer.commands.listing.Items": "listing",
    "installer.commands.doctor.CheckList": "doctor",
    "installer.commands.doctor.Report": "doctor",
    "installer.updates.check.Report": "updates",
    "installer.consent.results.CheckResult": "consent",
    "installer.consent.results.ApproveResult": "consent",
    "installer.consent.results.RevokeResult": "consent",
    "installer.consent.results.ListResult": "consent",
    "installer.consent.preview.ApprovalPreview": "consent",
    "installer.commands.launch.Exec": "plans",
    "installer.commands.launch.HostExec": "plans",
    "installer.commands.undo.Journals": "history",
}


def render(
    out: Output, result: Any, before: tuple[str, ...] = (), after: tuple[str, ...] = ()
) -> int:
    """Print result as text or JSON (out.json), with lines for stderr before and after it
    (whatever the format: stdout stays the result's); its exit code."""
    kind = f"{type(result).__module__}.{type(result).__qualname__}"
    show: Callable[[Output, Any], int] = import_module(f"{__name__}.{RENDERERS[kind]}").show
    for line in before:
        out.said(line)
    code = show(out, result)
    for line in after:
        out.err(out.runnable(line))
    return code


def warn(out: Output, warnings: tuple[str, ...]) -> None:
    """Warnings of the front's own (a store moved), said as they happen."""
    for w in warnings:
        out.warn(w)


def text_or_json(out: Output, result: Any, lines: Callable[[Any], list[str]]) -> int:
    """A result with no exit code of its own: its JSON, or its text lines, on stdout; 0."""
    if out.json:
        out.data(result.to_json())
    else:
        for line in lines(result):
            out.out(line)
    return 0


class Heading(str):
    """The line that says which agent dir a command works on: on stderr beside the result,
    but on stdout in a run over the agents a set serves, whose results it tells apart."""

    __slots__ = ()


def where(ctx: Context) -> str:
    """Where a command writes, and why there: `agent dir ~/.pi/agent (from --agent-dir)`."""
    from installer.render.ui import tilde

    if ctx.on.is_pi:
        from installer.ground.context import from_where

        return f"agent dir {tilde(ctx.agent_dir)} ({from_where(said_source(ctx))})"
    source = "its default" if ctx.agent_dir_source == "default" else ctx.agent_dir_source
    return f"{ctx.on.title}'s dir {tilde(ctx.agent_dir)} (from {source})"


def said_source(ctx: Context) -> str:
    """Where the agent dir came from, as a person reads it (helper-62): the isolated dir that
    `eval "$(ext env)"` named is said as the variable that named it, and a variable that put
    another dir of the set's own `[target] agent_dir` aside says so."""
    from installer.ground.context import ISOLATED, PI_AGENT_DIR_VAR, same_path

    source = ctx.agent_dir_source
    if not ctx.on.is_pi:  # `[target]` and pi's variable are pi's (helper-67)
        return source
    if source == "isolated" and ctx.env.environ.get(PI_AGENT_DIR_VAR):
        source = f"{PI_AGENT_DIR_VAR}, which names ext's isolated dir"
    elif source == "isolated":
        source = ISOLATED
    target = ctx.manifest.agent_dir
    by_variable = source.startswith(("EXT_", "PI_"))
    if target is not None and by_variable and not same_path(target, ctx.agent_dir):
        source += "; the set's [target] agent_dir is not used"
    return source


def where_lines(
    ctx: Context, others: list[Path], again: Callable[[Path], str], installing: bool = False
) -> tuple[str, ...]:
    """`where`, then each other agent dir that holds the set, with the command run there."""
    from installer.render.ui import tilde

    if installing:
        named, more = _few(others)
        # An install's selection is its whole: one made there with --only/--skip needs them
        # again (link mode keeps no record of them), which only the person knows (helper-33).
        said = [
            f"the set is installed in {tilde(d)} too (give its own --only or --skip again, if "
            f"its install had any); for that dir: {again(d)}"
            for d in named
        ]
        said += [f"the set is installed in {more} more dirs too"] if more else []
    else:
        said = list(elsewhere_lines(others, again))
    return (Heading(where(ctx)), *said)


# The other dirs named one by one, each with its command; past that, a count.
_NAMED = 3


def _few(others: list[Path]) -> tuple[list[Path], int]:
    """The dirs to name (all of them, when there are at most _NAMED), and how many more."""
    if len(others) <= _NAMED:
        return others, 0
    return others[: _NAMED - 1], len(others) - (_NAMED - 1)


def instead_lines(
    held: list[SetRecord], again: Callable[[Path], str], this: str = "this one"
) -> tuple[str, ...]:
    """Each set the agent dir holds when it does not hold this one (`this`: how it is
    named), with the command for it."""
    from pathlib import Path

    from installer.ground.installs import MOVED
    from installer.render.ui import tilde

    return tuple(
        f"this dir holds the set {s.name} ({tilde(Path(s.root))}), not {this}: "
        + (again(Path(s.root)) if os.path.isdir(s.root) else MOVED)
        for s in held
    )


def elsewhere_lines(others: list[Path], again: Callable[[Path], str]) -> tuple[str, ...]:
    """Each other agent dir that holds the set (not installed here), with the command there."""
    from installer.render.ui import tilde

    named, more = _few(others)
    said = [f"the set is not installed here but in {tilde(d)}: {again(d)}" for d in named]
    return (*said, *([f"and in {more} more dirs"] if more else []))


class PlanShown(Exception):  # not an error: the plan is on screen, to be asked about later
    """A plan shown to be asked about with the others (Output.collecting): nothing written."""


class Prompt:
    """How a verb asks, on stderr: the plan and its y/N (call it as a Confirm), a y/N
    question, the checklist. With `yes` it asks nothing; without a terminal, a question is a
    refusal (exit 3) that names --yes."""

    def __init__(
        self, out: Output, yes: bool, color: bool = True, before: tuple[str, ...] = ()
    ) -> None:
        self.out, self.yes, self.color = out, yes, color
        self.before = before  # said once, before the plan and its question (the agent dir)
        self.said = False  # whether `before` was said (else the renderer says it)
        self.stdin_tty = sys.stdin is not None and sys.stdin.isatty()

    def say_before(self) -> None:
        """The lines said before the plan, said now (an error came first)."""
        for line in self.before:
            self.out.said(line)
        self.said = True

    def __call__(self, plan: Plan, diffs: tuple[str, ...]) -> None:
        self.say_before()
        if self.out.collecting:
            self.out.show_plan(plan, diffs, asking=True)
            raise PlanShown()
        self.out.confirm(plan, self.yes, self.stdin_tty, diffs)

    def told(self, plan: Plan, diffs: tuple[str, ...]) -> None:
        """The plan of what was chosen already (the checklist's Enter), shown with no y/N."""
        self.say_before()
        self.out.confirm(plan, True, self.stdin_tty, diffs)

    def ask(self, question: str, done: str, first: str = "", pin: tuple[str, ...] = ()) -> None:
        """A y/N of its own (consent's); skipped with --yes. `pin`: what the fix's command line
        adds so that it does only what was shown (`--expect SHA`)."""
        from installer.render.ui import shorten

        if not self.yes:
            self.out.ask(shorten(question), self.stdin_tty, done, first, (*pin, "--yes"))

    def preview(self, preview: ApprovalPreview) -> None:
        """The hooks `ext consent approve` is about to trust, before it asks."""
        from installer.render.consent import show_preview

        show_preview(self.out, preview, self.yes)

    def pick(self, choices: list[Any], check: Callable[[frozenset[str]], str | None]) -> Any:
        """The checklist on the terminal (drawn on stderr); None on Escape or Ctrl-C."""
        from installer.render.picker import Picker, Row, run

        rows = [Row(c.label, c.checked, c.state, c.disabled, c.mark) for c in choices]
        return run(Picker(rows, check), color=self.color)
