"""Each command's call: the global options and the command's own, in; a verb run, its
result rendered, and the exit code, out.

`installer.cli.grammar` names the call of each command; the hand parser of the everyday
commands (`installer.cli.fast`) and the click app (`installer.cli.app`) both call these, so
the two ways in differ only in how argv became arguments. The verbs
(`installer.commands`, `installer.consent`) do the work.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, NoReturn

from installer import __version__
from installer.cli.options import Globals
from installer.cli.run import confirmer, context, names, run, show_notice


def version(g: Globals, as_json: bool) -> NoReturn:
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
    g: Globals,
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

        ctx = context(g, create=create)
        chosen = names(only), names(skip, "--skip")
        if not dry_run:
            _move_old_consent_store(out, ctx)
        confirm = confirmer(out, yes)
        where = f"agent dir {tilde(ctx.agent_dir)} (from {ctx.agent_dir_source})"
        say_where = not (g.quiet or out.json)

        def confirm_here(plan: Any, diffs: tuple[str, ...]) -> None:
            if say_where:  # before the plan and its question: where it goes is part of it
                out.err(where)
            confirm(plan, diffs)

        result = do_install(ctx, *chosen, dry_run, confirm_here, mode, reseed=reseed)
        if say_where and result.dry_run and not result.plan.is_empty:
            out.err(where)
        out.plan_result(result)
        show_notice(g, out, ctx)
        if result.applied and not g.quiet and ctx.agent_dir_source == "isolated":
            out.err('pi reads it with: eval "$(ext env)"   (or run `ext launch`)')
        return 0

    run(g, go)


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


def launch(g: Globals, args: list[str]) -> NoReturn:
    """`ext launch -- ARGS`: pi on the agent dir, with the drift warning and the session record."""

    def go(out: Any) -> int:
        from installer.commands.launch import prepare_launch, record_session
        from installer.host import launch as exec_host

        ctx = context(g)
        host, warnings = prepare_launch(ctx)
        for w in warnings:
            out.warn(w)
        show_notice(g, out, ctx)
        record_session(ctx, host, args)
        exec_host(host, ctx.agent_dir, args)

    run(g, go)


def list_items(g: Globals) -> NoReturn:
    """`ext list`: every item of the set and its state."""

    def go(out: Any) -> int:
        from installer.links.states import items, with_guard
        from installer.ui import tilde

        ctx = context(g)
        mode, found = items(ctx)
        show_notice(g, out, ctx)
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

    run(g, go)


def env(g: Globals, shell: str) -> NoReturn:
    """`ext env`: the line that points pi at the agent dir."""

    def go(out: Any) -> int:
        from installer.commands.env import env_line

        ctx = context(g)
        line = env_line(ctx.agent_dir, shell)
        if out.json:
            out.data({"agent_dir": str(ctx.agent_dir), "shell": shell, "line": line})
        else:
            sys.stdout.write(line + "\n")
        return 0

    run(g, go)


def uninstall(g: Globals, dry_run: bool, yes: bool) -> NoReturn:
    """`ext uninstall`: remove the set from the agent dir; backups stay."""

    def go(out: Any) -> int:
        from installer.commands.uninstall import uninstall as do_uninstall

        out.plan_result(do_uninstall(context(g), dry_run, confirmer(out, yes)))
        return 0

    run(g, go)


def _switch(g: Globals, names: list[str], on: bool, force: bool, dry_run: bool, yes: bool) -> None:
    def go(out: Any) -> int:
        from installer.commands.toggle import switch

        result = switch(context(g), names, on, force, dry_run, confirmer(out, yes))
        out.plan_result(result)
        return 0

    run(g, go)


def enable(g: Globals, names: list[str], dry_run: bool, yes: bool) -> None:
    """`ext enable NAME…`: switch items back on."""
    _switch(g, names, True, False, dry_run, yes)


def disable(g: Globals, names: list[str], force: bool, dry_run: bool, yes: bool) -> None:
    """`ext disable NAME…`: switch items off, unless a guard refuses (exit 3)."""
    _switch(g, names, False, force, dry_run, yes)


def toggle(
    g: Globals,
    force: bool,
    yes: bool,
    dry_run: bool,
    on: list[str] | None,
    off: list[str] | None,
) -> NoReturn:
    """`ext toggle`: the checklist, or `--on`/`--off` as one plan (what /ext runs)."""

    def go(out: Any) -> int:
        from functools import partial

        from installer.commands.toggle import checkbox, switch_both
        from installer.commands.toggle import toggle as do_toggle
        from installer.errors import UsageError

        if on or off:
            if force:
                raise UsageError("--force is not for --on/--off", "use `ext disable --force`")
            both = names(on, "--on"), names(off, "--off")
            out.plan_result(switch_both(context(g), *both, dry_run, confirmer(out, yes)))
            return 0
        if dry_run:
            raise UsageError("--dry-run needs --on or --off", "name what to switch")
        ask = partial(checkbox, color=not g.no_color)  # --no-color reaches the list too
        out.plan_result(do_toggle(context(g), ask, force, confirmer(out, yes)))
        return 0

    run(g, go)


def _host_for_templates() -> Any:
    """The installed pi, for the package name templates import from; None when not found."""
    from installer.host import find_host

    try:
        return find_host()
    except Exception:  # a broken pi only costs the templates their `paths`
        return None


def init(
    g: Globals,
    folder: Path | None,
    name: str | None,
    dry_run: bool,
    yes: bool,
    no_git: bool,
    from_install_sh: Path | None,
) -> NoReturn:
    """`ext init`: start a set (manifest, an example, README, tsconfig, git)."""

    def go(out: Any) -> int:
        import shutil

        from installer.commands.init import from_install_sh as adopt_repo
        from installer.commands.init import init as do_init
        from installer.context import Env, here
        from installer.errors import UsageError

        host = _host_for_templates()
        if from_install_sh is not None:
            if folder is not None:
                raise UsageError(
                    "--from-install-sh makes the script's own repository a set",
                    "leave out the folder",
                )
            result = adopt_repo(from_install_sh, name, dry_run, confirmer(out, yes), host)
        else:
            target = folder if folder is not None else here(Env.from_process())
            git = shutil.which("git")
            result = do_init(target, name, not no_git, dry_run, confirmer(out, yes), host, git)
        out.plan_result(result)
        return 0

    run(g, go)


def _own_set(g: Globals) -> Path:
    """The set `ext add` and `ext adopt` write into: never the bundled one."""
    from installer.context import Env, find_set
    from installer.errors import UsageError

    root, source = find_set(Env.from_process(), g.set_dir)
    if source == "bundled":
        raise UsageError(
            "no set of yours here: not inside a folder with an extset.toml",
            "cd into your set, pass --set DIR, or start one with `ext init DIR`",
        )
    return root


def add(g: Globals, name: str, kind: str, as_dir: bool, dry_run: bool) -> NoReturn:
    """`ext add NAME`: an extension (or skill, prompt, theme) in the set."""

    def go(out: Any) -> int:
        from installer.commands.add import add as do_add

        root = _own_set(g)
        host = _host_for_templates() if kind in ("extension", "theme") else None
        out.plan_result(do_add(root, name, kind, as_dir, dry_run, confirmer(out, True), host))
        return 0

    run(g, go)


def adopt(
    g: Globals,
    names: list[str] | None,
    every: bool,
    from_dir: Path | None,
    prefer: str | None,
    clean_backups: bool,
    dry_run: bool,
    yes: bool,
) -> NoReturn:
    """`ext adopt`: bring hand-placed extensions into the set, linked back."""

    def go(out: Any) -> int:
        from installer.context import Env, resolve
        from installer.errors import UsageError

        if from_dir is not None and g.agent_dir is not None and from_dir != g.agent_dir:
            raise UsageError("--from and --agent-dir name different folders", "give one of them")
        _own_set(g)
        ctx = resolve(Env.from_process(), g.set_dir, from_dir or g.agent_dir)
        if clean_backups:
            from installer.commands.adopt_clean import clean_backups as clean

            if names or every or prefer:
                raise UsageError("--clean-backups takes no names", "ext adopt --clean-backups")
            out.plan_result(clean(ctx, dry_run, confirmer(out, yes)))
            return 0
        from installer.commands.adopt import adopt as do_adopt

        result = do_adopt(ctx, names or [], every, prefer, dry_run, confirmer(out, yes))
        out.plan_result(result)
        return 0

    run(g, go)


def doctor(
    g: Globals,
    deep: bool,
    strict: bool,
    list_checks: bool,
    check: list[str] | None,
    no_network: bool,
) -> NoReturn:
    """`ext doctor`: what is wrong with the install, and how to fix it."""

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
        subject = resolve_subject(Env.from_process(), g.set_dir, g.agent_dir)
        found = run_checks(subject, names(check), deep, not no_network, debug=g.debug)
        if out.json:
            out.data(to_json(found, strict))
        else:
            for line in table(found, out.paint if out.color else None, quiet=g.quiet):
                out.out(line)
            out.out(summary(found, strict))
        return exit_code(found, strict)

    run(g, go)


def update(g: Globals, check: bool) -> NoReturn:
    """`ext update [--check]`: `--check` or not, the same check (ext upgrades nothing)."""
    del check
    outdated(g)


def outdated(g: Globals) -> NoReturn:
    """`ext outdated`: newer ext, pi or set, and the command to upgrade each."""

    def go(out: Any) -> int:
        from installer.commands.updates import check, lines

        report = check(context(g))
        if out.json:
            out.data(report.to_json())
        else:
            for line in lines(report):
                out.out(line)
        return 0

    run(g, go)


def undo(g: Globals, dry_run: bool, yes: bool) -> NoReturn:
    """`ext undo`: reverse the last change ext made."""

    def go(out: Any) -> int:
        from installer.commands.undo import undo as do_undo

        result = do_undo(context(g), dry_run, confirmer(out, yes))
        if result.plan.is_empty and not out.json:
            out.out("nothing to undo")
            return 0
        out.plan_result(result)
        return 0

    run(g, go)


def history(g: Globals) -> NoReturn:
    """`ext history`: what ext did here, newest first."""

    def go(out: Any) -> int:
        from installer.commands.undo import history as read_history

        out.data_result(read_history(context(g)))
        return 0

    run(g, go)


def settings_migrate(g: Globals, dry_run: bool, yes: bool, remove_retired: bool) -> NoReturn:
    """`ext settings migrate`: renamed keys to their new names; retired ones, if asked."""

    def go(out: Any) -> int:
        from installer.commands.migrate import migrate

        result = migrate(context(g), dry_run, remove_retired, confirmer(out, yes))
        out.plan_result(result)
        return 0

    run(g, go)


def consent_check(g: Globals, project: Path | None) -> NoReturn:
    from installer.cli import consent

    consent.check(g, project)


def consent_approve(
    g: Globals, project: Path | None, yes: bool, dry_run: bool, expect: str | None
) -> NoReturn:
    from installer.cli import consent

    consent.approve(g, project, yes, dry_run, expect)


def consent_revoke(g: Globals, project: Path | None, yes: bool) -> NoReturn:
    from installer.cli import consent

    consent.revoke(g, project, yes)


def consent_list(g: Globals) -> NoReturn:
    from installer.cli import consent

    consent.list_approvals(g)
