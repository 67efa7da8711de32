"""`ext doctor`, `update --check`/`outdated`, `undo`, `history`."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from installer.cli import DryRun, Yes, app
from installer.runner import G, confirmer, context, names, run


@app.command()
def doctor(
    deep: Annotated[
        bool, typer.Option("--deep", help="Also start the host offline; report what fails to load.")
    ] = False,
    strict: Annotated[bool, typer.Option("--strict", help="Exit 1 on warnings too.")] = False,
    list_checks: Annotated[
        bool, typer.Option("--list-checks", help="List the checks and exit.")
    ] = False,
    check: Annotated[
        list[str] | None,
        typer.Option("--check", metavar="ID", help="Run only this check (repeatable)."),
    ] = None,
    no_network: Annotated[
        bool, typer.Option("--no-network", help="Skip what needs the network.")
    ] = False,
) -> None:
    """What is wrong with the install, and how to fix it."""

    def go(out: Any) -> int:
        from installer.context import Env
        from installer.doctor import (
            CHECKS,
            check_list,
            exit_code,
            resolve_subject,
            run_checks,
            select_checks,
            summary,
            table,
            to_json,
        )

        if list_checks:
            chosen = select_checks(names(check), deep=True)
            if out.json:
                out.data({"checks": [c.to_json() for c in chosen or CHECKS]})
            else:
                for line in check_list(chosen):
                    out.out(line)
            return 0
        subject = resolve_subject(Env.from_process(), G.set_dir, G.agent_dir)
        found = run_checks(subject, names(check), deep, not no_network, debug=G.debug)
        if out.json:
            out.data(to_json(found, strict))
        else:
            for line in table(found, out.paint if out.color else None, quiet=G.quiet):
                out.out(line)
            out.out(summary(found, strict))
        return exit_code(found, strict)

    run(go)


def _update_check() -> None:
    def go(out: Any) -> int:
        from installer.commands.updates import check, lines

        report = check(context())
        if out.json:
            out.data(report.to_json())
        else:
            for line in lines(report):
                out.out(line)
        return 0

    run(go)


@app.command()
def update(
    check: Annotated[bool, typer.Option("--check", help="Check for newer versions now.")] = False,
) -> None:
    """Newer ext, pi or set, and the command to upgrade each.

    ext does not upgrade anything itself: it names the command that fits how each thing was
    installed. Exit 0 whether or not updates exist; only a failure of ext itself is non-zero.
    """
    del check  # `ext update` and `ext update --check` are the same check
    _update_check()


@app.command()
def outdated() -> None:
    """The same as `ext update --check`."""
    _update_check()


@app.command()
def undo(dry_run: DryRun = False, yes: Yes = False) -> None:
    """Reverse the last change ext made."""

    def go(out: Any) -> int:
        from installer.commands.undo import undo as do_undo

        result = do_undo(context(), dry_run, confirmer(out, yes))
        if result.plan.is_empty and not out.json:
            out.out("nothing to undo")
            return 0
        out.plan_result(result)
        return 0

    run(go)


@app.command()
def history() -> None:
    """What ext did here, newest first."""

    def go(out: Any) -> int:
        from installer.commands.undo import history as read_history

        out.data_result(read_history(context()))
        return 0

    run(go)
