"""Where `ext --install-completion` puts a shell's completion, and the one writer of it.

It does what typer's `--install-completion` does, the convention users of click and typer
tools know: the script goes to a file of its own, in the folder the shell (or typer) keeps
completions in, rewritten whole when it differs; the shell's start-up file gets one line that
sources it, added once. fish reads its completions folder itself and needs no line.

    bash  ~/.bash_completions/ext.sh         sourced from ~/.bashrc
    zsh   ~/.zfunc/_ext                      sourced from ~/.zshrc ($ZDOTDIR/.zshrc)
    fish  ~/.config/fish/completions/ext.fish  ($XDG_CONFIG_HOME/fish/…)

As with its other files, ext never writes through a symlink it did not make, nor over a
script it did not write (a comment line, MARK, marks its own); a second run that
would change nothing writes nothing. To remove it: delete the script, and the line (which
does nothing once the script is gone).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from installer.ground import own
from installer.ground.errors import ExtError
from installer.ground.records import NamedTuple

SHELLS = ("bash", "zsh", "fish")
MARK = "# ext's shell completion, written by `ext --install-completion`, which rewrites it.\n"
# zsh's scripts start with the command they complete; ext's then makes sure compdef exists.
_ZSH_HEAD = "#compdef ext\n"
_COMPINIT = "(( $+functions[compdef] )) || { autoload -Uz compinit && compinit; }\n"


class Place(NamedTuple):
    """Where a shell's completion goes: the script ext owns, and the line that loads it."""

    shell: str
    script: Path
    rc: Path | None  # the start-up file the line goes in; None: the shell finds the script
    line: str | None


class Installed(NamedTuple):
    """What one run did: whether it wrote the script (new or changed), and added the line."""

    place: Place
    wrote: bool
    updated: bool  # the script was there, from an older ext, and is rewritten
    added: bool


def place(shell: str, home: Path, environ: Mapping[str, str]) -> Place:
    """Where `shell`'s completion goes for the user whose home is `home`."""
    if shell == "bash":
        script = home / ".bash_completions" / "ext.sh"
        return Place(shell, script, home / ".bashrc", _line("[ -f {0} ] && . {0}", script, home))
    if shell == "zsh":
        script = home / ".zfunc" / "_ext"
        rc = Path(environ.get("ZDOTDIR") or home) / ".zshrc"
        return Place(shell, script, rc, _line("[[ -f {0} ]] && source {0}", script, home))
    config = Path(environ.get("XDG_CONFIG_HOME") or home / ".config")
    return Place(shell, config / "fish" / "completions" / "ext.fish", None, None)


def _line(form: str, script: Path, home: Path) -> str:
    """The start-up line, with the script's path as the user writes it: `~/…` in the home."""
    shown = f"~/{script.relative_to(home).as_posix()}" if script.is_relative_to(home) else script
    return form.format(shown) + "  # ext --install-completion"


def owned(shell: str, script: str) -> str:
    """The script as ext writes it: click's, marked as ext's (after zsh's `#compdef` line)."""
    if shell == "zsh" and script.startswith(_ZSH_HEAD):
        return _ZSH_HEAD + MARK + _COMPINIT + script.removeprefix(_ZSH_HEAD)
    return MARK + script


def install(where: Place, text: str) -> Installed:
    """Write the script (when it changed) and add the line (when missing), having refused
    first whatever would make ext write through a link or over a file not its own."""
    old = _own_script(where.script)
    missing = _missing_line(where)
    wrote = old != text
    if wrote:
        from installer.ground.atomic import replace_own

        own.ensure_dir(where.script.parent, 0o755)
        replace_own(where.script, text, 0o644)
    if missing is not None:
        _append_line(*missing)
    return Installed(where, wrote, wrote and old is not None, missing is not None)


def _own_script(path: Path) -> str | None:
    """The script ext wrote here before, or None; a link, or a file ext did not write, refused."""
    if not own.check(path.parent, "folder"):
        return None
    text = own.read_text(path)
    if text is not None and MARK not in text:
        raise ExtError(
            f"{path} is there and ext did not write it; ext leaves it as it is",
            fix="move it away (or delete it), then run ext --install-completion again",
        )
    return text


def _missing_line(where: Place) -> tuple[Path, str] | None:
    """The start-up file and the line it lacks; None when it has it, or the shell needs none.
    A start-up file ext would have to write through a link (or that is no file) is refused."""
    if where.rc is None or where.line is None or _has_line(where.rc, where.line):
        return None
    try:
        own.check(where.rc, "file")
    except ExtError:
        raise ExtError(
            f"{where.rc} is a symlink or not a file; ext does not write through a link it "
            "did not make",
            fix="add this line to the file it stands for, then run ext --install-completion "
            f"again: {where.line}",
        ) from None
    return where.rc, where.line


def _has_line(rc: Path, line: str) -> bool:
    """Whether the start-up file already has the line (read through a link: reading is safe)."""
    try:
        text = rc.read_text(encoding="utf-8")
    except (FileNotFoundError, IsADirectoryError):  # none yet; or no file, which is refused
        return False
    return any(old.strip() == line for old in text.splitlines())


def _append_line(rc: Path, line: str) -> None:
    """Add the line at the end of the start-up file, on a line of its own, and sync it."""
    fd = own.open_file(rc, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
    with os.fdopen(fd, "r+b") as f:
        size = os.fstat(fd).st_size
        f.seek(max(size - 1, 0))
        ends = size == 0 or f.read(1) == b"\n"
        f.write(("" if ends else "\n").encode() + f"{line}\n".encode())
        f.flush()
        os.fsync(fd)
