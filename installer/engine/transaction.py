"""The only writer of the agent dir: steps that are journaled first and rolled back on failure."""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Callable, Sequence
from pathlib import Path

from installer.engine.journal import Journal, JournalStep
from installer.ground.errors import ExtError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from installer.consent.record import Approval
    from installer.consent.store import Store
    from installer.engine.journal import Op


class Transaction:
    """Steps taken so far, each with what reverses it."""

    def __init__(self, root: Path, journal: Journal) -> None:
        self.root = root
        self.journal = journal
        self.done: list[JournalStep] = []
        self._made: set[str] = set()  # folders (as journaled) known to exist; rollback may remove
        self._swept: set[Path] = set()  # folders cleared of a killed run's temp links
        self._trash: list[str] = []  # what `discard` moved aside, in `.extset/trash-<pid>/`
        # ext's agent-file copies this run wrote (content-addressed, not journaled): a
        # rollback takes them back, and the folders they made while empty.
        self._copies: list[Path] = []
        # Journaled, not yet in `done`: a Ctrl-C is raised just after the system call it came
        # during, so a step's act may be taken when its append is not (rollback asks the disk).
        self._pending: Sequence[JournalStep] = ()

    def _step(self, step: JournalStep, act: Callable[[], None]) -> None:
        self.journal.record(step)
        self._take(step, act)

    def _take(self, step: JournalStep, act: Callable[[], None]) -> None:
        self._pending = (step,)
        try:
            act()
        except Exception:
            self._pending = ()  # it failed: nothing of it to take back (a Ctrl-C may have come
            raise  # just after it was taken, so that one alone leaves it to the disk to say)
        self.done.append(step)
        self._pending = ()

    def _abs(self, rel: str) -> Path:
        return self.root / rel

    def _rel(self, path: Path) -> str:
        """A path as journaled: relative inside the agent dir, absolute outside it (the set)."""
        return str(path.relative_to(self.root)) if path.is_relative_to(self.root) else str(path)

    def wrote_copy(self, path: Path) -> None:
        """An agent file's copy this run wrote (installer.agent.recorder.write_copy)."""
        self._copies.append(path)

    def mkdirs(self, rel: str) -> None:
        """Create a folder and its missing parents, each one a step of its own."""
        if rel in self._made:  # a thousand links into one folder check it once
            return
        path = self._abs(rel)
        missing = []
        while not path.exists() and path not in (self.root, path.parent):
            missing.append(path)
            path = path.parent
        for folder in reversed(missing):
            step: JournalStep = {"op": "mkdir", "path": self._rel(folder)}
            self._step(step, folder.mkdir)
        self._made.add(rel)

    def remake(self, rel: str, mode: int | None) -> None:
        """A folder an rmdir took, made again with the mode it had (none kept: as mkdirs)."""
        path = self._abs(rel)
        if mode is None or path.exists():
            self.mkdirs(rel)
            return
        self.mkdirs(rel.rpartition("/")[0] or ".")
        self._step({"op": "mkdir", "path": rel}, lambda: _mkdir_as(path, mode))

    def symlink(self, rel: str, target: str) -> None:
        self.symlinks([(rel, target)])

    def symlinks(self, links: Sequence[tuple[str, str]]) -> None:
        """Make links (path, target), in order: their steps journaled in one write, then taken.

        A run killed part-way leaves steps journaled but not taken, as a single step can;
        undo and the next run judge each by the disk. Written one by one, the journal lines
        of a fresh install of 1,000 links cost more than the links themselves.
        """
        for rel, _ in links:
            self.mkdirs(rel.rpartition("/")[0] or ".")
        steps: list[JournalStep] = [
            {"op": "symlink", "path": rel, "target": target} for rel, target in links
        ]
        self.journal.record_all(steps)
        root = os.fspath(self.root)
        self._pending = steps
        for step in steps:
            rel = step["path"]  # absolute for a host's HOME folder (`~/.agents/skills`)
            try:
                os.symlink(step["target"], rel if rel[0] == "/" else f"{root}/{rel}")  # str: cheap
            except Exception:
                self._pending = ()  # as in _take: a failed link is no step to take back
                raise
            self.done.append(step)
        self._pending = ()

    def rename(self, rel: str, to: str) -> None:
        self._made.clear()  # folders may move or go: check again
        self.mkdirs(to.rpartition("/")[0] or ".")
        src, dst = self._abs(rel), self._abs(to)
        if dst.exists() or dst.is_symlink():
            raise FileExistsError(f"{dst} already exists")
        # What moves, so that `ext undo` moves back only that: whatever took its place since
        # is someone else's.
        step: JournalStep = {"op": "rename", "path": rel, "to": to}
        if src.is_symlink():
            step["target"] = os.readlink(src)
        else:
            step["kind"] = "dir" if src.is_dir() else "file"
        self._step(step, lambda: os.rename(src, dst))

    def unlink(self, rel: str) -> None:
        path = self._abs(rel)
        target = os.readlink(path)
        self._step({"op": "unlink", "path": rel, "target": target}, lambda: os.unlink(path))

    def relink(self, rel: str, target: str) -> None:
        path = self._abs(rel)
        old = os.readlink(path)
        if path.parent not in self._swept:  # once a folder: a moved set relinks a thousand
            _clear_swaps(path.parent)
            self._swept.add(path.parent)
        step: JournalStep = {"op": "relink", "path": rel, "target": target, "old": old}
        self._step(step, lambda: _swap_link(path, target))

    def copy(self, rel: str, dest: Path) -> None:
        """Copy an agent dir entry (file or folder) to dest outside it, verified byte for byte.

        The step records each entry it makes, with its sha256, so the reversal removes the
        copy only while it is still exactly what was copied.
        """
        from installer.ground import trees

        src = self._abs(rel)
        self.mkdirs(str(dest.parent))
        expected = trees.entries(src, trees.LEFT_OUT)  # a clone's .git, node_modules stay out
        step: JournalStep = {"op": "copy", "from": rel, "file": str(dest), "entries": expected}
        self._step(step, lambda: trees.copy(src, dest, expected))

    def uncopy(self, dest: Path, expected: list[list[str]]) -> None:
        """Take a recorded copy back out: moved aside now, deleted by `purge` once all went well."""
        self._made.clear()  # folders may move or go: check again
        from installer.ground import trees

        if not trees.matches(dest, expected):
            raise ExtError(f"{dest} changed since ext copied it; it was left as it is")
        # Aside one level up (the set root), so the kind folder can go if ext made it.
        aside = dest.parent.parent / f".ext-undone-{os.getpid()}-{dest.parent.name}-{dest.name}"
        step: JournalStep = {
            "op": "uncopy",
            "file": str(dest),
            "to": str(aside),
            "entries": expected,
        }
        self._step(step, lambda: os.rename(dest, aside))

    def discard(self, rel: str) -> None:
        """Delete an entry for good, once the run succeeds: moved into this run's trash folder
        now (a rollback moves it back), deleted by `purge`. Not journaled: `ext undo` cannot
        bring it back, and says so by refusing to undo what needed it."""
        self._made.clear()  # folders may move or go: check again
        trash = f".extset/trash-{os.getpid()}"
        if not self._trash:
            self._take({"op": "mkdir", "path": trash}, lambda: os.mkdir(self._abs(trash), 0o700))
        to = f"{trash}/{len(self._trash)}"
        self._take({"op": "rename", "path": rel, "to": to}, lambda: self._move(rel, to))
        self._trash.append(to)

    def _move(self, rel: str, to: str) -> None:
        os.rename(self._abs(rel), self._abs(to))

    def purge(self) -> list[str]:
        """Delete what `uncopy` and `discard` moved aside; the last act of a run that succeeded
        (best effort)."""
        if self._trash:
            _rmtree(self._abs(self._trash[0]).parent)

        left = []
        for step in self.done:
            if step["op"] == "uncopy" and os.path.lexists(step["to"]):
                _rmtree(step["to"])
                with contextlib.suppress(OSError):
                    os.unlink(step["to"])  # a file: rmtree only removes folders
                if os.path.lexists(step["to"]):
                    left.append(step["to"])
        return left

    def settings(
        self,
        path: Path,
        change: Callable[[dict[str, Any]], dict[str, Any]],
        remove_empty: bool = False,
    ) -> None:
        """Merge a change into settings.json under pi's lock; journal the bytes it replaced
        (`remove_empty`: a file left `{}` goes, journaled as a write to no file)."""
        from installer.settings import update_settings

        # Journaled before the write: a run killed during it leaves the bytes to compare with.
        before = _read_text(path)
        intent: JournalStep = {"op": "settings", "file": str(path), "before": _encode(before)}
        self.journal.record(intent)
        # In `done` before the write: an interrupt after the commit (during the lock's release)
        # must still put the earlier bytes back.
        self.done.append(intent)
        update = update_settings(path, change, remove_empty=remove_empty)
        if not update.changed:
            self.done.remove(intent)
            return
        step: JournalStep = {
            "op": "write",
            "file": str(path),
            "before": _encode(update.before),
            "after": _encode(update.after),
        }
        self.journal.record(step)  # until it is journaled (a full disk), the intent takes it back
        self.done[self.done.index(intent)] = step  # from here the exact write stands for it

    def rmdir(self, rel: str) -> None:
        """Remove a folder ext made, if it is empty (a folder holding anything stays)."""
        self._made.clear()  # folders may move or go: check again
        path = self._abs(rel)
        if path.is_dir() and not any(path.iterdir()):
            # Its mode too: undo makes it again as it was (`.extset/agent` is 0700).
            mode = stat.S_IMODE(path.stat().st_mode)
            self._step({"op": "rmdir", "path": rel, "mode": mode}, path.rmdir)

    def restore_settings(self, path: Path, expected: str | None, text: str | None) -> None:
        """Take back a settings write (`text` -> `expected`) by a three-way merge with the file now.

        The keys ext changed go back to `text`'s values; what pi or the user changed since
        stays. The step journals the bytes really replaced, so it can itself be undone.
        """
        from installer.settings import restore_text
        from installer.settings.merge import revert_text

        now = _read_text(path)
        reverted = revert_text(text, expected, now)
        if reverted.conflicts:
            keys = ", ".join(c.key for c in reverted.conflicts)
            raise ExtError(
                f"{path} changed since ext wrote it ({keys}); not restoring the earlier version",
                fix="; ".join(c.fix() for c in reverted.conflicts),
            )
        merged = reverted.text
        self._file_step("write", path, now, merged, lambda: restore_text(path, now, merged))

    def state(self, text: str | None) -> None:
        """Write ext's state record, journaling the text it replaced."""
        from installer.ground.state import read_state_text, write_state_text

        before = read_state_text(self.root)
        if before == text:
            return
        step: JournalStep = {"op": "state", "before": _encode(before), "after": _encode(text)}
        self._step(step, lambda: write_state_text(self.root, text))

    def store(self, change: Callable[[dict[str, Approval]], bool]) -> Store:
        """Change the approvals store under its own lock; the bytes it replaces and the ones it
        writes are journaled before the write (a change that changes nothing writes nothing)."""
        from installer.consent.store import store_path, update_store

        path = store_path(self.root)
        taken: list[JournalStep] = []

        def journal_first(after: bytes) -> None:
            step: JournalStep = {
                "op": "file",
                "file": str(path),
                "before": _encode(_read_text(path)),
                "after": _encode(after.decode("utf-8")),
            }
            self.journal.record(step)
            taken.append(step)  # in `done` only once written: see below

        self._pending = taken  # a Ctrl-C after the store is replaced (its fsync, the lock)
        try:
            written = update_store(self.root, change, before_write=journal_first)
        except Exception:
            self._pending = ()  # a failed write left the store as it was: nothing to reverse
            raise
        self.done.extend(taken)
        self._pending = ()
        return written

    def reverse(self, s: JournalStep) -> None:
        """Take one step of an earlier run back, as a step of this one (`ext undo`)."""
        op = s["op"]
        if op == "symlink":
            self.unlink(s["path"])
        elif op == "unlink":
            self.symlink(s["path"], s["target"])
        elif op == "relink":
            self.relink(s["path"], s["old"])
        elif op == "rename":
            self.rename(s["to"], s["path"])
        elif op == "mkdir":
            self.rmdir(s["path"])
        elif op == "rmdir":
            self.remake(s["path"], s.get("mode"))
        elif op == "state":
            self.state(_decode(s.get("before")))
        elif op == "file":
            self.restore_file(
                Path(s["file"]),
                _decode(s.get("after")),
                _decode(s.get("before")),
                private=not s.get("shared"),
            )
        elif op == "write":
            self.restore_settings(
                Path(s["file"]), _decode(s.get("after")), _decode(s.get("before"))
            )
        elif op == "copy":
            self.uncopy(Path(s["file"]), s["entries"])

    def restore_file(
        self, path: Path, expected: str | None, text: str | None, private: bool = True
    ) -> None:
        """Put a file of ext's back to `text`, if it still holds `expected`: 0600 when
        `private` (the approvals store), else with the umask's mode (a host's command)."""

        def act() -> None:
            _put_file(path, expected, text, shared=not private)

        self._file_step("file", path, expected, text, act, shared=not private)

    def _file_step(
        self,
        op: Op,
        path: Path,
        before: str | None,
        after: str | None,
        act: Callable[[], None],
        shared: bool = False,
    ) -> None:
        """A step that turns a file's text from `before` into `after`, both journaled; a
        `shared` file (not 0600) is said so, for undo to make it again as it was."""
        step: JournalStep = {
            "op": op,
            "file": str(path),
            "before": _encode(before),
            "after": _encode(after),
        }
        if shared:
            step["shared"] = True
        self._step(step, act)

    def rollback(self) -> list[str]:
        """Reverse the steps taken, newest first; returns what could not be reversed."""
        failures = []
        done = {id(step) for step in self.done}
        taken = [s for s in self._pending if id(s) not in done and _taken(self.root, s)]
        self.done.extend(taken)
        self._pending = ()
        while self.done:
            step = self.done.pop()
            try:
                reverse(self.root, step)
            except (OSError, ExtError) as exc:
                failures.append(f"{step['op']} {step.get('path') or step.get('file')}: {exc}")
        while self._copies:
            copy = self._copies.pop()
            with contextlib.suppress(OSError):  # a folder that still holds another copy stays
                copy.unlink()
                for folder in (copy.parent, copy.parent.parent):  # .extset/agent/<kind>, agent
                    folder.rmdir()
        return failures


