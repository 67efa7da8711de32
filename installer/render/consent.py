"""`ext consent …`: the hooks a project would run, the approvals, as text or JSON.

Every string from a project (its path, hook events, matchers, commands) goes through
`visible` first, so the lines are safe to print to a terminal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from installer.consent.canonical import short_hash
from installer.consent.hooks import UNRECOGNISED, quoted, visible
from installer.consent.preview import COVERS
from installer.ground.screen import escape

if TYPE_CHECKING:
    from installer.consent.hooks import HookCommand
    from installer.consent.preview import ApprovalPreview
    from installer.consent.results import ApproveResult, CheckResult, ListResult, RevokeResult
    from installer.render.ui import Output

    Result = CheckResult | ApproveResult | RevokeResult | ListResult | ApprovalPreview


def show(out: Output, result: Result) -> int:
    """Warnings to stderr; then the JSON or the text lines to stdout; the exit code."""
    for warning in result.warnings:
        out.warn(warning)
    if out.json:
        out.data(result.to_json())
    else:
        for line in lines(result, out.runnable):
            out.out(line)
    return int(getattr(result, "exit_code", 0))


def lines(result: Result, runnable: Callable[[str], str] = str) -> list[str]:
    """The result as text lines for people; `runnable` names the approve command of a check's
    hint as the person can run it on this agent dir (Output.runnable). The runner's sentence
    is not: `ext enable project-hooks` is for the bundled set, not a --set given."""
    from installer.consent.preview import ApprovalPreview
    from installer.consent.results import ApproveResult, CheckResult, ListResult

    if isinstance(result, CheckResult):
        return check_lines(result, runnable)
    if isinstance(result, ApproveResult):
        return approve_lines(result)
    if isinstance(result, ListResult):
        return list_lines(result)
    if isinstance(result, ApprovalPreview):  # `approve --dry-run`: said as every dry run is
        shown = preview_lines(result)
        return [*shown, "dry run: nothing was approved"] if result.needs_approval else shown
    return revoke_lines(result)


def _word(result: CheckResult) -> str:
    """The project as the command's argument: `my proj` pasted bare would be two words."""
    from pathlib import Path

    from installer.ground.shellword import shell_word

    return shell_word(Path(result.project))


def check_lines(result: CheckResult, runnable: Callable[[str], str] = str) -> list[str]:
    """One line for people, with the next step when consent is missing."""
    where = visible(result.project)
    current = short_hash(result.sha256 or "")
    review = f"Review and approve them with: {runnable('ext consent approve')} {_word(result)}"
    if result.status == "nothing-to-approve":
        return [f"{where} has no hooks: nothing to approve."]
    if result.status == "never-approved" or result.approved is None:
        return [f"Hooks in {where} ({current}) have never been approved.", review]
    when = result.approved.approved_at
    if result.status == "approved":
        said = [f"Hooks in {where} ({current}) are approved (on {when})."]
        return said + ([result.runner.sentence()] if result.runner else [])
    return [
        f"Hooks in {where} changed since the approval on {when} "
        f"({short_hash(result.approved.sha256)} -> {current}).",
        review,
    ]


def approve_lines(result: ApproveResult) -> list[str]:
    """What was recorded, and whether pi will run it."""
    where = visible(result.project)
    if result.sha256 is None:
        return [f"{where} has no hooks: nothing to approve."]
    verb = "Approved" if result.changed else "Already approved:"
    count = result.hook_count
    said = (
        f"{verb} {count} hook{'' if count == 1 else 's'} in {where} "
        f"({short_hash(result.sha256)}, on {result.approved_at})."
    )
    return [said, *([result.runner.sentence()] if result.runner else [])]


def revoke_lines(result: RevokeResult) -> list[str]:
    """One line saying what was removed."""
    where = visible(result.project)
    if result.revoked is None:
        return [f"No approval was recorded for {where}: nothing to revoke."]
    stamp = f"{short_hash(result.revoked.sha256)}, approved {result.revoked.approved_at}"
    return [f"Revoked the approval of the hooks in {where} ({stamp})."]


