"""argv before any framework: global options may follow the command, and the everyday
commands are parsed by hand, from the same declaration the click app is built from.

`ext --version`, `list`, `env`, `install` and `launch` run many times a day, and importing
click costs more than the rest of such a run. `parse` takes their plain forms (known
options, each value given once) and returns None for anything else: help, a typo, an odd
value. Those go to the click app (installer.cli.app), which owns every message about a
command line.
"""

from __future__ import annotations

from pathlib import Path

from installer.cli.grammar import (
    COMMANDS,
    GLOBALS,
    LAUNCH_HELP_FLAGS,
    VERSION,
    Command,
    Option,
)
from installer.cli.options import Globals
from installer.ground.records import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class Spec(NamedTuple):
    """A hand-parsed command: its flags and options (token -> dest), and their defaults."""

    command: Command | None
    flags: dict[str, str]
    options: dict[str, str]
    lists: frozenset[str]  # options that may repeat, collected in order
    defaults: dict[str, Any]


def _spec(command: Command | None, options: tuple[Option, ...]) -> Spec:
    flags = {f: o.dest for o in options if o.kind == "flag" for f in o.flags}
    valued = {f: o.dest for o in options if o.kind != "flag" for f in o.flags}
    lists = frozenset(o.dest for o in options if o.kind == "list")
    defaults = {o.dest: (False if o.kind == "flag" else o.default) for o in options}
    return Spec(command, flags, valued, lists, defaults)


_GLOBAL_FLAGS = {f: o.dest for o in GLOBALS if o.kind == "flag" for f in o.flags}
_GLOBAL_OPTIONS = {f: o.dest for o in GLOBALS if o.kind != "flag" for f in o.flags}
_GLOBAL_PATHS = frozenset(o.dest for o in GLOBALS if o.kind == "path")


def _global(dest: str, value: str) -> Path | str:
    """A global option's value as the app's parser gives it: a Path for a path option."""
    return Path(value) if dest in _GLOBAL_PATHS else value


_ROOT = _spec(None, (VERSION,))  # before any command
_SPECS = {c.name: _spec(c, c.options) for c in COMMANDS if c.fast and not c.passthrough}
_PASSTHROUGH = frozenset(c.name for c in COMMANDS if c.passthrough)


class Call(NamedTuple):
    """What argv asks for: a command's call (or "--version"), its arguments, the globals."""

    call: str
    args: dict[str, Any]
    globals: Globals


def parse(argv: list[str]) -> Call | None:
    """The everyday command argv runs, parsed; None when the click app should parse it."""
    spec = _ROOT
    args: dict[str, Any] = {}
    found: dict[str, Any] = {}
    i = 0
    while i < len(argv):
        token = argv[i]
        name = token.partition("=")[0]
        if token in _GLOBAL_FLAGS:
            found[_GLOBAL_FLAGS[token]] = True
        elif token in spec.flags:
            args[spec.flags[token]] = True
        elif name in _GLOBAL_OPTIONS or name in spec.options:
            value, i = option_value(argv, i)
            if value is None or not _take(name, value, spec, args, found):
                return None
        elif spec.command is None and token in _SPECS and "version" not in args:
            spec = _SPECS[token]
        elif spec.command is None and token in _PASSTHROUGH and "version" not in args:
            return _launch(argv[i + 1 :], found)
        else:
            return None
        i += 1
    if "version" in args:
        return Call("version", {"as_json": found.get("json", False)}, Globals(**found))
    if spec.command is None:
        return None
    return Call(spec.command.call, {**spec.defaults, **args}, Globals(**found))


def _launch(rest: list[str], found: dict[str, Any]) -> Call | None:
    """`launch`: the rest is the host's, less the first `--` (as click drops it); `--help`
    before it is launch's own help, for click to print. `-h` is pi's there."""
    cut = rest.index("--") if "--" in rest else len(rest)
    if not LAUNCH_HELP_FLAGS.isdisjoint(rest[:cut]):
        return None
    return Call("launch", {"args": rest[:cut] + rest[cut + 1 :]}, Globals(**found))


def option_value(argv: list[str], i: int) -> tuple[str | None, int]:
    """The value of the option at argv[i] (`--agent-dir=D` or `--agent-dir D`) and the index
    of the last word it took; None when argv ends before the value."""
    _, eq, value = argv[i].partition("=")
    if eq:
        return value, i
    return (argv[i + 1] if i + 1 < len(argv) else None), i + 1


def _take(name: str, value: str, spec: Spec, args: dict[str, Any], found: dict[str, Any]) -> bool:
    """Store an option's value; False (click decides) for a dashed, empty or repeated one."""
    if not value or value.startswith("-"):
        return False
    if name in _GLOBAL_OPTIONS:
        dest = _GLOBAL_OPTIONS[name]
        return _once(found, dest, _global(dest, value))
    if spec.options[name] in spec.lists:
        args.setdefault(spec.options[name], []).append(value)
        return True
    return _once(args, spec.options[name], value)


def _once(values: dict[str, Any], key: str, value: object) -> bool:
    """Store value at key unless an earlier one is there (a repeat: click decides); False then."""
    if key in values:
        return False
    values[key] = value
    return True


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
        elif arg in _GLOBAL_OPTIONS:  # the last word, with no value: say that, not "no such option"
            return [*front, arg]
        else:
            rest.append(arg)
        i += 1
    return front + rest


def _front(argv: list[str]) -> tuple[dict[str, Any], int]:
    """The global options argv starts with (after hoist_globals), as Globals' fields, and the
    index of the first word that is not one of them."""
    found: dict[str, Any] = {}
    i = 0
    while i < len(argv):
        arg = argv[i]
        name = arg.partition("=")[0]
        if arg in _GLOBAL_FLAGS:
            found[_GLOBAL_FLAGS[arg]] = True
        elif name in _GLOBAL_OPTIONS:
            value, i = option_value(argv, i)
            if value:
                found[_GLOBAL_OPTIONS[name]] = _global(_GLOBAL_OPTIONS[name], value)
        else:
            break
        i += 1
    return found, i


def globals_of(argv: list[str]) -> Globals:
    """The global options of argv (after hoist_globals), for a command line click refused: a
    `--json` after `--` or as an option's value is not one."""
    return Globals(**_front(argv)[0])


def command_at(argv: list[str]) -> int:
    """The index of argv's first word that is not a global option's (its command, if any)."""
    return _front(argv)[1]


def command_of(argv: list[str]) -> str | None:
    """The command argv runs (globals come first, after hoist_globals); None for help and such."""
    _, i = _front(argv)
    if i >= len(argv):  # a global option's missing value ends argv: there is no command
        return None
    if argv[i] == "--version":  # eager: it prints and exits before any command
        return argv[i]
    return None if argv[i].startswith("-") else argv[i]