def reverse(root: Path, step: JournalStep) -> None:
    """Undo one journal step."""
    op = step["op"]
    if op == "state":
        from installer.ground.state import read_state_text, write_state_text

        before = _decode(step["before"])
        if read_state_text(root) != before:  # a write that failed (disk full) left it as it was
            write_state_text(root, before)
        return
    undo = _REVERSE.get(op)
    if undo is None:
        raise OSError(f"unknown journal step {op!r}")
    undo(root, root / step["path"] if "path" in step else Path(step["file"]), step)


def _taken(root: Path, step: JournalStep) -> bool:
    """Whether a step an interrupt cut short was taken all the same, by what is on disk: its
    link, folder or move is there (a plan links, makes or moves only where nothing was), or
    the file holds the text it wrote."""
    seen = _SEEN.get(step["op"])
    return seen is not None and seen(root, root / step.get("path", ""), step)


def _points(path: Path, target: str) -> bool:
    try:
        return os.readlink(path) == target
    except OSError:
        return False


def _points_where_it_went(root: Path, path: Path, step: JournalStep) -> bool:
    return _points(path, step["target"])


def _holds_what_it_wrote(root: Path, path: Path, step: JournalStep) -> bool:
    return _read_text(Path(step["file"])) == _decode(step["after"])