def list_lines(result: ListResult) -> list[str]:
    """A table: state, approval time, short hash, project; then whether pi runs them."""
    runner = [result.runner.sentence()] if result.runner else []
    if not result.entries:
        return [f"No approved projects (store: {visible(result.store)}).", *runner]
    rows = [("STATE", "APPROVED", "HASH", "PROJECT")]
    rows += [
        (e.state, e.approved_at, short_hash(e.sha256), visible(e.project)) for e in result.entries
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    table = [
        "  ".join([*(cell.ljust(w) for cell, w in zip(row, widths, strict=False)), row[3]])
        for row in rows
    ]
    return table + runner + _would_run(result)


def _would_run(result: ListResult) -> list[str]:
    if result.runner is None or not result.runner.runs:
        return []
    current = [visible(e.project) for e in result.entries if e.state == "current"]
    if not current:
        return ["No approved project's hooks would run: each changed since or is gone."]
    return [f"Hooks that would run in pi: {', '.join(current)}."]


def preview_lines(preview: ApprovalPreview) -> list[str]:
    """What `ext consent approve` shows before it asks: every hook, and the diff."""
    if preview.status == "nothing-to-approve":
        return [f"{visible(preview.project)} has no hooks: nothing to approve."]
    head = f"Hooks in {visible(preview.project)} ({short_hash(preview.config.sha256 or '')})"
    if preview.status == "already-approved" and preview.previous is not None:
        return [f"{head} are already approved (on {preview.previous.approved_at})."]
    found = [
        f"{head}, from {', '.join(preview.config.sources)}.",
        "They run as you, on this machine, whenever the agent acts in this project:",
    ]
    for command in preview.commands:
        found += ["", *describe(command)]
    found += ["", COVERS]
    if preview.previous is not None:
        found += ["", f"Changed since the approval on {preview.previous.approved_at}:"]
        found += [f"  {visible(line)}" for line in preview.diff]
    return found


def describe(command: HookCommand) -> list[str]:
    """One hook as indented text lines: when it fires, then what it runs."""
    # One line each, a newline escaped too (helper-80: kept, it drew a heading of its own),
    # as pi's dialog draws them (extensions/project-hooks/hooks.ts, describeHook).
    when = [escape(command.event)]
    if command.matcher is not None:
        # in quotes as JSON writes it: a `"` of its own could close the quote and draw notes
        # of its choosing after it (helper-79); ext and pi's dialog show the same
        when.append(f"matcher {escape(quoted(command.matcher))}")
    notes = [escape(command.source)]
    if command.timeout is not None:
        notes.append(f"timeout {_used(command.timeout)} s")
    if command.kind == UNRECOGNISED:
        notes.append("not in the usual hooks format; shown as written")
    elif command.kind != "command":
        notes.append(f"{escape(command.kind)} hook, not run here")
    elif command.not_run is not None:  # pi passes it over: never shown as one that runs
        notes.append(f"not run: {escape(command.not_run)}")
    first, *rest = visible(command.command).split("\n")
    marker = "$" if command.kind == "command" and command.not_run is None else ">"
    return [
        f"  {'  '.join(when)}  ({', '.join(notes)})",
        f"    {marker} {first}",
        *(f"      {line}" for line in rest),
    ]


def _used(timeout: float) -> str:
    """A timeout as pi's project-hooks uses it: at most MAX_TIMEOUT_S (helper-45: 1e10 was
    shown, and Node's timer, overflowing, fired at once)."""
    from installer.consent.hooks import MAX_TIMEOUT_S

    # As JavaScript writes a number (pi's dialog says the same): 5 and 5.0 as 5, 1e10 whole.
    shown = (
        str(int(timeout)) if float(timeout).is_integer() and abs(timeout) < 1e21 else str(timeout)
    )
    return f"{MAX_TIMEOUT_S} (of {shown})" if timeout > MAX_TIMEOUT_S else shown


# Diff lines are indented by two spaces in preview_lines.
_DIFF_COLOR = {"+": "32", "-": "31", "@": "36"}


def show_preview(out: Output, preview: ApprovalPreview, yes: bool) -> None:
    """What is about to be trusted; on stderr under --json, where stdout is data only."""
    for warning in preview.warnings:
        out.warn(warning)
    if yes and (out.json or out.quiet):
        return
    show_line = out.err if out.json else out.out
    in_diff = False
    for line in preview_lines(preview):
        in_diff = in_diff or line.startswith("Changed since the approval")
        color = _DIFF_COLOR.get(line[2:3]) if in_diff else None
        show_line(out.paint(line, color) if color else line)
