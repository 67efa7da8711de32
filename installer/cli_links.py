"""`ext install`, `uninstall`, `list`, `env`, `launch`, `enable`, `disable`, `toggle`."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from installer import completion, handlers
from installer.cli import DryRun, Only, Skip, Yes, app
from installer.errors import UsageError
from installer.runner import confirmer, context, names, run


@app.command()
def install(
    only: Only = None,
    skip: Skip = None,
    dry_run: DryRun = False,
    yes: Yes = False,
    create: Annotated[
        bool, typer.Option("--create", help="Create a named agent dir that does not exist.")
    ] = False,
    mode: Annotated[
        str | None,
        typer.Option(
            "--mode",
            help="link (symlinks) or register (a package in settings.json).",
            autocompletion=completion.modes,
        ),
    ] = None,
    reseed: Annotated[
        bool,
        typer.Option(
            "--reseed", help="Seed settings again, also the ones you removed since the first run."
        ),
    ] = False,
) -> None:
    """Link the set into the agent dir, backing up what is in the way.

    Or, with --mode register, add it to settings.json as a local-path package.
    """
    handlers.install(only, skip, dry_run, yes, create, mode, reseed)


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def launch(ctx: typer.Context) -> None:
    """Run pi on the agent dir: ext launch -- ARGS…"""
    handlers.launch(list(ctx.args))


@app.command()
def uninstall(dry_run: DryRun = False, yes: Yes = False) -> None:
    """Remove the set from the agent dir; backups stay."""

    def go(out: Any) -> int:
        from installer.commands.uninstall import uninstall as do_uninstall

        out.plan_result(do_uninstall(context(), dry_run, confirmer(out, yes)))
        return 0

    run(go)


@app.command("list")
def list_items() -> None:
    """Every item of the set and its state."""
    handlers.list_items()


@app.command()
def env(
    shell: Annotated[
        str,
        typer.Option("--shell", help="sh, bash, zsh or fish.", autocompletion=completion.shells),
    ] = "sh",
) -> None:
    """The line that points pi at the agent dir: eval "$(ext env)"."""
    handlers.env(shell)


ItemNames = Annotated[
    list[str],
    typer.Argument(
        metavar="NAME",
        help="Items of the set: notify, notify.ts, skill:review.",
        autocompletion=completion.item_names,
    ),
]
Force = Annotated[
    bool, typer.Option("--force", help="Disable even when a guard refuses (warns of the risk).")
]


def _switch(names: list[str], enable: bool, force: bool, dry_run: bool, yes: bool) -> None:
    def go(out: Any) -> int:
        from installer.commands.toggle import switch

        result = switch(context(), names, enable, force, dry_run, confirmer(out, yes))
        out.plan_result(result)
        return 0

    run(go)


@app.command()
def enable(names: ItemNames, dry_run: DryRun = False, yes: Yes = False) -> None:
    """Switch items back on."""
    _switch(names, True, False, dry_run, yes)


@app.command()
def disable(
    names: ItemNames, force: Force = False, dry_run: DryRun = False, yes: Yes = False
) -> None:
    """Switch items off, unless a guard refuses (exit 3)."""
    _switch(names, False, force, dry_run, yes)


Switched = Annotated[
    list[str] | None,
    typer.Option(
        help="Without the checklist: switch these on/off, as one plan (what /ext runs).",
        autocompletion=completion.item_names,
    ),
]


@app.command()
def toggle(
    force: Force = False,
    yes: Yes = False,
    dry_run: DryRun = False,
    on: Switched = None,
    off: Switched = None,
) -> None:
    """Switch items in a checklist; applied at once, once confirmed."""

    def go(out: Any) -> int:
        from functools import partial

        from installer.commands.toggle import checkbox, switch_both
        from installer.commands.toggle import toggle as do_toggle
        from installer.runner import G

        if on or off:
            if force:
                raise UsageError("--force is not for --on/--off", "use `ext disable --force`")
            both = names(on, "--on"), names(off, "--off")
            out.plan_result(switch_both(context(), *both, dry_run, confirmer(out, yes)))
            return 0
        if dry_run:
            raise UsageError("--dry-run needs --on or --off", "name what to switch")
        ask = partial(checkbox, color=not G.no_color)  # --no-color reaches the list too
        out.plan_result(do_toggle(context(), ask, force, confirmer(out, yes)))
        return 0

    run(go)
