"""`ext settings …`: the commands that edit settings.json on purpose."""

from __future__ import annotations

from typing import Annotated, Any

import typer

settings_app = typer.Typer(
    no_args_is_help=True, help="Tidy the agent's settings.json (renamed and retired keys)."
)


@settings_app.command("migrate")
def migrate_command(
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Show the plan; write nothing.")
    ] = False,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Apply without asking.")] = False,
    remove_retired: Annotated[
        bool,
        typer.Option("--remove-retired", help="Also remove retired keys (shown in the plan)."),
    ] = False,
) -> None:
    """Move renamed keys to their new names; with --remove-retired also delete retired keys."""
    from installer.runner import confirmer, context, run

    def go(out: Any) -> int:
        from installer.commands.migrate import migrate

        result = migrate(context(), dry_run, remove_retired, confirmer(out, yes))
        out.plan_result(result)
        return 0

    run(go)
