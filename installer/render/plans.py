"""Plan/apply results (install, uninstall, enable, …) and data results (history, env)."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from installer.commands.launch import Exec, HostExec
    from installer.engine.result import DataResult, PlanResult
    from installer.render.ui import Output


def show(out: Output, result: PlanResult | DataResult | Exec | HostExec) -> int:
    from installer.engine.result import DataResult, PlanResult

    if isinstance(result, PlanResult):
        plan_result(out, result)
    elif isinstance(result, DataResult):
        data_result(out, result)
    else:  # `ext launch`: only what to know before pi takes over the terminal
        for w in result.warnings:
            out.warn(w)
    return 0


def plan_result(out: Output, result: PlanResult) -> None:
    """The JSON shape, or: warnings, the plan (once), `done:` / `nothing to do` / `dry run`,
    and the notes."""
    if out.json:
        out.data(result.to_json())
        return
    if not result.said:
        return
    if result.plan.command == "undo" and result.plan.is_empty:
        out.out("nothing to undo")
        return
    for w in result.warnings:
        out.warn(w)
    if result.applied:
        out.show_plan(result.plan)
        if not out.quiet:
            out.out(f"done: {result.plan.summary(done=True)}")
    elif result.plan.is_empty:
        out.show_plan(result.plan)
        if not out.quiet:
            summary = result.plan.summary()
            out.out("nothing to do" if summary == "nothing to do" else f"nothing to do: {summary}")
    else:
        out.show_plan(result.plan, result.diffs)
        if result.dry_run and not out.quiet:
            out.out("dry run: nothing was written")
    for note in result.notes:
        if not out.quiet:
            out.err(out.runnable(note))


def data_result(out: Output, result: DataResult) -> None:
    """Warnings, then the JSON or the lines (as they are, when a shell reads them)."""
    for w in result.warnings:
        out.warn(w)
    if out.json:
        out.data(result.to_json())
        return
    for line in result.lines:
        if result.verbatim:  # as it is (no escape, no ~), but through the Output (helper-64:
            out.write_out(line + "\n")  # written past it, a reader gone made env exit 1)
        else:
            out.out(line)
