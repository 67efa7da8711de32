"""The typer app: arguments in, exit code out. No filesystem logic here; commands do the work."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from installer import __version__
from installer.errors import ExitCode, ExtError, RolledBack, UsageError

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    help="Install your own set of coding-agent extensions into an agent dir, and keep it healthy.",
)


@dataclass
class Globals:
    set_dir: Path | None = None
    agent_dir: Path | None = None
    json: bool = False
    quiet: bool = False
    no_color: bool = False
    debug: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


G = Globals()


def _output() -> Any:
    from installer.context import Env
    from installer.ui import Output, use_color

    env = Env.from_process()
    color = use_color(G.no_color, dict(env.environ), sys.stdout)
    return Output(json=G.json, quiet=G.quiet, color=color)


def run(fn: Callable[[Any], int | None]) -> NoReturn:
    """Call a command with the Output; map an ExtError to its message, fix and exit code."""
    out = _output()
    try:
        code = fn(out) or 0
    except ExtError as exc:
        out.error(exc)
        if G.debug:
            raise
        raise typer.Exit(int(exc.exit_code)) from None
    except KeyboardInterrupt as exc:
        done = (
            "what it had written was rolled back"
            if isinstance(exc, RolledBack)
            else "nothing was written"
        )
        out.err(f"interrupted; {done}")
        raise typer.Exit(int(ExitCode.REFUSED)) from None
    except BrokenPipeError:  # `ext list | head`: the reader is gone, nothing to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise typer.Exit(int(ExitCode.FAILED)) from None
    except OSError as exc:  # a last resort: a fault no command turned into an ExtError
        if G.debug:
            raise
        where = f": {exc.filename}" if exc.filename else ""
        out.error(ExtError(f"{exc.strerror or exc}{where}", "run again with --debug for details"))
        raise typer.Exit(int(ExitCode.FAILED)) from None
    raise typer.Exit(code)


def context(create: bool = False) -> Any:
    from installer.context import Env, resolve

    return resolve(Env.from_process(), G.set_dir, G.agent_dir, create=create)


def show_notice(out: Any, ctx: Any) -> None:
    """The cached update notice, at most once a day, on stderr; never waits on the network."""
    from installer.commands.updates import notice

    text = notice(ctx)
    if text and not G.quiet:
        out.err(text)


def _version(value: bool) -> None:
    if not value:
        return
    from installer.host import find_host

    try:
        host = find_host()
    except Exception:  # a broken host never breaks --version
        host = None
    if "--json" in sys.argv:
        data = {"ext": __version__, "host": None if host is None else host.version}
        typer.echo(json.dumps(data))
    else:
        pi = "pi not found" if host is None else f"pi {host.version or 'version unknown'}"
        typer.echo(f"ext {__version__} ({pi})")
    raise typer.Exit(0)


@app.callback()
def main_options(
    set_dir: Annotated[
        Path | None, typer.Option("--set", help="The set folder (else EXT_SET, cwd, bundled).")
    ] = None,
    agent_dir: Annotated[
        Path | None,
        typer.Option("--agent-dir", help="The agent dir (else EXT_AGENT_DIR, manifest, isolated)."),
    ] = None,
    json: Annotated[bool, typer.Option("--json", help="Print JSON on stdout.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print less.")] = False,
    no_color: Annotated[bool, typer.Option("--no-color", help="No colour (or NO_COLOR).")] = False,
    debug: Annotated[bool, typer.Option("--debug", help="Show tracebacks.")] = False,
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Show versions and exit."),
    ] = False,
) -> None:
    """Install your own set of coding-agent extensions into an agent dir, and keep it healthy."""
    G.set_dir, G.agent_dir, G.json, G.quiet = set_dir, agent_dir, json, quiet
    G.no_color, G.debug = no_color, debug


def _names(values: list[str] | None) -> list[str]:
    """`--only a,b --only c` -> [a, b, c]."""
    return [n.strip() for v in values or [] for n in v.split(",") if n.strip()]


Only = Annotated[
    list[str] | None, typer.Option("--only", help="Install just these names (comma-separated).")
]
Skip = Annotated[list[str] | None, typer.Option("--skip", help="Install all but these names.")]
DryRun = Annotated[bool, typer.Option("--dry-run", help="Show the plan; write nothing.")]
Yes = Annotated[bool, typer.Option("--yes", "-y", help="Apply without asking.")]


def _confirmer(out: Any, yes: bool) -> Callable[[Any, tuple[str, ...]], None]:
    stdin_tty = sys.stdin is not None and sys.stdin.isatty()
    return lambda plan, diffs: out.confirm(plan, yes, stdin_tty, diffs)


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
        typer.Option("--mode", help="link (symlinks) or register (a package in settings.json)."),
    ] = None,
) -> None:
    """Link every resource of the set into the agent dir (backing up what is in the way)."""

    def go(out: Any) -> int:
        from installer.commands.install import install as do_install

        ctx = context(create=create)
        result = do_install(ctx, _names(only), _names(skip), dry_run, _confirmer(out, yes), mode)
        out.plan_result(result)
        show_notice(out, ctx)
        if result.applied and not G.quiet and ctx.agent_dir_source == "isolated":
            out.err('pi reads it with: eval "$(ext env)"   (or run `ext launch`)')
        return 0

    run(go)


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def launch(ctx: typer.Context) -> None:
    """Run the host with PI_CODING_AGENT_DIR set to the agent dir: ext launch -- ARGS…"""

    def go(out: Any) -> int:
        from installer.commands.launch import prepare_launch, record_session
        from installer.host import launch as exec_host

        c = context()
        host, warnings = prepare_launch(c)
        for w in warnings:
            out.warn(w)
        show_notice(out, c)
        record_session(c, host, list(ctx.args))
        exec_host(host, c.agent_dir, list(ctx.args))

    run(go)


@app.command()
def uninstall(dry_run: DryRun = False, yes: Yes = False) -> None:
    """Remove the set's links (enabled and disabled) from the agent dir; backups stay."""

    def go(out: Any) -> int:
        from installer.commands.uninstall import uninstall as do_uninstall

        out.plan_result(do_uninstall(context(), dry_run, _confirmer(out, yes)))
        return 0

    run(go)


