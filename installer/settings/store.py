"""The one code path that reads and writes settings.json: under pi's lock, atomically."""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path

from installer.ground import atomic
from installer.ground.errors import ExtError, read_fix
from installer.ground.readfile import NotReadable, read_bytes
from installer.ground.records import NamedTuple
from installer.settings import jsondoc
from installer.settings.files import MAX_BYTES
from installer.settings.lock import WAIT_SECONDS, settings_lock

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    Change = Callable[[dict[str, Any]], "dict[str, Any] | None"]


class SettingsDoc(NamedTuple):
    """settings.json as read: its text (None when the file is missing), data and layout."""

    path: Path
    text: str | None
    data: dict[str, Any]
    fmt: jsondoc.JsonFormat


class SettingsUpdate(NamedTuple):
    """What a change did (or, previewed, would do) to settings.json."""

    path: Path
    before: str | None
    after: str | None

    @property
    def changed(self) -> bool:
        """True when the file's text differs (or is created)."""
        return self.before != self.after


def read_text(path: Path) -> str | None:
    """The file's text without pi's lock (doctor reads only), capped in size; None if absent."""
    return _read_text(path)


def glance(path: Path, bom: bool = False) -> dict[str, Any]:
    """settings.json's data for a reader that only looks (no lock, no error): {} when it is
    missing, unreadable, not a regular file (a FIFO is never waited on), too large, or not a
    JSON object (`bom`: a leading byte-order mark is skipped, as the reader it mirrors does)."""
    import json

    try:
        text = _read_text(path)
        data = json.loads(text.removeprefix("\ufeff") if bom else text) if text else None
    except (ExtError, ValueError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


def text_as_pi_reads(path: Path) -> str | None:
    """The file's text as pi reads it (readFileSync's "utf-8": a byte that is no UTF-8 as
    U+FFFD), or None: not a regular file, over ext's size cap, unreadable (helper-59)."""
    try:
        return read_bytes(path, MAX_BYTES).decode("utf-8", "replace")
    except (NotReadable, OSError):
        return None


def _read_text(path: Path) -> str | None:
    """The file's text, capped in size, or None when it does not exist (a FIFO planted at
    settings.json is refused at once, never waited on: installer/ground/readfile.py)."""
    try:
        raw = read_bytes(path, MAX_BYTES)
    except FileNotFoundError:
        return None
    except NotReadable as err:
        if err.errno == errno.EFBIG:
            raise ExtError(
                f"{path} is larger than {MAX_BYTES // (1024 * 1024)} MiB; refusing to read it",
                fix=f"check {path}: a settings file is a few kilobytes",
            ) from None
        raise ExtError(
            f"{path} is not a regular file",
            fix=f"move {path} away: pi expects a JSON file there",
        ) from None
    except OSError as err:
        fix = read_fix(err.errno, path)
        raise ExtError(f"cannot read {path}: {err.strerror}", fix=fix) from None
    return jsondoc.decode(raw, str(path))


def _load(path: Path) -> SettingsDoc:
    text = _read_text(path)
    if text is None:
        return SettingsDoc(path, None, {}, jsondoc.NEW_FILE_FORMAT)
    data = jsondoc.parse(text, str(path), os.path.realpath(path))  # a fix's sed: the real file
    return SettingsDoc(path, text, data, jsondoc.detect_format(text))


def read_settings(path: Path, *, wait: float = WAIT_SECONDS) -> SettingsDoc:
    """Read and parse settings.json without taking a lock: a read, a plan, a dry run write nothing.

    pi writes settings.json in place, so a read can meet a half-written file. Only while pi
    holds its lock can that be so: then the read waits, without writing, for the lock to go
    and reads again. (Writes read once more under the lock in update_settings.)
    """
    try:
        doc = _load(path)
        if doc.text is None or doc.text.strip():
            return doc
    except ExtError:
        if not _wait_unlocked(path, wait):
            raise
        return _load(path)
    _wait_unlocked(path, wait)
    return _load(path)


def _wait_unlocked(path: Path, wait: float) -> bool:
    """Wait while pi holds a fresh lock on path; True when it was held at all."""
    import time

    from installer.settings.lock import POLL_SECONDS, inspect_lock

    if inspect_lock(path) != "held":
        return False
    deadline = time.monotonic() + wait
    while inspect_lock(path) == "held" and time.monotonic() < deadline:
        time.sleep(POLL_SECONDS)
    return True


def _apply(doc: SettingsDoc, change: Change, remove_empty: bool = False) -> str | None:
    """The new text for doc after change, or doc's own text when nothing changes; None: no
    file (`remove_empty`: a file, not a link, that the change leaves `{}` goes).

    An existing file is edited as text (splice): only the members the change touched are
    rewritten, every other byte stays as the user or pi wrote it.
    """
    result = change(jsondoc.clone(doc.data))
    if result is None:
        return doc.text
    if doc.text is None and not result:
        return None  # nothing to write: do not create an empty file
    if remove_empty and not result and not doc.path.is_symlink():
        return None
    if doc.text is not None:  # no file yet (a no-op's common case) needs no splicer
        from installer.settings import splice

        if splice.same(result, doc.data):
            return doc.text
    try:
        if doc.text is None or not doc.text.strip():
            return jsondoc.dump(result, doc.fmt)
        return splice.splice(doc.text, doc.data, result, doc.fmt)
    except ValueError as err:  # NaN or an infinity from a set's [settings]
        raise ExtError(
            f"cannot write {doc.path}: a new value is not JSON ({err})",
            fix="use finite numbers in the set's [settings] (no nan or inf)",
        ) from None


def compose(*changes: Change) -> Change:
    """One change made of several, so a command writes settings.json once."""

    def run(data: dict[str, Any]) -> dict[str, Any]:
        for change in changes:
            result = change(data)
            data = data if result is None else result
        return data

    return run


def preview_update(path: Path, change: Change, *, wait: float = WAIT_SECONDS) -> SettingsUpdate:
    """What update_settings would write, without writing (for --dry-run and the plan)."""
    return preview_of(read_settings(path, wait=wait), change)


def preview_of(doc: SettingsDoc, change: Change, remove_empty: bool = False) -> SettingsUpdate:
    """What change would make of a document already read (one read serves plan and preview)."""
    return SettingsUpdate(doc.path, doc.text, _apply(doc, change, remove_empty))


class _Staged(NamedTuple):
    """A change computed and flushed to a temp file before the lock, from `before`."""

    before: str | None
    after: str | None
    temp: Path | None


def _stage_unlocked(path: Path, target: Path, change: Change, remove_empty: bool) -> _Staged | None:
    """Compute the change and fsync its temp file without the lock, to hold pi's lock briefly.

    pi gives up on its lock after about 200 ms and then runs as if settings.json had no
    packages, so the slow part of a write must not happen while ext holds the lock. What
    was read here may be stale or half-written by pi: it is only used when the text read
    under the lock is the same.
    """
    try:
        doc = _load(path)
        after = _apply(doc, change, remove_empty)
        changed = after is not None and after != doc.text
        return _Staged(doc.text, after, atomic.stage(target, after) if changed and after else None)
    except ExtError:
        return None  # the locked pass reads again and reports what is really wrong


def update_settings(
    path: Path, change: Change, *, wait: float = WAIT_SECONDS, remove_empty: bool = False
) -> SettingsUpdate:
    """Lock, read, apply change, write atomically; keep the formatting; write through a symlink.

    change gets a private copy of the data and returns the new data, or None for no change.
    It may be called twice (once before the lock), so it must have no side effects.
    A missing file counts as {} and is created only when change adds something;
    `remove_empty`: a file (not a link) the change leaves `{}` is removed.
    """
    target = atomic.target_of(path)
    staged = _stage_unlocked(path, target, change, remove_empty)
    temp = staged.temp if staged else None
    try:
        with settings_lock(path, wait=wait) as lock:
            atomic.clear_orphans(target)  # a killed run's temp; a live run's is kept (its pid)
            doc = _load(path)
            if staged is not None and staged.before == doc.text:
                after = staged.after
            else:
                atomic.discard(temp)
                temp = None
                after = _apply(doc, change, remove_empty)
            if after is not None and after != doc.text:
                _check_owner(target)
                temp = temp or atomic.stage(target, after)
                lock.ensure_held()
                atomic.commit(temp, target)
                temp = None
            elif after is None and doc.text is not None:  # `_apply` said so: not a link
                _check_owner(target)
                lock.ensure_held()
                target.unlink()
    finally:
        atomic.discard(temp)
    if after != doc.text:
        atomic.fsync_dir(target.parent)
    return SettingsUpdate(path, doc.text, after)


def _check_owner(target: Path) -> None:
    """Refuse to replace a settings.json that belongs to another user.

    ext writes by rename: the new file would be ext's user's, with the owner's permissions
    gone (a 0444 file of theirs would even be replaced although they made it read-only).
    """
    try:
        owner = os.stat(target).st_uid
    except FileNotFoundError:
        return
    if hasattr(os, "geteuid") and owner != os.geteuid():
        raise ExtError(
            f"{target} belongs to another user (uid {owner}); ext would replace it with a "
            "file of its own; nothing was changed",
            fix=f"run ext as the user who owns {target} (the one pi runs as)",
        )


def restore_text(
    path: Path, expected: str | None, text: str | None, *, wait: float = WAIT_SECONDS
) -> None:
    """Put earlier bytes back (undo): text, or no file for None, if the file is still `expected`.

    A file changed since (by the user or pi) is never clobbered: that is an ExtError naming it.
    """
    target = atomic.target_of(path)
    with settings_lock(path, wait=wait) as lock:
        current = _read_text(path)
        if current != expected:
            raise ExtError(
                f"{path} changed since ext wrote it; not restoring the earlier version",
                fix=f"compare {path} with what you expect and edit it by hand",
            )
        if current == text:
            return
        _check_owner(target)
        lock.ensure_held()
        if text is None:
            target.unlink()
        else:
            atomic.commit(atomic.stage(target, text), target)
    atomic.fsync_dir(target.parent)
