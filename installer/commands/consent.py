"""`ext consent check|approve|revoke|list`: the hook commands a project would run, and the
user's approval of them. The work is in installer/consent/; these are its verbs."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from installer.ground.home import expand_home
from installer.ground.records import NamedTuple
from installer.ground.shellword import shell_word

if TYPE_CHECKING:
    from installer.consent.preview import ApprovalPreview
    from installer.consent.results import ApproveResult, CheckResult, ListResult, RevokeResult
    from installer.ground.context import Context


class ConsentCheck(NamedTuple):
    """`ext consent check`'s options, as installer.cli.grammar names them."""

    project: Path | None = None


class ConsentApprove(NamedTuple):
    """`ext consent approve`'s options, as installer.cli.grammar names them."""

    project: Path | None = None
    yes: bool = False
    dry_run: bool = False
    expect: str | None = None


class ConsentRevoke(NamedTuple):
    """`ext consent revoke`'s options, as installer.cli.grammar names them."""

    project: Path | None = None
    yes: bool = False


class ConsentList(NamedTuple):
    """`ext consent list` takes no options."""


class Asks(Protocol):
    """What approve and revoke ask through: show the hooks about to be trusted, then y/N."""

    def preview(self, preview: ApprovalPreview) -> None: ...

    def ask(self, question: str, done: str, first: str = "", pin: tuple[str, ...] = ()) -> None: ...


def check(ctx: Context, options: ConsentCheck) -> CheckResult:
    """`ext consent check [DIR]`: exit 0 if the project's hooks are approved, else 3."""
    from installer.consent.commands import check as do_check

    return do_check(ctx.agent_dir, _folder(ctx, options.project))


def approve(ctx: Context, options: ConsentApprove, prompt: Asks) -> ApprovalPreview | ApproveResult:
    """`ext consent approve [DIR]`: show the project's hooks, then approve them."""
    from installer.consent.commands import approve as do_approve
    from installer.consent.commands import describe_approval
    from installer.consent.journaled import journaled

    folder = _folder(ctx, options.project)
    preview = describe_approval(ctx.agent_dir, folder)
    _expected(preview, options.expect)
    if options.dry_run:
        return preview
    if preview.needs_approval:
        prompt.preview(preview)
        # Pasted, the fix approves these hooks only: changed since, they are refused (_expected).
        sha = preview.config.sha256
        pin = ("--expect", sha) if sha else ()
        prompt.ask(preview.question(), "approved", "review the hooks above, then ", pin)
        if ctx.agent_dir_source == "isolated":
            # The isolated agent dir is ext's own and made on demand (DESIGN.md).
            ctx.agent_dir.mkdir(parents=True, exist_ok=True)
    write = journaled(ctx, "consent approve")
    result = do_approve(ctx.agent_dir, folder, preview, write=write)
    shown = preview.warnings if preview.needs_approval else ()
    return replace(result, warnings=tuple(w for w in result.warnings if w not in shown))


def revoke(ctx: Context, options: ConsentRevoke, prompt: Asks) -> RevokeResult:
    """`ext consent revoke [DIR]`: remove the project's approval, once confirmed."""
    from installer.consent.canonical import short_hash
    from installer.consent.commands import held_approval
    from installer.consent.commands import revoke as do_revoke
    from installer.consent.hooks import visible
    from installer.consent.journaled import journaled

    folder = _folder(ctx, options.project)
    key, held = held_approval(ctx.agent_dir, folder)
    if held is not None:
        stamp = f"{short_hash(held.sha256)}, approved {held.approved_at}"
        prompt.ask(f"Revoke the approval of the hooks in {visible(key)} ({stamp})?", "revoked")
    return do_revoke(ctx.agent_dir, folder, journaled(ctx, "consent revoke"))


def list_approvals(ctx: Context, options: ConsentList) -> ListResult:
    """`ext consent list`: every approval, and whether it still matches."""
    from installer.consent.commands import list_approvals as do_list

    return do_list(ctx.agent_dir)


def moved(ctx: Context, dry_run: bool = False) -> tuple[str, ...]:
    """Move a store left in `<agent>/hooks/` by an earlier ext (pi warns about that folder);
    a dry run only says so, since it writes nothing."""
    import os

    from installer.consent.legacy import legacy_store, migrate
    from installer.consent.store import store_path

    old = legacy_store(ctx.agent_dir)
    if dry_run and os.path.lexists(old):
        return (
            f"{old} holds approvals of an earlier ext, which this --dry-run does not read; "
            f"a run without --dry-run moves them to {store_path(ctx.agent_dir)}",
        )
    if ctx.agent_dir.is_dir():
        return tuple(migrate(ctx))
    return ()


def _expected(preview: ApprovalPreview, expect: str | None) -> None:
    """Refuse (exit 3) when the hooks are not the ones the caller showed the user."""
    from installer.ground.errors import Refused

    if expect is None or preview.config.sha256 == expect:
        return
    raise Refused(
        f"the hooks in {preview.project} are not the ones that were shown ({expect}); "
        "nothing was approved",
        f"review them again: ext consent approve {shell_word(Path(preview.project))}",
    )


def _folder(ctx: Context, project: Path | None) -> Path:
    """The DIR argument with `~` expanded, as the global path options are; else the cwd."""
    from installer.ground.context import here

    return expand_home(project) if project is not None else here(ctx.env)
