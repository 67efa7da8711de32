"""The click app, built from installer.cli.grammar: help, parser errors, shell completion,
and every command line the hand parser (installer.cli.fast) does not take.

click's public API builds commands from data (`click.Command`, `click.Option`,
`click.Argument`), so the declaration is read here as it is, with no decorated function per
command. Each command's callback hands the global options and its own values to its call in
installer.cli.calls.
"""

from __future__ import annotations

import difflib
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

import click

from installer.cli import calls, completion
from installer.cli.fast import command_at, command_of, globals_of, hoist_globals
from installer.cli.grammar import (
    COMMANDS,
    GLOBALS,
    GROUPS,
    HELP,
    HELP_FLAGS,
    INSTALL_COMPLETION,
    LAUNCH_HELP_FLAGS,
    SHOW_COMPLETION,
    VERSION,
    Argument,
    Command,
    Option,
)
from installer.cli.options import Globals
from installer.ground.errors import ExtError, UsageError

if TYPE_CHECKING:
    from installer.cli.grammar import Completer
    from installer.ground.completion_files import Installed


class _Given(click.ParamType[Any]):
    """A value that is there: `--agent-dir ""` is a usage error, not the current folder (as
    `Path("")` is), and `--host ""` not the default host."""

    def __init__(self, inner: click.ParamType[Any], what: str) -> None:
        self.inner = inner
        self.name = inner.name
        self.what = what  # "a path" or "a value", for the fix

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if value == "" and not (ctx is not None and ctx.resilient_parsing):  # not on <TAB>
            raise _empty(param, self.what)
        return self.inner.convert(value, param, ctx)

    def shell_complete(
        self, ctx: click.Context, param: click.Parameter, incomplete: str
    ) -> list[Any]:
        return self.inner.shell_complete(ctx, param, incomplete)


def _empty(param: click.Parameter | None, what: str) -> UsageError:
    """An empty value, named as it was typed (`--agent-dir`, `FOLDER`), with the fix."""
    if isinstance(param, click.Option):
        shown = max(param.opts, key=len)
    else:
        shown = (param.metavar if param is not None else None) or "the argument"
        shown = shown.strip("[].")
    optional = param is None or not param.required
    fix = f"give {shown} {what}" + (", or leave it out" if optional else "")
    return UsageError(f"{shown} is empty", fix)


_TYPES: dict[str, click.ParamType[Any]] = {
    "text": _Given(click.STRING, "a value"),
    "path": _Given(click.Path(path_type=Path), "a path"),
}
_COMPLETERS = {
    "items": completion.item_names,
    "modes": completion.modes,
    "hosts": completion.hosts,
    "shells": completion.shells,
}


class _Group(click.Group):
    """A group that lists its commands in the grammar's order, and whose unknown command names
    the closest one, as an unknown option does."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(self.commands)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0] if args else ""
        if args and self.get_command(ctx, name) is None and not name.startswith("-"):
            close = difflib.get_close_matches(name, self.list_commands(ctx), n=1, cutoff=0.6)
            if close:
                ctx.fail(f"No such command {name!r}.\nDid you mean {close[0]!r}?")
        return super().resolve_command(ctx, args)


def _completer(name: Completer | None) -> Any:
    if name is None:
        return None
    answer = _COMPLETERS[name]
    return lambda ctx, param, incomplete: answer(ctx, incomplete)


def _option(o: Option) -> click.Option:
    decls = [*o.flags, o.dest]
    if o.kind == "flag":
        return click.Option(decls, is_flag=True, default=False, help=o.help)
    return click.Option(
        decls,
        type=_TYPES.get(o.kind, _TYPES["text"]),
        multiple=o.kind == "list",
        default=o.default,
        show_default=o.default is not None,
        metavar=o.metavar or ("NAME,…" if o.commas else None),  # helper-90: `--on TEXT`
        help=o.help,
        shell_complete=_completer(o.complete),
    )


def _argument(a: Argument) -> click.Argument:
    return click.Argument(
        [a.dest],
        type=_TYPES.get(a.kind, _TYPES["text"]),
        nargs=-1 if a.kind == "list" else 1,
        required=a.required,
        metavar=_usage(a),
        shell_complete=_completer(a.complete),
    )


def _usage(a: Argument) -> str:
    """An argument as the usage line shows it, click's way: `[DIR]` when optional, `NAME...`
    when it takes several."""
    shown = a.metavar if a.required else f"[{a.metavar}]"
    return f"{shown}..." if a.kind == "list" else shown


def _values(command: Command, raw: dict[str, Any]) -> dict[str, Any]:
    """click's values as the calls take them: a list not given is None, as in installer.cli.fast."""
    lists = {o.dest for o in command.options if o.kind == "list"}
    lists |= {a.dest for a in command.arguments if a.kind == "list"}
    return {k: (list(v) or None if k in lists else v) for k, v in raw.items()}


