"""`ext consent`'s calls: review, approve and revoke the hooks a project would run.

Only prompting and rendering live here; installer/consent/ does the work and returns
results.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from installer.cli.options import Globals
from installer.cli.run import context, run

if TYPE_CHECKING:
    from installer.consent.preview import ApprovalPreview
    from installer.context import Context
    from installer.ui import Output


def check(g: Globals, project: Path | None) -> NoReturn:
    """`ext consent check [DIR]`: exit 0 if the project's hooks are approved, else 3."""
    from installer.context import here

    def go(out: Output) -> int:
        from installer.consent.commands import check as do_check

        ctx = _moved(out, context(g))
        result = do_check(ctx.agent_dir, _folder(project) or here(ctx.env))
        _render(out, result.warnings, result.lines(), result.to_json())
        return int(result.exit_code)

    run(g, go)


def approve(
    g: Globals, project: Path | None, yes: bool, dry_run: bool, expect: str | None
) -> NoReturn:
    """`ext consent approve [DIR]`: show the project's hooks, then approve them."""
    from installer.context import here

    def go(out: Output) -> int:
        from installer.consent.commands import approve as do_approve
        from installer.consent.commands import describe_approval
        from installer.consent.journaled import journaled

        ctx = _moved(out, context(g), dry_run)
        folder = _folder(project) or here(ctx.env)
        preview = describe_approval(ctx.agent_dir, folder)
        _expected(preview, expect)
        if dry_run:
            _render(out, preview.warnings, preview.lines(), preview.to_json())
            return 0
        if preview.needs_approval:
            _show_preview(out, preview, yes)
            _confirm(out, preview, yes, ctx.env.stdin_tty)
            if ctx.agent_dir_source == "isolated":
                # The isolated agent dir is ext's own and made on demand (DESIGN.md).
                ctx.agent_dir.mkdir(parents=True, exist_ok=True)
        write = journaled(ctx, "consent approve")
        result = do_approve(ctx.agent_dir, folder, preview, write=write)
        shown = preview.warnings if preview.needs_approval else ()
        fresh = tuple(w for w in result.warnings if w not in shown)
        _render(out, fresh, result.lines(), result.to_json())
        return int(result.exit_code)

    run(g, go)


def revoke(g: Globals, project: Path | None, yes: bool) -> NoReturn:
    """`ext consent revoke [DIR]`: remove the project's approval, once confirmed."""
    from installer.context import here

    def go(out: Output) -> int:
        from installer.consent.canonical import short_hash
        from installer.consent.commands import held_approval
        from installer.consent.commands import revoke as do_revoke
        from installer.consent.hooks import visible
        from installer.consent.journaled import journaled
        from installer.ui import shorten

        ctx = _moved(out, context(g))
        folder = _folder(project) or here(ctx.env)
        key, held = held_approval(ctx.agent_dir, folder)
        if held is not None and not yes:
            stamp = f"{short_hash(held.sha256)}, approved {held.approved_at}"
            question = f"Revoke the approval of the hooks in {shorten(visible(key))} ({stamp})?"
            _ask(out, question, "revoked", ctx.env.stdin_tty)
        result = do_revoke(ctx.agent_dir, folder, journaled(ctx, "consent revoke"))
        _render(out, result.warnings, result.lines(), result.to_json())
        return int(result.exit_code)

    run(g, go)


def list_approvals(g: Globals) -> NoReturn:
    """`ext consent list`: every approval, and whether it still matches."""

    def go(out: Output) -> int:
        from installer.consent.commands import list_approvals as do_list

        result = do_list(_moved(out, context(g)).agent_dir)
        _render(out, result.warnings, result.lines(), result.to_json())
        return int(result.exit_code)

    run(g, go)


def _moved(out: Output, ctx: Context, dry_run: bool = False) -> Context:
    """Move a store left in `<agent>/hooks/` by an earlier ext (pi warns about that folder);
    a dry run only says so, since it writes nothing."""
    import os

    from installer.consent.legacy import legacy_store, migrate
    from installer.consent.store import store_path

    old = legacy_store(ctx.agent_dir)
    if dry_run and os.path.lexists(old):
        out.warn(
            f"{old} holds approvals of an earlier ext, which this --dry-run does not read; "
            f"a run without --dry-run moves them to {store_path(ctx.agent_dir)}"
        )
    elif ctx.agent_dir.is_dir():
        for note in migrate(ctx):
            out.warn(note)
    return ctx


def _render(out: Output, warnings: tuple[str, ...], lines: list[str], data: dict[str, Any]) -> None:
    """Warnings to stderr; then the JSON or the text lines to stdout."""
    for warning in warnings:
        out.warn(warning)
    if out.json:
        out.data(data)
        return
    for line in lines:
        out.out(line)


def _show_preview(out: Output, preview: ApprovalPreview, yes: bool) -> None:
    """What is about to be trusted; on stderr under --json, where stdout is data only."""
    for warning in preview.warnings:
        out.warn(warning)
    if yes and (out.json or out.quiet):
        return
    show = out.err if out.json else out.out
    in_diff = False
    for line in preview.lines():
        in_diff = in_diff or line.startswith("Changed since the approval")
        color = _DIFF_COLOR.get(line[2:3]) if in_diff else None
        show(out.paint(line, color) if color else line)


# Diff lines are indented by two spaces in ApprovalPreview.lines().
_DIFF_COLOR = {"+": "32", "-": "31", "@": "36"}


def _confirm(out: Output, preview: ApprovalPreview, yes: bool, stdin_tty: bool) -> None:
    """Ask y/N on stderr; no TTY without --yes, or any answer but yes, is a refusal (exit 3)."""
    if not yes:
        _ask(out, preview.question(), "approved", stdin_tty, "review the hooks above, then ")


def _ask(out: Output, question: str, done: str, stdin_tty: bool, first: str = "") -> None:
    """The y/N every command that writes asks; without a TTY the fix is --yes."""
    out.ask(question, stdin_tty, done, f"{first}run the command again with --yes")


def _expected(preview: ApprovalPreview, expect: str | None) -> None:
    """Refuse (exit 3) when the hooks are not the ones the caller showed the user."""
    from installer.errors import Refused

    if expect is None or preview.config.sha256 == expect:
        return
    raise Refused(
        f"the hooks in {preview.project} are not the ones that were shown ({expect}); "
        "nothing was approved",
        f"review them again: ext consent approve {preview.project}",
    )


def _folder(project: Path | None) -> Path | None:
    """The DIR argument with `~` expanded, as the global path options are."""
    return None if project is None else project.expanduser()
