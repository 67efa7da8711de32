"""The everyday commands' bodies, with plain arguments: `--version`, `install`, `launch`,
`list`, `env`.

The typer app and the hand parser of `installer.entry` both call these, so the two ways
in differ only in how argv became arguments.
"""

from __future__ import annotations

import sys
from typing import Any, NoReturn

from installer import __version__
from installer.runner import G, confirmer, context, names, run, show_notice


def version(as_json: bool) -> NoReturn:
    """`ext --version`: ext's version and the host's; a broken host never breaks it."""
    from installer.host import find_host

    try:
        host = find_host()
    except Exception:
        host = None
    if host is not None and host.note:
        sys.stderr.write(f"warning: {host.note}\n")
    if as_json:
        import json

        data = {"ext": __version__, "host": None if host is None else host.version}
        sys.stdout.write(json.dumps(data) + "\n")
    else:
        pi = "pi not found" if host is None else f"pi {host.version or 'version unknown'}"
        sys.stdout.write(f"ext {__version__} ({pi})\n")
    raise SystemExit(0)


def install(
    only: list[str] | None,
    skip: list[str] | None,
    dry_run: bool,
    yes: bool,
    create: bool,
    mode: str | None,
    reseed: bool = False,
) -> NoReturn:
    """`ext install`: link (or register) the set into the agent dir."""

    def go(out: Any) -> int:
        from installer.commands.install import install as do_install
        from installer.ui import tilde

        ctx = context(create=create)
        chosen = names(only), names(skip, "--skip")
        if not dry_run:
            _move_old_consent_store(out, ctx)
        confirm = confirmer(out, yes)
        where = f"agent dir {tilde(ctx.agent_dir)} (from {ctx.agent_dir_source})"
        say_where = not (G.quiet or out.json)

        def confirm_here(plan: Any, diffs: tuple[str, ...]) -> None:
            if say_where:  # before the plan and its question: where it goes is part of it
                out.err(where)
            confirm(plan, diffs)

        result = do_install(ctx, *chosen, dry_run, confirm_here, mode, reseed=reseed)
        if say_where and result.dry_run and not result.plan.is_empty:
            out.err(where)
        out.plan_result(result)
        show_notice(out, ctx)
        if result.applied and not G.quiet and ctx.agent_dir_source == "isolated":
            out.err('pi reads it with: eval "$(ext env)"   (or run `ext launch`)')
        return 0

    run(go)


def _move_old_consent_store(out: Any, ctx: Any) -> None:
    """An upgrade's first install moves the approvals out of `hooks/`, where pi warns at start.

    Before the install, so that `ext undo` takes back the install first. One lstat when there
    is nothing to move.
    """
    import os

    if os.path.lexists(os.path.join(ctx.agent_dir, "hooks", "project-approvals.json")):
        from installer.consent.legacy import migrate

        for note in migrate(ctx):
            out.warn(note)


def launch(args: list[str]) -> NoReturn:
    """`ext launch -- ARGS`: pi on the agent dir, with the drift warning and the session record."""

    def go(out: Any) -> int:
        from installer.commands.launch import prepare_launch, record_session
        from installer.host import launch as exec_host

        ctx = context()
        host, warnings = prepare_launch(ctx)
        for w in warnings:
            out.warn(w)
        show_notice(out, ctx)
        record_session(ctx, host, args)
        exec_host(host, ctx.agent_dir, args)

    run(go)


def list_items() -> NoReturn:
    """`ext list`: every item of the set and its state."""

    def go(out: Any) -> int:
        from installer.commands.listing import items, with_guard
        from installer.ui import tilde

        ctx = context()
        mode, found = items(ctx)
        show_notice(out, ctx)
        if out.json:
            out.data(
                {
                    "set": str(ctx.set_root),
                    "agent_dir": str(ctx.agent_dir),
                    "mode": mode,
                    "items": [with_guard(i.to_json(), ctx.manifest) for i in found],
                }
            )
            return 0
        for w in ctx.manifest.warnings:
            out.warn(w)
        out.out(f"set        {tilde(ctx.set_root)} ({ctx.manifest.name})")
        out.out(f"agent dir  {tilde(ctx.agent_dir)} ({ctx.agent_dir_source})")
        out.out(f"mode       {mode}")
        width = max((len(i.resource.label) for i in found), default=4)
        for i in found:
            line = f"  {i.state:<13} {i.resource.label:<{width}}  {i.path}"
            line += f"  ({i.note})" if i.note else ""
            out.out(line + (f"  [{i.pi.describe()}]" if i.pi is not None else ""))
        return 0

    run(go)


def env(shell: str) -> NoReturn:
    """`ext env`: the line that points pi at the agent dir."""

    def go(out: Any) -> int:
        from installer.commands.env import env_line

        ctx = context()
        line = env_line(ctx.agent_dir, shell)
        if out.json:
            out.data({"agent_dir": str(ctx.agent_dir), "shell": shell, "line": line})
        else:
            sys.stdout.write(line + "\n")
        return 0

    run(go)
