"""What every command's call shares, without the CLI framework: the Output, and `run`,
which turns an ExtError into its message, fix and exit code; the context, the update notice
and the names of an `--only a,b`.

Both ways into ext use it: the click app (`installer.cli.app`) and the hand-parsed everyday
commands (`installer.cli.fast`), so a command behaves the same whichever parsed it.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable

from installer.cli.options import Globals
from installer.ground.errors import (
    ExitCode,
    ExtError,
    NoTerminal,
    Rerun,
    RolledBack,
    Terminated,
    Typo,
    UsageError,
    Way,
    write_fix,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, NoReturn


def _output(g: Globals) -> Any:
    from installer.ground.context import Env
    from installer.render.ui import Output, use_color

    env = Env.from_process()
    color = use_color(g.no_color, dict(env.environ), sys.stdout)
    out = Output(json=g.json, quiet=g.quiet, color=color)
    given = _given(g)
    out.typed = lambda text: ext_as_run(text, given)
    return out


def _given(g: Globals) -> tuple[tuple[str, str], ...]:
    """The --set, --host and --agent-dir this run was given, folders as absolute paths: a hint
    may say `cd` first, and a relative folder would then name another one."""
    dirs = (("--set", g.set_dir), ("--agent-dir", g.agent_dir))
    # `--agent-dir=~/a` reaches ext unexpanded (the shell expands `~` only at a word's start);
    # ext expands it, and so must the hint.
    from installer.ground.home import expand_home

    given = [(flag, os.path.abspath(expand_home(value))) for flag, value in dirs if value]
    return (*given, ("--host", str(g.host))) if g.host else tuple(given)


def ext_as_run(text: str, given: tuple[tuple[str, str], ...] = ()) -> str:
    """Each `ext COMMAND` a hint names, as the person can run it: ext as run (`.venv/bin/ext`
    when PATH finds no ext, as written when it does), with what this run was given that the
    command does not name for itself, so that pasted it works where this run did.

    A command that names its own place (`--host` or `--agent-dir`, or `--from` for adopt) gets
    none of this run's; one after a `cd` (which picks the set), or `init`, gets no --set.
    Only ext's commands and their options are rewritten: "the ext that installed it" is
    prose."""
    ran, pattern, command_end, cd = _ext_commands()
    if ran == "ext" and not given:
        return text

    def typed(match: Any) -> str:
        before, rest = match.string[: match.start()], match.string[match.end() :]
        command = command_end.split(rest, maxsplit=1)[0]
        after_cd = cd.search(before) is not None
        relative = ran != "ext" and not ran.startswith(("/", "~"))
        name = os.path.abspath(ran) if after_cd and relative else ran
        flags = _missing(command, given, after_cd)
        return name + "".join(f" {flag} {_quoted(value)}" for flag, value in flags)

    return str(pattern.sub(typed, text))


def _missing(
    command: str, given: tuple[tuple[str, str], ...], after_cd: bool
) -> list[tuple[str, str]]:
    """The flags of `given` that a command of a hint needs to work where this run did."""
    words = command.split()
    named = {word.split("=", 1)[0] for word in words if word.startswith("--")}
    # Another host's command names its own place; this host's, by --host, does not (helper-88:
    # `ext --host claude --agent-dir D doctor` offered `ext --host claude install`, off to the
    # default dir).
    host = dict(given).get("--host") or os.environ.get("EXT_HOST") or "pi"  # as run resolves it
    own_place = bool(named & {"--agent-dir", "--from"}) or (
        "--host" in named and _value(words, "--host") != host
    )
    no_set = after_cd or "init" in words[:1]  # the `cd` picks the set; init makes one
    return [
        (flag, value)
        for flag, value in given
        if flag not in named
        and not (flag == "--set" and no_set)
        and not (flag != "--set" and own_place)
    ]


def _value(words: list[str], flag: str) -> str | None:
    """The value `flag` has among a command's words (`--host claude`, `--host=claude`)."""
    for i, word in enumerate(words):
        if word == flag and i + 1 < len(words):
            return words[i + 1]
        if word.startswith(f"{flag}="):
            return word.split("=", 1)[1]
    return None