def _state_is(root: Path, text: str | None) -> bool:
    from installer.ground.state import read_state_text

    return read_state_text(root) == text


# op -> whether the disk shows it taken, given the agent dir, the step's path and the step
_SEEN: dict[str, Callable[[Path, Path, JournalStep], bool]] = {
    "mkdir": lambda root, path, step: path.is_dir(),
    "symlink": _points_where_it_went,
    "relink": _points_where_it_went,
    "rename": lambda root, path, step: (
        os.path.lexists(root / step["to"]) and not os.path.lexists(path)
    ),
    "unlink": lambda root, path, step: not os.path.lexists(path),
    "rmdir": lambda root, path, step: not os.path.lexists(path),
    "copy": lambda root, path, step: os.path.lexists(step["file"]),  # whole or not: see remove
    "uncopy": lambda root, path, step: (
        os.path.lexists(step["to"]) and not os.path.lexists(step["file"])
    ),
    "state": lambda root, path, step: _state_is(root, _decode(step["after"])),
    "write": _holds_what_it_wrote,
    "file": _holds_what_it_wrote,
}


def _uncopy(root: Path, path: Path, step: JournalStep) -> None:
    if os.path.lexists(path):
        raise FileExistsError(f"{path} already exists")
    os.rename(step["to"], path)


