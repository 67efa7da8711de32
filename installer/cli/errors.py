"""Errors click raises (usage, unknown option, bad value), in ext's one style.

click prints `Usage: …` and `Error: No such option …`; every other error of ext is
`error: …` with a `  fix: …` line. A click exception has `format_message()`, `exit_code`,
`ctx`, and an unknown option its `option_name` and `possibilities`, which is all that is
read here.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from typing import Any

_DID_YOU_MEAN = re.compile(r"\s*\(?(Did you mean .*?|Possible options: .*?)\)?\s*$", re.DOTALL)


def describe(
    exc: Any, command: str | None = None, argv: list[str] | None = None
) -> tuple[str, str]:
    """The one-line message and the fix for a click exception.

    click raises some parser errors (an option missing its value) without a context; then
    `command`, the command argv names, says whose help to read. `argv` (after hoisting the
    global options) lets an option typed before its command be moved after it in the fix.
    """
    ctx = getattr(exc, "ctx", None)
    where = getattr(ctx, "command_path", None) or (f"ext {command}" if command else "ext")
    help_fix = f"see `{where} --help`"
    if getattr(exc, "option_name", None) and "no such option" in exc.format_message().lower():
        placed = _misplaced(exc.option_name, where, argv or [])
        if placed is not None:
            return placed
        options = _near(exc.option_name, getattr(exc, "possibilities", None) or ())
        fix = f"did you mean {' or '.join(options)}?" if options else help_fix
        # one meaning: the command line with it, to paste (helper-72); not one that would lack
        # the value the option takes (helper-84: `--bogus list` was offered `ext --host list`)
        if len(options) == 1 and not _lacks_value(options[0], exc.option_name, argv or []):
            fix = corrected(argv, exc.option_name, options[0]) or fix
        return f"{where}: no such option: {exc.option_name}", fix
    text = exc.format_message().strip()
    hint = _DID_YOU_MEAN.search(text)
    if hint is not None:
        text = text[: hint.start()].strip()
        suggestion = hint.group(1)
        suggestion = suggestion.replace("Possible options:", "did you mean")
        fix = suggestion[0].lower() + suggestion[1:]
        fix = fix if fix.endswith("?") else f"{fix}?"
        typo, meant = _COMMAND_TYPO.search(text), _ONE_COMMAND.fullmatch(fix)
        if typo is not None and meant is not None:
            fix = corrected(argv, typo.group(1), meant.group(1)) or fix
    else:
        fix = _names_joined(text, argv or []) or help_fix
    text = text.rstrip(".")
    text = text[:1].lower() + text[1:]
    return f"{where}: {text}", fix


_EXTRA = re.compile(r"unexpected extra arguments? \((.+)\)")


def _names_joined(text: str, argv: list[str]) -> str | None:
    """`--on a b`: `b` read as an argument the command does not take, where a list of names
    was meant (helper-90): the line with them joined by commas, to paste."""
    from installer.cli.grammar import COMMANDS

    found = _EXTRA.search(text)
    if found is None or "--" in argv:
        return None
    extra = found.group(1).split()
    listing = {f for c in COMMANDS for o in c.options if o.commas for f in o.flags}
    at = next((i for i, w in enumerate(argv) if w == extra[0]), None)
    if at is None or at < 2 or argv[at - 2] not in listing or argv[at - 1].startswith("-"):
        return None
    if argv[at : at + len(extra)] != extra:
        return None
    joined = ",".join([argv[at - 1], *extra])
    return f"did you mean `{line([*argv[: at - 1], joined, *argv[at + len(extra) :]])}`?"


def _lacks_value(flag: str, typed: str, argv: list[str]) -> bool:
    """Whether `flag`, an option of ext's that takes a value, put for `typed` in argv would
    have none: `typed` is the last word, or a command or an option follows it."""
    from installer.cli.grammar import COMMANDS, GLOBALS

    options = [*GLOBALS, *(o for c in COMMANDS for o in c.options)]
    if not any(flag in o.flags and o.kind != "flag" for o in options):
        return False
    if any(word.startswith(f"{typed}=") for word in argv):  # `--hots=claude`: it has one
        return False
    at = argv.index(typed) if typed in argv else len(argv)
    after = argv[at + 1] if at + 1 < len(argv) else None
    commands = {word for c in COMMANDS for word in c.path}
    return after is None or after.startswith("-") or after in commands


def _near(typed: str, found: Iterable[str]) -> list[str]:
    """The options `typed` may mean: click's near ones of the command (`found`) and ext's own
    near it, which go after a command too (`ext list --json`) where click does not look. One
    clearly nearer than the rest is the meaning (helper-76: `uninstall --jsn` had only
    click's `--yes`, a line that removes all without asking); else all are said, sorted."""
    import difflib

    from installer.cli.grammar import GLOBALS

    def ratio(option: str) -> float:
        return difflib.SequenceMatcher(None, typed, option).ratio()

    flags = [f for o in GLOBALS for f in o.flags if f.startswith("--")]
    # One of ext's, only as near as click's best, and near enough on its own: short flags
    # share their `--` (helper-76: `install --bogus` was fixed to `install --host`, 0.62).
    near = max(map(ratio, found), default=0.0)
    close = difflib.get_close_matches(typed, flags, n=2, cutoff=0.75)
    ours = [f for f in close if ratio(f) >= near]
    pool = {*found, *ours}
    best = sorted(pool, key=lambda o: (-ratio(o), o))
    if len(best) > 1 and ratio(best[0]) - ratio(best[1]) >= 0.2:
        return best[:1]
    return sorted(pool)


_COMMAND_TYPO = re.compile(r"^No such command '(.+)'", re.IGNORECASE)
_ONE_COMMAND = re.compile(r"did you mean '([^']+)'\?")


def corrected(argv: list[str] | None, typed: str, meant: str) -> str | None:
    """argv with each `typed` word made `meant`, as a command line: a whole word, an option's
    (`--dryrun=1`), or a name of a list (`--only=a,notfy`). Never a value of --set,
    --agent-dir or --host (helper-74: `--agent-dir=notfy disable notfy` named another dir),
    nor a word after `--`. None when argv holds no such word."""
    words = corrected_words(argv, typed, meant)
    return line(words) if words is not None else None


def corrected_words(argv: list[str] | None, typed: str, meant: str) -> list[str] | None:
    """`corrected`'s words, before they are a line: for a second correction."""
    words = list(argv or [])
    values = _global_values(words)
    changed = False
    for i, word in enumerate(words):
        if word == "--":
            break
        if i in values:
            continue
        name, eq, value = word.partition("=")
        if word == typed or (eq and name == typed and typed.startswith("--")):
            words[i], changed = (meant if word == typed else f"{meant}{eq}{value}"), True
            continue
        head, listed = (f"{name}=", value) if eq and name.startswith("--") else ("", word)
        names = listed.split(",")
        if typed in names and ("," in listed or head):
            words[i] = head + ",".join(meant if n == typed else n for n in names)
            changed = True
    return words if changed else None


def line(words: list[str]) -> str:
    """`ext` and argv as one command line to paste: each word as one shell word (`$'…'` for a
    control character, which plain quotes would show as an escape naming another path)."""
    from installer.ground.shellword import shell_word

    return " ".join(["ext", *(shell_word(w) for w in words)])


def _global_values(argv: list[str]) -> set[int]:
    """Where argv holds the value of a global option that takes one (a folder, a host)."""
    from installer.cli.grammar import GLOBALS

    valued = {f for o in GLOBALS if o.kind != "flag" for f in o.flags}
    found = set()
    for i, word in enumerate(argv):
        if word == "--":
            break
        if word in valued:
            found.add(i + 1)
        elif word.partition("=")[0] in valued:
            found.add(i)
    return found


def _misplaced(flag: str, where: str, argv: list[str]) -> tuple[str, str] | None:
    """An option of another command: name the command that owns it (click would offer the
    closest global option, `--create` -> `--set`). None when no command has it."""
    from installer.cli.grammar import COMMANDS

    owners = [c for c in COMMANDS if any(flag in o.flags for o in c.options)]
    if not owners:
        return None
    typed = next((c for c in owners if _at(c.path, argv) is not None), None)
    if typed is None:  # the command typed has no such option: the line without it (helper-72)
        names = " or ".join(f"`ext {c.name}`" for c in owners[:3])
        more = " and others" if len(owners) > 3 else ""
        message = f"{where}: no such option: {flag} (an option of {names}{more})"
        mine = next((c for c in COMMANDS if f"ext {c.name}" == where), None)
        asks = mine is None or mine.asks  # a command that writes keeps its --dry-run
        return message, _without(flag, owners[0], argv, asks) or f"see `{where} --help`"
    message = f"{where}: {flag} is an option of `ext {typed.name}`: it goes after `{typed.name}`"
    return message, _moved(flag, typed, argv)


def _at(path: tuple[str, ...], argv: list[str]) -> int | None:
    """Where the command's words stand in argv (the index after them), if they do."""
    for i in range(len(argv) - len(path) + 1):
        if tuple(argv[i : i + len(path)]) == path:
            return i + len(path)
    return None


def _without(flag: str, owner: Any, argv: list[str], writes: bool) -> str | None:
    """argv less the option (and its value), as a command line; None when it is not there as
    typed, or is the --dry-run of a command that `writes`: pasted without it, the preview
    would write (helper-74: `consent revoke --dry-run --yes`)."""
    span = _span(flag, owner, argv)
    if span is None or (flag == "--dry-run" and writes):
        return None
    start, taken = span
    return line(argv[:start] + argv[start + taken :])


def _moved(flag: str, command: Any, argv: list[str]) -> str:
    """argv with the option (and its value) moved to just after the command's words."""
    start, taken = _span(flag, command, argv) or (len(argv), 0)
    words = argv[start : start + taken]
    rest = argv[:start] + argv[start + taken :]
    end = _at(command.path, rest)
    fixed = rest[:end] + words + rest[end:] if end is not None else rest + words
    return line(fixed)


def _span(flag: str, owner: Any, argv: list[str]) -> tuple[int, int] | None:
    """Where `flag` stands in argv and how many words it is: with its value when `owner`
    takes one and it follows as a word of its own (not another option: helper-74)."""
    option = next(o for o in owner.options if flag in o.flags)
    for i, word in enumerate(argv):
        if word.partition("=")[0] == flag:
            after = argv[i + 1] if i + 1 < len(argv) else "-"
            valued = option.kind != "flag" and "=" not in word and not after.startswith("-")
            return i, 2 if valued else 1
    return None


def _no_command(exc: Any) -> str | None:
    """A group called with no command (`ext`, `ext consent`): its help, which click raises
    as the error's message; else None."""
    ctx = getattr(exc, "ctx", None)
    get_help = getattr(ctx, "get_help", None)
    if get_help is None:
        return None
    text = get_help()
    return text if isinstance(text, str) and exc.format_message() == text else None


def render(
    exc: Any,
    as_json: bool,
    no_color: bool = False,
    command: str | None = None,
    argv: list[str] | None = None,
) -> int:
    """Print a click exception as ext prints every error; the exit code (2 for usage)."""
    code = int(getattr(exc, "exit_code", 2) or 2)
    help_text = _no_command(exc)
    if help_text is not None and not as_json:
        # Asked for nothing: the help, on stdout as `--help` prints it, not as an error.
        sys.stdout.write(help_text.rstrip("\n") + "\n")
        return code
    if help_text is not None:
        where = getattr(exc.ctx, "command_path", None) or "ext"
        message, fix = f"{where}: no command given", f"see `{where} --help`"
    else:
        message, fix = describe(exc, command, argv)
    if not as_json:  # each ext command of the fix as run: pasted off PATH it runs (helper-81:
        from installer.cli.run import ext_as_run  # `see \`ext --help\`` was left bare)

        fix = ext_as_run(fix)
    return print_error(_as_ext_error(message, fix, code), as_json, no_color)


def print_error(error: Any, as_json: bool, no_color: bool = False) -> int:
    """Print an ExtError raised while argv was parsed, as every ext error is printed; its
    exit code."""
    _output(as_json, no_color).error(error)
    return int(error.exit_code)


def _as_ext_error(message: str, fix: str, code: int) -> Any:
    from installer.ground.errors import ExitCode, UsageError

    error = UsageError(message, fix)
    if code != error.exit_code and code in set(ExitCode):
        error.exit_code = ExitCode(code)
    return error


def _output(as_json: bool, no_color: bool) -> Any:
    """The renderer every other ext error goes through (installer.render.ui.Output)."""
    import os

    from installer.render.ui import Output, use_color

    return Output(json=as_json, color=use_color(no_color, dict(os.environ), sys.stderr))