def _quoted(value: str) -> str:
    """A flag's value as a shell word; a folder under the home as `~/'my set'`."""
    from pathlib import Path

    from installer.ground.shellword import shell_word

    return shell_word(Path(value) if os.path.isabs(value) else value)


@functools.cache
def _ext_commands() -> tuple[str, Any, Any, Any]:
    """ext as run; the pattern of `ext` followed by one of its commands or an option; where
    such a command ends (its backtick or parenthesis, the line, or the next command of a list:
    `a, or b`, `a && b`, `a; b`); and a `cd` that starts a command before it."""
    import re

    from installer.cli.grammar import COMMANDS

    words = sorted({c.path[0] for c in COMMANDS})
    ran = as_run() if running_ext() else "ext"
    pattern = re.compile(rf"(?<![\w./$@'-])ext(?= (?:--[a-z]|(?:{'|'.join(words)})\b))")
    command_end = re.compile(r"[`)\n;,|]|&&| or ")
    cd = re.compile(r"(?:^|[`(;&|]\s*|:\s+)cd\s")
    return ran, pattern, command_end, cd


def _as_typed(exc: ExtError, argv: list[str]) -> str | None:
    """The fix as the command line it means, where it is one (helper-72: `did you mean
    'notify'?` and `run the command again with --yes` cannot be pasted); else as it is."""
    from installer.cli.errors import corrected_words, line

    if isinstance(exc, Typo):
        words: list[str] | None = (
            [w for w in argv if w not in ("--yes", "-y")] if exc.guess else argv
        )
        for typed, meant in ((exc.typed, exc.meant), *exc.more):
            words = corrected_words(words, typed, meant) if words is not None else None
        return line(words) if words is not None else exc.fix
    if isinstance(exc, Rerun) and "--" not in argv:
        return ", or ".join(_way(argv, way) for way in exc.ways)
    if not isinstance(exc, NoTerminal) or "--" in argv:
        return exc.fix
    pasted = line([*argv, *exc.again])
    return f"{exc.first}run `{pasted}`" if exc.first else pasted


def _way(argv: list[str], way: Way) -> str:
    """One way out of a Rerun, as the line that takes it: argv with `flag value` in place of
    a `flag` typed, or, for --skip, beside those typed. A --skip beside an --only does
    nothing (the selection is the --only): that way is said as words."""
    from installer.cli.errors import line

    lead, flag, value, tail = way
    if flag == "--skip" and any(w.partition("=")[0] == "--only" for w in argv):
        return f"leave {value} out of your --only{tail}"
    kept: list[str] = []
    valued = False  # the word after a replaced `--mode`: its value, dropped with it
    for word in argv:
        if valued:
            valued = False
        elif flag != "--skip" and word.partition("=")[0] == flag:
            valued = "=" not in word
        else:
            kept.append(word)
    return f"{lead} `{line([*kept, flag, value])}`{tail}"


def run(g: Globals, fn: Callable[[Any], int | None]) -> NoReturn:
    """Call a command with the Output; map an ExtError to its message, fix and exit code."""
    out = _output(g)
    from installer.ground.notices import listen

    listen(out.err)  # a wait on pi's lock, say, is said instead of looking like a hang
    try:
        code = fn(out) or 0
    except ExtError as exc:
        if not g.json and running_ext():
            exc.fix = _as_typed(exc, sys.argv[1:])
        if g.debug:
            _trace(exc)  # first: the message and its fix stay the last lines
        out.error(exc)
        raise SystemExit(int(exc.exit_code)) from None
    except KeyboardInterrupt as exc:
        from installer.ground.replay import stop

        stop("interrupted")  # where it stopped is chance: a replay would stop there for good
        done = (
            "what it had written was rolled back"
            if isinstance(exc, RolledBack)
            else "nothing was written"
        )
        by = exc.__cause__ if isinstance(exc.__cause__, Terminated) else exc
        if isinstance(by, Terminated):  # the shell's code for a signal's death: 128 + its number
            import signal

            out.err(f"stopped by {signal.Signals(by.signum).name}; {done}")
            raise SystemExit(128 + by.signum) from None
        out.err(f"interrupted; {done}")
        raise SystemExit(int(ExitCode.REFUSED)) from None
    except BrokenPipeError:  # `ext list | head`: the reader is gone, nothing to say
        from installer.ground.streams import let_go

        let_go(sys.stdout.fileno())
        raise SystemExit(int(ExitCode.FAILED)) from None
    except OSError as exc:  # a last resort: a fault no command turned into an ExtError
        from installer.ground.replay import stop

        stop("a fault")  # a full disk under stdout, say: not a run to print again
        if g.debug:
            _trace(exc)
        where = f": {exc.filename}" if exc.filename else ""
        out.error(ExtError(f"{exc.strerror or exc}{where}", _fix_for(exc)))
        raise SystemExit(int(ExitCode.FAILED)) from None
    try:
        out.finish(code)
    except OSError as exc:  # stdout itself failed (`ext list > /dev/full`): said on stderr
        from installer.ground.replay import stop
        from installer.ground.streams import let_go

        stop("a fault")
        let_go(1)  # the interpreter's last flush too
        out.stdout = open(os.devnull, "w")  # noqa: SIM115 - for the rest of this run
        out.error(
            ExtError(
                f"could not write stdout: {exc.strerror or exc}", write_fix(exc.errno, "stdout")
            )
        )
        raise SystemExit(int(ExitCode.FAILED)) from None
    raise SystemExit(code)


