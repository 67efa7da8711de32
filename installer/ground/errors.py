"""The one error type the CLI maps to an exit code, and the codes themselves."""

from __future__ import annotations

import os
from enum import IntEnum

from installer.ground.records import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path


class ExitCode(IntEnum):
    OK = 0
    FAILED = 1
    USAGE = 2
    REFUSED = 3
    NO_AGENT_DIR = 4


class ExtError(Exception):
    """An error the user can act on: what went wrong, and the fix."""

    exit_code: ExitCode = ExitCode.FAILED

    def __init__(self, message: str, fix: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.fix = fix


class UsageError(ExtError):
    """Bad arguments, an unknown name, an invalid manifest (exit 2)."""

    exit_code = ExitCode.USAGE


class Typo(UsageError):
    """A name typed that means nothing, and the one it is closest to: the command line
    layer, which knows what was typed, makes the fix that line with `meant` in it."""

    def __init__(
        self,
        message: str,
        typed: str,
        meant: str,
        guess: bool = False,
        more: tuple[tuple[str, str], ...] = (),
    ) -> None:
        said = " and ".join(repr(m) for m in (meant, *(m for _, m in more)))
        super().__init__(message, f"did you mean {said}?")
        self.typed, self.meant = typed, meant
        # the other names of one command line typed wrong, each with its guess (helper-84:
        # of `--only notfy,confrm-destructive`, the fix corrected the first alone)
        self.more = more
        # `meant` is a guess at an item of the set, not a spelling of ext's own words: the line
        # made of it asks first (helper-81: `--only greet --yes` was offered `--only
        # prompt:review --yes`, which, pasted, took out seven items of eight unasked).
        self.guess = guess


class Way(NamedTuple):
    """One way out of a Rerun: the command again with `flag value`, said after `lead`."""

    lead: str  # `install it with`
    flag: str  # `--mode`: in place of the one typed; `--skip`: beside those typed
    value: str
    tail: str = ""  # what follows the line: ` (pi then loads the set as a package)`


class Rerun(UsageError):
    """A usage error whose ways out are this command again with one option changed. The
    command line layer, which knows what was typed, writes each way as that line; `fix` is
    what is said where it cannot (--json, ext run by another name)."""

    def __init__(self, message: str, fix: str, ways: tuple[Way, ...]) -> None:
        super().__init__(message, fix)
        self.ways = ways


class Refused(ExtError):
    """Declined at the prompt, no TTY without --yes, a guard, missing consent (exit 3)."""

    exit_code = ExitCode.REFUSED


class NoTerminal(Refused):
    """No terminal to ask on, and no --yes: the fix is the command again with `again` (`--yes`
    last), after `first`; the command line layer, which knows what was typed, writes it as
    that line."""

    def __init__(self, done: str, first: str = "", again: tuple[str, ...] = ("--yes",)) -> None:
        fix = f"{first}run the command again with {' '.join(again)}"
        super().__init__(f"nothing was {done}: there is no terminal to ask on", fix)
        self.first, self.again = first, again


class Declined(Refused):
    """The person answered no at the prompt (exit 3): their choice, said without "error:"."""


class GuardRefused(Refused):
    """A disable guard refused (exit 3). `refused` names each item kept on and why, so a
    caller (`/ext`) can keep those on and apply the rest of its batch."""

    def __init__(self, message: str, fix: str | None, refused: dict[str, str]) -> None:
        super().__init__(message, fix)
        self.refused = refused


class RolledBack(KeyboardInterrupt):
    """Ctrl-C arrived while a plan was being applied; its steps were reversed."""


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP (`timeout`, `docker stop`, a closed terminal) while a plan was being
    applied: taken as Ctrl-C is, so its steps are reversed, not left half done."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


class AgentDirMissing(ExtError):
    """A named agent dir that does not exist (exit 4). With `how`, its fix is `how` naming the
    install that makes the dir (`{command}` in it): `command`, or, from the command line that
    knows the options typed, that install in full (`with_command`)."""

    exit_code = ExitCode.NO_AGENT_DIR

    def __init__(
        self,
        message: str,
        fix: str | None = None,
        how: str | None = None,
        command: str = "",
        chosen: tuple[str, str] = ("", ""),  # (source, path): where the dir was named
    ) -> None:
        super().__init__(message, how.format(command=command) if how is not None else fix)
        self.how = how
        self.chosen = chosen

    def with_command(self, command: str) -> AgentDirMissing:
        """The same error, its fix naming `command` as the install that makes the dir."""
        return AgentDirMissing(self.message, self.fix, self.how, command, self.chosen)


def failed_path(exc: BaseException) -> str | None:
    """The path an OSError is about: for symlink(target, link) and rename(src, dst), the second.

    os.symlink reports the link's target as filename: blaming it would send the user to
    the set, when it is the link's folder that could not be written.
    """
    if not isinstance(exc, OSError):
        return None
    where = exc.filename2 or exc.filename
    return None if where is None else os.fsdecode(where)


def fix_for(exc: BaseException, agent_dir: Path | None = None) -> str:
    """The fix for what stopped a write, by its cause: space, a read-only mount, access.
    Another --agent-dir is a way out only of a write into `agent_dir` (helper-75: adopt's
    copy into a read-only set was told to use another; None: no agent dir's, as `add`'s)."""
    if isinstance(exc, ExtError) and exc.fix:
        return exc.fix
    where = failed_path(exc)
    if isinstance(exc, OSError) and where:
        from pathlib import Path

        folder = Path(where).parent
        ours = agent_dir is not None and folder.is_relative_to(agent_dir)
        return write_fix(exc.errno, folder, ours)
    return "fix the cause and run it again"


def read_fix(code: int | None, path: object) -> str:
    """The fix for a read of `path` that failed with errno `code` (helper-86: a link loop was
    told to check its permissions)."""
    import errno

    if code == errno.ELOOP:
        return f"{path} is a link in a loop: remove it, or point it at a file"
    if code in (errno.EACCES, errno.EPERM):
        return f"give yourself read access to {path}"
    return f"check {path}, then run it again"


def write_fix(code: int | None, folder: object, in_agent_dir: bool = True) -> str:
    """The fix for a write into `folder` that failed with errno `code`: space, a read-only
    mount, access; never one that could lose something (removing a lock, say).
    `in_agent_dir`: the folder is the agent dir's, so another --agent-dir is a way out too."""
    import errno

    if code == errno.EROFS:
        other = ", or use another --agent-dir" if in_agent_dir else ""
        return f"{folder} is on a read-only file system: remount it read-write{other}"
    if code == errno.ENOSPC:
        return f"free some space on the disk that holds {folder}, then run it again"
    if code in (errno.EACCES, errno.EPERM):
        return f"give yourself write access to {folder}, then run it again"
    return f"check that {folder} is writable and has free space, then run it again"
