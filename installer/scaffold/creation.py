"""New files in a set (`ext init`, `ext add`): planned one line each, never over an existing one,
and all removed again when a later step fails."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from installer.engine.plan import Action, Plan
from installer.engine.result import PlanResult
from installer.ground.errors import ExtError
from installer.ground.records import NamedTuple

if TYPE_CHECKING:
    from installer.engine.plan import Word
    from installer.host.pi import HostInfo

Confirm = Callable[[Plan, tuple[str, ...]], None]


class Bench(NamedTuple):
    """What `ext init` and `ext add` work with instead of an agent dir: a folder (the current
    one, or the set's), the installed pi (looked for only when asked) and git."""

    folder: Path
    host: Callable[[], HostInfo | None]
    git: str | None = None
    pi_dir: Path | None = None  # the agent dir pi reads: init names adopt if it holds any
    install: str = "ext install"  # add: the command that installs what it made, as typed


GIT = ".git"


@dataclass(frozen=True)
class Piece:
    """One thing to make: a file (`text`), a folder (`text` None), or a git repository."""

    path: Path
    text: str | None = None
    what: str | None = None  # the plan's detail
    git: str | None = None  # the git binary, for the repository piece

    def action(self) -> Action:
        if os.path.lexists(self.path):
            return Action("skip", str(self.path), detail="exists; left alone")
        word: Word = "mkdir" if self.text is None and self.git is None else "create"
        return Action(word, str(self.path), detail=self.what)


def plan(command: str, pieces: Sequence[Piece], warnings: Sequence[str] = ()) -> Plan:
    """Each piece as `create`/`mkdir`, or `skip` when something is already at its path."""
    actions = tuple(p.action() for p in pieces)
    skipped = [
        f"{p.path} exists: left alone"
        for p, a in zip(pieces, actions, strict=True)
        if a.action == "skip" and p.text is not None
    ]
    return Plan(command, actions, (*warnings, *skipped))


def run(
    command: str,
    pieces: Callable[[], Sequence[Piece]],
    warnings: Sequence[str],
    dry_run: bool,
    confirm: Confirm,
    notes: Sequence[str] = (),
) -> PlanResult:
    """plan -> show -> confirm -> plan again -> make each missing piece, or none of them."""
    first = plan(command, pieces(), warnings)
    if dry_run or first.is_empty:
        changed = dry_run and not first.is_empty
        return PlanResult(first, changed=changed, dry_run=dry_run)
    confirm(first, ())
    todo = pieces()
    if not plan(command, todo, warnings).same_steps(first):
        raise ExtError(
            "the folder changed while the plan was on screen; nothing was written",
            "run the command again to see the new plan",
        )
    make(todo)
    return PlanResult(first, changed=True, dry_run=False, applied=True, notes=tuple(notes))


def make(pieces: Sequence[Piece]) -> None:
    """Make every piece not there yet, in order; on any failure remove what this run made."""
    made = Made()
    try:
        for piece in pieces:
            if not os.path.lexists(piece.path):
                made.add(piece)
    except BaseException as exc:
        left = made.rollback()
        if isinstance(exc, KeyboardInterrupt):
            raise
        cause = exc.message if isinstance(exc, ExtError) else _describe(exc)
        if left:
            raise ExtError(
                f"{cause}; could not remove what this run made: {', '.join(left)}",
                "remove those by hand",
            ) from exc
        from installer.ground.errors import fix_for  # the set's folder: no --agent-dir helps

        raise ExtError(f"{cause}; everything this run made was removed", fix_for(exc)) from exc


class Made:
    """What this run made so far, newest last, with the bytes of each file it wrote."""

    def __init__(self) -> None:
        self.done: list[tuple[Path, bytes | None, bool]] = []  # (path, bytes, is a git repo)

    def add(self, piece: Piece) -> None:
        if piece.git is not None:
            self._git(piece)
        elif piece.text is None:
            self._folders(piece.path)
        else:
            self._folders(piece.path.parent)
            self._file(piece.path, piece.text.encode("utf-8"))

    def _folders(self, path: Path) -> None:
        missing = []
        while not os.path.lexists(path) and path != path.parent:
            missing.append(path)
            path = path.parent
        for folder in reversed(missing):
            folder.mkdir()
            self.done.append((folder, None, False))

    def _file(self, path: Path, data: bytes) -> None:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(path)  # made by this very call (O_EXCL): half a file is ours to remove
            raise
        self.done.append((path, data, False))

    def _git(self, piece: Piece) -> None:
        root = piece.path.parent
        self._folders(root)
        self.done.append((piece.path, None, True))  # before the run: a failing init may leave some
        from installer.ground.which import for_children

        proc = subprocess.run(
            [str(piece.git), "init", "-q", str(root)],
            env=for_children(os.environ),
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
            stdin=subprocess.DEVNULL,
        )
        if proc.returncode != 0:
            why = (proc.stderr or proc.stdout).strip().splitlines()
            raise ExtError(f"git init failed: {why[-1] if why else f'exit {proc.returncode}'}")

    def rollback(self) -> list[str]:
        """Remove what was made, newest first: files only while unchanged, folders only if empty."""
        left = []
        for path, data, repo in reversed(self.done):
            try:
                if repo:
                    shutil.rmtree(path)  # it was not there before this run's `git init`
                elif data is None:
                    path.rmdir()
                elif path.read_bytes() == data:
                    path.unlink()
                else:
                    left.append(str(path))
            except FileNotFoundError:
                continue
            except OSError:
                left.append(str(path))
        return left


def _describe(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return f"{exc.strerror}: {exc.filename}" if exc.filename else exc.strerror
    return f"{type(exc).__name__}: {exc}"