@app.command("list")
def list_items() -> None:
    """Every item of the set and its state in the agent dir."""

    def go(out: Any) -> int:
        from installer.commands.listing import items
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
                    "items": [i.to_json() for i in found],
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
            out.out(line + (f"  ({i.note})" if i.note else ""))
        return 0

    run(go)


@app.command()
def env(
    shell: Annotated[str, typer.Option("--shell", help="sh, bash, zsh or fish.")] = "sh",
) -> None:
    """Print the line that points pi at the agent dir: eval "$(ext env)"."""

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


@app.command()
def doctor(
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON on stdout.")] = False,
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
    """Check the set, the agent dir, settings.json and the host; say how to fix each problem."""
    G.json = G.json or json_out

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
            chosen = select_checks(_names(check), deep=True)
            if out.json:
                out.data({"checks": [c.to_json() for c in chosen or CHECKS]})
            else:
                for line in check_list(chosen):
                    out.out(line)
            return 0
        subject = resolve_subject(Env.from_process(), G.set_dir, G.agent_dir)
        found = run_checks(subject, _names(check), deep, not no_network, debug=G.debug)
        if out.json:
            out.data(to_json(found, strict))
        else:
            for line in table(found, out.paint if out.color else None, quiet=G.quiet):
                out.out(line)
            out.out(summary(found, strict))
        return exit_code(found, strict)

    run(go)


from installer.cli_consent import consent_app  # noqa: E402

app.add_typer(consent_app, name="consent")

from installer.cli_settings import settings_app  # noqa: E402

app.add_typer(settings_app, name="settings")


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
    """Say what is out of date (ext, pi, the set) and the command that upgrades each.

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
    """Reverse the last install, uninstall, enable/disable or settings change."""

    def go(out: Any) -> int:
        from installer.commands.undo import undo as do_undo

        result = do_undo(context(), dry_run, _confirmer(out, yes))
        if result.plan.is_empty and not out.json:
            out.out("nothing to undo")
            return 0
        out.plan_result(result)
        return 0

    run(go)


@app.command()
def history() -> None:
    """What ext did in this agent dir, newest first (from its journal)."""

    def go(out: Any) -> int:
        from installer.commands.undo import history as read_history

        out.data_result(read_history(context()))
        return 0

    run(go)


ItemNames = Annotated[
    list[str],
    typer.Argument(metavar="NAME", help="Items of the set: notify, notify.ts, skill:review."),
]
Force = Annotated[
    bool, typer.Option("--force", help="Disable even when a guard refuses (warns of the risk).")
]


def _switch(names: list[str], enable: bool, force: bool, dry_run: bool, yes: bool) -> None:
    def go(out: Any) -> int:
        from installer.commands.toggle import switch

        result = switch(context(), names, enable, force, dry_run, _confirmer(out, yes))
        out.plan_result(result)
        return 0

    run(go)


@app.command()
def enable(names: ItemNames, dry_run: DryRun = False, yes: Yes = False) -> None:
    """Switch items of the set back on (link mode: rename the link; register: drop the filter)."""
    _switch(names, True, False, dry_run, yes)


@app.command()
def disable(
    names: ItemNames, force: Force = False, dry_run: DryRun = False, yes: Yes = False
) -> None:
    """Switch items of the set off, unless a guard in the manifest refuses (exit 3)."""
    _switch(names, False, force, dry_run, yes)


@app.command()
def toggle(force: Force = False, yes: Yes = False) -> None:
    """Pick what is on in a checkbox list; every change applies at once, after you confirm."""

    def go(out: Any) -> int:
        from installer.commands.toggle import checkbox
        from installer.commands.toggle import toggle as do_toggle

        out.plan_result(do_toggle(context(), checkbox, force, _confirmer(out, yes)))
        return 0

    run(go)


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
    """Start a set: extset.toml, an example extension, README, .gitignore, tsconfig.json, git."""

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
            result = adopt_repo(from_install_sh, name, dry_run, _confirmer(out, yes), host)
        else:
            target = folder if folder is not None else here(Env.from_process())
            git = shutil.which("git")
            result = do_init(target, name, not no_git, dry_run, _confirmer(out, yes), host, git)
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
    """Add a new extension (or skill, prompt, theme) to the set, from a template."""

    def go(out: Any) -> int:
        from installer.commands.add import add as do_add

        root = _own_set()
        host = _host_for_templates() if kind in ("extension", "theme") else None
        out.plan_result(do_add(root, name, kind, as_dir, dry_run, _confirmer(out, True), host))
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
    """Move extensions you placed by hand in the agent dir into the set, linked back in place."""

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
            out.plan_result(clean(ctx, dry_run, _confirmer(out, yes)))
            return 0
        from installer.commands.adopt import adopt as do_adopt

        result = do_adopt(ctx, names or [], every, prefer, dry_run, _confirmer(out, yes))
        out.plan_result(result)
        return 0

    run(go)


_GLOBAL_FLAGS = frozenset({"--json", "--quiet", "-q", "--no-color", "--debug"})
_GLOBAL_OPTIONS = frozenset({"--set", "--agent-dir"})
_PASSTHROUGH = frozenset({"launch"})  # whatever follows is the host's


def hoist_globals(argv: list[str]) -> list[str]:
    """Let global options stand after the command too: `ext install --yes --json`."""
    front: list[str] = []
    rest: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--" or arg in _PASSTHROUGH:
            rest.extend(argv[i:])
            break
        name = arg.split("=", 1)[0]
        if arg in _GLOBAL_FLAGS or (name in _GLOBAL_OPTIONS and "=" in arg):
            front.append(arg)
        elif arg in _GLOBAL_OPTIONS and i + 1 < len(argv):
            front.extend(argv[i : i + 2])
            i += 1
        else:
            rest.append(arg)
        i += 1
    return front + rest


def main() -> None:
    """Console-script entry point."""
    argv = hoist_globals(sys.argv[1:])
    try:
        if "--json" not in argv:
            app(args=argv, prog_name="ext")
            return
        # Under --json even a usage error the parser raises is a JSON document on stdout.
        code = app(args=argv, prog_name="ext", standalone_mode=False)
        sys.exit(code if isinstance(code, int) else 0)
    except UsageError as exc:  # raised before a command's own handler (e.g. in a callback)
        sys.stderr.write(f"error: {exc.message}\n")
        sys.exit(int(exc.exit_code))
    except Exception as exc:
        format_message = getattr(exc, "format_message", None)
        if format_message is None:  # not a parser error
            raise
        code = int(getattr(exc, "exit_code", ExitCode.USAGE))
        sys.stdout.write(json.dumps({"error": format_message(), "exit_code": code}) + "\n")
        sys.exit(code)