def _remove_copy(root: Path, path: Path, step: JournalStep) -> None:
    from installer.ground import trees

    trees.remove(path, step["entries"])


# op -> how to take it back, given the agent dir, the step's path and the step
_REVERSE: dict[str, Callable[[Path, Path, JournalStep], None]] = {
    "mkdir": lambda root, path, step: path.rmdir(),
    "rmdir": lambda root, path, step: _mkdir_as(path, step.get("mode")),
    "symlink": lambda root, path, step: os.unlink(path),
    "rename": lambda root, path, step: os.rename(root / step["to"], path),
    "unlink": lambda root, path, step: os.symlink(step["target"], path),
    "relink": lambda root, path, step: _swap_link(path, step["old"]),
    "write": lambda root, path, step: _restore(path, step["before"], step.get("after")),
    "settings": lambda root, path, step: _unwrite(path, _decode(step.get("before"))),
    "file": lambda root, path, step: _put_file(
        path, _decode(step.get("after")), _decode(step.get("before")), bool(step.get("shared"))
    ),
    "copy": _remove_copy,
    "uncopy": _uncopy,
}


def _swap_link(path: Path, target: str) -> None:
    """Point the link at path to target in one step: a temp link beside it, then os.replace.

    The temp's name is new (pid and random): os.symlink never replaces a file that is there,
    so a user's file with a name like ext's temp is never touched. Links a killed run left
    are cleared once their pid is gone.
    """
    tmp = path.with_name(f".{path.name}.{os.getpid()}-{os.urandom(4).hex()}.ext-tmp")
    try:
        os.symlink(target, tmp)
        os.replace(tmp, path)
    except BaseException:
        # A failed swap leaves no stray link of ours beside the real one; a Ctrl-C is raised
        # just after the call it came during, so the temp may be made, or already moved.
        with contextlib.suppress(OSError):
            if os.readlink(tmp) == target:
                os.unlink(tmp)
        raise


