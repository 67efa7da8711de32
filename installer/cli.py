"""The typer app: arguments in, exit code out. No filesystem logic here; commands do the work."""

from __future__ import annotations

import copy
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
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
    from installer.notices import listen

    listen(out.err)  # a wait on pi's lock, say, is said instead of looking like a hang
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
        import json

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


def _names(values: list[str] | None, option: str = "--only") -> list[str]:
    """`--only a,b --only c` -> [a, b, c]; given but naming nothing is a usage error."""
    names = [n.strip() for v in values or [] for n in v.split(",") if n.strip()]
    if values and not names:
        raise UsageError(f"{option} names nothing", f"give {option} a name, or leave it out")
    return names


Only = Annotated[
    list[str] | None, typer.Option("--only", help="Install just these names (comma-separated).")
]
Skip = Annotated[list[str] | None, typer.Option("--skip", help="Install all but these names.")]
DryRun = Annotated[bool, typer.Option("--dry-run", help="Show the plan; write nothing.")]
Yes = Annotated[bool, typer.Option("--yes", "-y", help="Apply without asking.")]


def _confirmer(out: Any, yes: bool) -> Callable[[Any, tuple[str, ...]], None]:
    stdin_tty = sys.stdin is not None and sys.stdin.isatty()
    return lambda plan, diffs: out.confirm(plan, yes, stdin_tty, diffs)


# The commands live in one module per group; importing them registers them on `app`.
from installer import cli_links, cli_set, cli_tools  # noqa: E402, F401
from installer.cli_consent import consent_app  # noqa: E402

app.add_typer(consent_app, name="consent")

from installer.cli_settings import settings_app  # noqa: E402

app.add_typer(settings_app, name="settings")


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
        if arg == "--" or (arg in _PASSTHROUGH and not rest):  # `launch` as the command
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


def _command_of(argv: list[str]) -> str | None:
    """The command argv runs (globals come first, after hoist_globals); None for help and such."""
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in _GLOBAL_OPTIONS:
            i += 2
            continue
        if arg in _GLOBAL_FLAGS or arg.split("=", 1)[0] in _GLOBAL_OPTIONS:
            i += 1
            continue
        if arg == "--version":  # eager: it prints and exits before any command
            return arg
        return None if arg.startswith("-") else arg
    return None


def _only(name: str | None) -> typer.Typer:
    """The app with just the command `name`: typer builds every command's options before it runs
    one (~1.5 ms each). Help and unknown names get the whole app (the list, the suggestion)."""
    if name is None:
        return app
    commands = [
        c
        for c in app.registered_commands
        if name == (c.name or getattr(c.callback, "__name__", "").lower().replace("_", "-"))
    ]
    groups = [g for g in app.registered_groups if g.name == name]
    if not commands and not groups and name != "--version":
        return app
    slim = copy.copy(app)
    slim.registered_commands, slim.registered_groups = commands, groups
    return slim


def main() -> None:
    """Console-script entry point."""
    from installer.coercion import use_plain_coercion

    use_plain_coercion()
    argv = hoist_globals(sys.argv[1:])
    try:
        cli = _only(_command_of(argv))
        if "--json" not in argv:
            cli(args=argv, prog_name="ext")
            return
        # Under --json even a usage error the parser raises is a JSON document on stdout.
        code = cli(args=argv, prog_name="ext", standalone_mode=False)
        sys.exit(code if isinstance(code, int) else 0)
    except UsageError as exc:  # raised before a command's own handler (e.g. in a callback)
        sys.stderr.write(f"error: {exc.message}\n")
        sys.exit(int(exc.exit_code))
    except Exception as exc:
        format_message = getattr(exc, "format_message", None)
        if format_message is None:  # not a parser error
            raise
        code = int(getattr(exc, "exit_code", ExitCode.USAGE))
        import json

        sys.stdout.write(json.dumps({"error": format_message(), "exit_code": code}) + "\n")
        sys.exit(code)
