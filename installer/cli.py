"""The typer app: arguments in, exit code out. No filesystem logic here; commands do the work.

The everyday commands usually never get here: installer.entry parses their plain forms by
hand (installer.argv) and calls the same handlers; help, errors and every other command
come through this app.
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Annotated

import typer

from installer import completion, handlers
from installer.argv import command_of, hoist_globals
from installer.errors import UsageError
from installer.runner import G

app = typer.Typer(
    add_completion=True,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    help="Install your own set of coding-agent extensions into an agent dir, and keep it healthy.",
)


def _version(value: bool) -> None:
    if value:
        handlers.version("--json" in sys.argv)


@app.callback()
def main_options(
    set_dir: Annotated[
        Path | None, typer.Option("--set", help="The set folder (else EXT_SET, cwd, bundled).")
    ] = None,
    agent_dir: Annotated[
        Path | None,
        typer.Option(
            "--agent-dir",
            help="The agent dir (else EXT_AGENT_DIR, PI_CODING_AGENT_DIR, manifest, isolated).",
        ),
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


Only = Annotated[
    list[str] | None,
    typer.Option(
        "--only",
        help="Install just these names (comma-separated).",
        autocompletion=completion.item_names,
    ),
]
Skip = Annotated[
    list[str] | None,
    typer.Option(
        "--skip", help="Install all but these names.", autocompletion=completion.item_names
    ),
]
DryRun = Annotated[bool, typer.Option("--dry-run", help="Show the plan; write nothing.")]
Yes = Annotated[bool, typer.Option("--yes", "-y", help="Apply without asking.")]


# The commands live in one module per group; importing them registers them on `app`.
from installer import cli_links, cli_set, cli_tools  # noqa: E402, F401
from installer.cli_consent import consent_app  # noqa: E402

app.add_typer(consent_app, name="consent")

from installer.cli_settings import settings_app  # noqa: E402

app.add_typer(settings_app, name="settings")


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
    """The typer way in: every command line installer.entry did not parse by hand."""
    from installer.coercion import use_plain_coercion

    use_plain_coercion()
    argv = hoist_globals(sys.argv[1:])
    import typer

    command = command_of(argv)
    try:
        cli = _only(command)
        # Not standalone: the parser's errors come back here, to be printed in ext's style.
        code = cli(args=argv, prog_name="ext", standalone_mode=False)
        sys.exit(code if isinstance(code, int) else 0)
    except UsageError as exc:  # raised before a command's own handler (e.g. in a callback)
        from installer.ui import escape

        sys.stderr.write(f"error: {escape(exc.message)}\n")
        if exc.fix:
            sys.stderr.write(f"  fix: {escape(exc.fix)}\n")
        sys.exit(int(exc.exit_code))
    except typer.Abort:
        sys.stderr.write("error: interrupted; nothing more was done\n")
        sys.exit(1)
    except Exception as exc:
        if not hasattr(exc, "format_message"):  # not the parser's: a bug, with its traceback
            raise
        from installer.cli_errors import render

        known = command if command is not None and _only(command) is not app else None
        sys.exit(render(exc, "--json" in argv, "--no-color" in argv, known))
