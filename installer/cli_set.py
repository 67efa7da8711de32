"""`ext init`, `add`, `adopt`: making a set and bringing extensions into it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from installer.cli import DryRun, Yes, app
from installer.errors import UsageError
from installer.runner import G, confirmer, run


def _host_for_templates() -> Any:
    """The installed pi, for the package name templates import from; None when not found."""
    from installer.host import find_host

    try:
        return find_host()
    except Exception:  # a broken pi only costs the templates their `paths`
        return None


@app.command()
def init(
    folder: Annotated[
        Path | None, typer.Argument(help="Where the set goes (default: here).")
    ] = None,
    name: Annotated[str | None, typer.Option("--name", help="The set's name.")] = None,
    dry_run: DryRun = False,
    yes: Yes = False,
    no_git: Annotated[bool, typer.Option("--no-git", help="Do not run git init.")] = False,
    from_install_sh: Annotated[
        Path | None,
        typer.Option(
            "--from-install-sh",
            help="Make the repository of this install.sh a set in place (never runs it).",
        ),
    ] = None,
) -> None:
    """Start a set (manifest, an example, README, tsconfig, git)."""

    def go(out: Any) -> int:
        import shutil

        from installer.commands.init import from_install_sh as adopt_repo
        from installer.commands.init import init as do_init
        from installer.context import Env, here

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

    run(go)


def _own_set() -> Path:
    """The set `ext add` and `ext adopt` write into: never the bundled one."""
    from installer.context import Env, find_set

    root, source = find_set(Env.from_process(), G.set_dir)
    if source == "bundled":
        raise UsageError(
            "no set of yours here: not inside a folder with an extset.toml",
            "cd into your set, pass --set DIR, or start one with `ext init DIR`",
        )
    return root


@app.command()
def add(
    name: Annotated[str, typer.Argument(help="The new item's name, e.g. notify.")],
    kind: Annotated[
        str, typer.Option("--kind", help="extension, skill, prompt or theme.")
    ] = "extension",
    as_dir: Annotated[
        bool, typer.Option("--dir", help="A folder extension (<name>/index.ts).")
    ] = False,
    dry_run: DryRun = False,
) -> None:
    """Add an extension (or skill, prompt, theme) to the set."""

    def go(out: Any) -> int:
        from installer.commands.add import add as do_add

        root = _own_set()
        host = _host_for_templates() if kind in ("extension", "theme") else None
        out.plan_result(do_add(root, name, kind, as_dir, dry_run, confirmer(out, True), host))
        return 0

    run(go)


@app.command()
def adopt(
    names: Annotated[
        list[str] | None, typer.Argument(help="Files or folders to adopt: notify, skill:review.")
    ] = None,
    every: Annotated[bool, typer.Option("--all", help="Adopt every one there is.")] = False,
    from_dir: Annotated[
        Path | None, typer.Option("--from", help="The agent dir to adopt from (else --agent-dir).")
    ] = None,
    prefer: Annotated[
        str | None,
        typer.Option("--prefer", help="When the set has the same name: keep 'set' or 'agent'."),
    ] = None,
    clean_backups: Annotated[
        bool, typer.Option("--clean-backups", help="Delete the backups adoption kept.")
    ] = False,
    dry_run: DryRun = False,
    yes: Yes = False,
) -> None:
    """Bring hand-placed extensions into the set, linked back."""

    def go(out: Any) -> int:
        from installer.context import Env, resolve

        if from_dir is not None and G.agent_dir is not None and from_dir != G.agent_dir:
            raise UsageError("--from and --agent-dir name different folders", "give one of them")
        _own_set()
        ctx = resolve(Env.from_process(), G.set_dir, from_dir or G.agent_dir)
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

    run(go)