def _clear_swaps(folder: Path) -> None:
    """Remove the temp links of swaps that a killed ext left in folder (symlinks only)."""
    import re

    from installer.ground.atomic import alive

    pattern = re.compile(r"\..+\.(\d+)-[0-9a-f]{8}\.ext-tmp")
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        found = pattern.fullmatch(name)
        if found and not alive(int(found.group(1))) and os.path.islink(folder / name):
            with contextlib.suppress(OSError):
                os.unlink(folder / name)


def read_text(path: Path) -> str | None:
    """A file's text through a symlink, or None when it is not there (or not text)."""
    return _read_text(path)


def _rmtree(path: str | Path) -> None:
    """shutil.rmtree, best effort, imported only when there is something to remove (shutil loads
    bz2 and lzma: 2 ms of a fresh install, which removes nothing)."""
    import shutil

    shutil.rmtree(path, ignore_errors=True)


def _read_text(path: Path) -> str | None:
    try:
        return Path(os.path.realpath(path)).read_bytes().decode("utf-8")  # bytes: CRLF kept
    except (FileNotFoundError, UnicodeDecodeError):
        return None


def encode(text: str | None) -> str | None:
    """Text as the journal keeps it."""
    return _encode(text)


def _encode(text: str | None) -> str | None:
    # binascii is base64's own codec, without the base64 module's imports (struct, ~1 ms).
    from binascii import b2a_base64

    return None if text is None else b2a_base64(text.encode("utf-8"), newline=False).decode()


def decode(text: str | None) -> str | None:
    """A journaled file body back to text."""
    return _decode(text)


def _decode(text: str | None) -> str | None:
    from binascii import a2b_base64

    return None if text is None else a2b_base64(text).decode("utf-8")  # as b64decode does


def _mkdir_as(path: Path, mode: int | None) -> None:
    """A folder made again as an rmdir step found it: made with its mode (when the step kept
    it), so it is never looser, then set to it exactly (the umask may have taken bits)."""
    if mode is None:
        path.mkdir()
        return
    path.mkdir(mode)
    os.chmod(path, mode)


def _unwrite(path: Path, before: str | None) -> None:
    """After an interrupted settings write: put the earlier bytes back if they are not there."""
    if _read_text(path) == before:
        return
    from installer.ground import atomic

    if before is None:
        os.unlink(os.path.realpath(path))
    else:
        atomic.write_atomic(path, before)


def _put_file(path: Path, expected: str | None, text: str | None, shared: bool) -> None:
    """Replace a file of ext's that is still `expected` with `text` (None: no file),
    atomically: 0600, or, `shared` with the host, the umask's mode whatever the file it
    replaces had (helper-83); a link there is refused, never written through nor removed."""
    from installer.ground import atomic, own

    own.check(path, "file")
    changed = ExtError(f"{path} changed since ext wrote it", "compare it with what you expect")
    try:
        now = own.read_text(path)
    except UnicodeDecodeError:
        raise changed from None
    if now != expected:
        raise changed
    if text is None:
        own.unlink(path)
        return
    atomic.replace_own(path, text, mode=atomic.umask_mode() if shared else 0o600)


def _restore(path: Path, before: str | None, after: str | None) -> None:
    """Put back a file's earlier bytes, unless it changed since ext wrote it (never clobber)."""
    from installer.settings import restore_text

    restore_text(path, _decode(after), _decode(before))