def _trace(exc: BaseException) -> None:
    """--debug: the stack on stderr, beside the message; the exit code stays the error's
    (helper-86: a usage error exited 1 with --debug, 2 without: a script's check broke)."""
    import traceback

    traceback.print_exception(exc, file=sys.stderr)


def _fix_for(exc: OSError) -> str:
    """The fix for a fault no command foresaw, when its cause is a path: the file in the way
    of a folder (HOME or an XDG variable naming a file, say), a name too long."""
    import errno

    if exc.errno == errno.ENOTDIR and exc.filename:
        at = os.path.dirname(os.fsdecode(exc.filename))
        while at and not os.path.exists(at) and at != os.path.dirname(at):
            at = os.path.dirname(at)
        if os.path.exists(at) and not os.path.isdir(at):
            return (
                f"{at} is a file where a folder is needed: move it, or point HOME, the XDG "
                "variable or the option that led there at another folder"
            )
    if exc.errno == errno.ENAMETOOLONG:
        return "the path is longer than the file system takes: use a shorter one"
    return "run again with --debug for details"


def context(g: Globals, create: bool = False, dry_run: bool = False) -> Any:
    from installer.ground.context import Env, resolve

    return resolve(
        Env.from_process(), g.set_dir, g.agent_dir, create=create, host=g.host, dry_run=dry_run
    )


def notice(g: Globals, ctx: Any) -> tuple[str, ...]:
    """The cached update notice, at most once a day, for stderr; never waits on the network."""
    from installer.commands.updates import notice as due

    text = due(ctx)
    # One line each: a line is shown escaped, so a newline in it read `\n` (helper-40).
    return tuple(text.split("\n")) if text and not g.quiet else ()


def running_ext() -> bool:
    """Whether this process is ext's console script, by whatever name it was run (helper-84: a
    link `myext` to it got fixes naming a bare `ext`); not a test's runner or `python -m`."""
    argv0 = sys.argv[0] if sys.argv else ""
    return "ext" in (os.path.basename(argv0), os.path.basename(os.path.realpath(argv0)))


def as_run(argv0: str | None = None, path: str | None = None) -> str:
    """ext as the person can run it again: `ext` when PATH finds this very script, else the
    script as typed (`.venv/bin/ext`), or its path, shortened with `~`."""
    import shlex

    from installer.ground.which import which

    script = argv0 if argv0 is not None else sys.argv[0]
    name = os.path.basename(script)
    found = which(name, path=path if path is not None else os.environ.get("PATH"))
    if found is not None and os.path.realpath(found) == os.path.realpath(script):
        return name
    if os.path.isabs(script):
        from pathlib import Path

        from installer.ground.shellword import shell_word

        return shell_word(Path(script))
    return shlex.quote(script)


def names(values: list[str] | None, option: str = "--only") -> list[str]:
    """`--only a,b --only c` -> [a, b, c]; given but naming nothing is a usage error."""
    found = [n.strip() for v in values or [] for n in v.split(",") if n.strip()]
    if values and not found:
        raise UsageError(f"{option} names nothing", f"give {option} a name, or leave it out")
    return found