def _command(command: Command) -> click.Command:
    def callback(**raw: Any) -> None:
        ctx = click.get_current_context()
        g = ctx.find_root().obj or Globals()
        values = {"args": list(ctx.args)} if command.passthrough else _values(command, raw)
        calls.call(command.call, g, values)

    # a passthrough command's -h is the host's (`ext launch -h` is `pi -h`)
    settings = {
        "allow_extra_args": True,
        "ignore_unknown_options": True,
        "help_option_names": sorted(LAUNCH_HELP_FLAGS),
    }
    return click.Command(
        command.path[-1],
        callback=callback,
        params=[*map(_argument, command.arguments), *map(_option, command.options)],
        help=_with_arguments(command),
        short_help=command.help.split("\n", 1)[0],
        context_settings=settings if command.passthrough else None,
        options_metavar="[--help] [--] [ARGS]..." if command.passthrough else "[OPTIONS]",
    )


def _with_arguments(command: Command) -> str:
    """click prints no help of its own for arguments: the command's help says them."""
    lines = [f"  {a.metavar}  {a.help}" for a in command.arguments]
    return command.help + ("\n\n\b\nArguments:\n" + "\n".join(lines) if lines else "")


def _completion(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    """`--install-completion` / `--show-completion`: eager, so they run before any command."""
    import os

    if not value:
        return
    environ = dict(os.environ)
    shell = completion.shell_of(environ)
    text = completion.script(ctx.command, shell)
    if param.name == "show_completion":
        sys.stdout.write(text)
    else:
        from installer.ground import completion_files as files

        where = files.place(shell, Path.home(), environ)
        try:
            done = files.install(where, files.owned(shell, text))
        except OSError as err:
            raise _not_written(err, where.script) from None
        sys.stderr.write("".join(f"{line}\n" for line in _installed(done)))
    ctx.exit(0)


def _not_written(err: OSError, script: Path) -> ExtError:
    """A completion file that could not be written, with the fix for its cause."""
    import errno

    from installer.ground.errors import write_fix
    from installer.ground.shellword import shell_word
    from installer.render.ui import tilde

    name = Path(err.filename) if err.filename else script
    folder = tilde(name.parent)
    if err.errno == errno.ENOENT:  # $ZDOTDIR naming a folder that is not there, say
        mkdir = f"mkdir -p {shell_word(name.parent)}"
        fix = f"make the folder first ({mkdir}), or point the shell elsewhere"
    else:
        fix = write_fix(err.errno, folder)
    return ExtError(f"cannot write {tilde(name)}: {err.strerror}", fix)


def _installed(done: Installed) -> list[str]:
    """What `--install-completion` wrote where, and how to take it back."""
    from installer.render.ui import tilde

    p = done.place
    script, rc = tilde(p.script), tilde(p.rc) if p.rc else None
    if not (done.wrote or done.added):
        loaded = f", loaded from {rc}" if rc else ""
        return [f"{p.shell} completion is installed already: {script}{loaded}; nothing written"]
    lines = [f"{'updated' if done.updated else 'wrote'} {script}"] if done.wrote else []
    if done.added:
        lines.append(f"added to {rc}: {p.line}")
    undo = f"delete {script}" + (f" (the line in {rc} then does nothing)" if rc else "")
    return [*lines, f"{p.shell} completion works in a new shell; to remove it, {undo}"]


def _eager(option: Option, callback: Any) -> click.Option:
    return click.Option(
        [*option.flags, option.dest],
        is_flag=True,
        is_eager=True,
        expose_value=False,
        callback=callback,
        help=option.help,
    )


class _Root(_Group):
    """ext itself: `--version` answers once every global option is parsed, so `--json` may
    stand before or after it; before any command is looked up, as an eager option would."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        rest = super().parse_args(ctx, args)
        if ctx.params.pop(VERSION.dest, False) and not ctx.resilient_parsing:  # not on <TAB>
            g = Globals(**ctx.params)
            calls.version(g, g.json)
        return rest


def _root(**values: Any) -> None:
    click.get_current_context().obj = Globals(**values)


def build() -> click.Group:
    """The whole app: the root with the global options, its groups and commands."""
    eager = [_eager(o, _completion) for o in (INSTALL_COMPLETION, SHOW_COMPLETION)]
    root = _Root(
        "ext",
        help=HELP,
        params=[*map(_option, GLOBALS), _option(VERSION), *eager],
        callback=_root,
        context_settings={"help_option_names": sorted(HELP_FLAGS)},  # its commands' too
    )
    root.no_args_is_help = True
    groups: dict[str, click.Group] = {}
    for group in GROUPS:
        groups[group.name] = _Group(group.name, help=group.help, no_args_is_help=True)
        root.add_command(groups[group.name])
    for command in COMMANDS:
        parent = groups[command.path[0]] if len(command.path) > 1 else root
        parent.add_command(_command(command))
    return root


app = build()


def main() -> None:
    """The click way in: every command line installer.cli.entry did not parse by hand."""
    argv = hoist_globals(sys.argv[1:])
    argv = _help_asked(argv)
    stdout = sys.stdout
    try:
        # Not standalone: the parser's errors come back here, to be printed in ext's style.
        code = app.main(args=argv, prog_name="ext", standalone_mode=False)
        sys.exit(code if isinstance(code, int) else 0)
    except SystemExit:
        if sys.stdout is not stdout:  # click met a gone reader (`ext --help | head -c0`)
            _reader_gone_from_clicks_own_output(stdout)
        raise
    except ExtError as exc:  # raised before a command's own handler (e.g. by a value's type)
        from installer.cli.errors import print_error

        g = globals_of(argv)
        sys.exit(print_error(exc, g.json, g.no_color))
    except click.Abort:
        sys.stderr.write("error: interrupted; nothing more was done\n")
        sys.exit(1)
    except click.ClickException as exc:
        from installer.cli.errors import render

        # click raises some errors (an option missing its value) without a context: the
        # command argv names still says whose help to read.
        command = command_of(argv)
        known = command if command in app.commands else None
        g = globals_of(argv)
        sys.exit(render(exc, g.json, g.no_color, known, argv))


def _help_asked(argv: list[str]) -> list[str]:
    """`ext help` and `ext help install` as `ext --help` and `ext install --help` (helper-81:
    both were refused, with a fix naming --help)."""
    if command_of(argv) != "help":
        return argv
    first = command_at(argv)  # not argv.index: `--set help` names a folder (helper-83)
    rest = argv[first + 1 :]
    if rest[:1] == ["help"]:  # `ext help help`: the help's help is the help (helper-84)
        return _help_asked([*argv[:first], *rest])
    return [*argv[:first], *rest, "--help"]


def _reader_gone_from_clicks_own_output(stdout: TextIO) -> NoReturn:
    """click's own output (help) met a reader that is gone: click wraps stdout and exits 1. The
    help was all there was to do, so this is met as every read-only command of ext meets it
    (installer.ground.streams): nothing said, exit 0. ext's commands write through an Output,
    which never lets the fault reach click."""
    from installer.ground.streams import let_go

    sys.stdout = stdout
    let_go(1)  # the flush at exit goes nowhere; a reader that read enough is not told so
    sys.exit(0)
