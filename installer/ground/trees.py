"""A file or folder as a list of entries, copied and removed only as recorded (`ext adopt`).

An entry is `[rel, kind, value]`, plain JSON for the journal: `rel` is "" for the root itself,
`kind` is "file" (value: sha256 of its bytes), "dir" (value: "") or "link" (value: the link
text, never followed). Removal checks every entry first, so a copy the user changed since
stays where it is.
"""

from __future__ import annotations

import contextlib
import filecmp
import hashlib
import os
import stat
from collections.abc import Collection
from pathlib import Path

from installer.ground.errors import ExtError

Entries = list[list[str]]

# What a folder adopted into a set leaves behind (at any depth), and why.
LEFT_OUT = {
    ".git": "a git clone's own repository: the set's repository keeps the set's history",
    "node_modules": "installed npm packages, not sources: run `npm install` there to get them",
}


def entries(root: Path, leave_out: Collection[str] = ()) -> Entries:
    """Every entry at and under root, parents before children; a socket or device is refused.

    Entries named in leave_out are not listed, nor anything under them.
    """
    out: Entries = [["", *_entry(root)]]
    if out[0][1] != "dir":
        return out
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in leave_out)
        base = Path(dirpath)
        for name in sorted(dirnames + [f for f in filenames if f not in leave_out]):
            path = base / name
            out.append([str(path.relative_to(root)), *_entry(path)])
    return out


def left_out(root: Path, leave_out: Collection[str]) -> list[str]:
    """The paths under root (relative, sorted) that entries(root, leave_out) does not list."""
    if not root.is_dir() or root.is_symlink():
        return []
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        for name in (*dirnames, *filenames):
            if name in leave_out:
                out.append(str((Path(dirpath) / name).relative_to(root)))
        dirnames[:] = [d for d in dirnames if d not in leave_out]
    return sorted(out)


def _entry(path: Path) -> list[str]:
    mode = path.lstat().st_mode
    if stat.S_ISLNK(mode):
        return ["link", os.readlink(path)]
    if stat.S_ISDIR(mode):
        return ["dir", ""]
    if stat.S_ISREG(mode):
        return ["file", _sha256(path)]
    raise ExtError(
        f"{path} is neither a file, a folder nor a link; ext copies only those",
        f"move it out of {path.parent}, then run it again",
    )


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 16), b""):
            digest.update(block)
    return digest.hexdigest()


def _at(root: Path, rel: str) -> Path:
    return root / rel if rel else root


def copy(src: Path, dst: Path, expected: Entries) -> None:
    """Copy src to dst (which must not exist), then verify it byte for byte; undo it on failure."""
    made: list[Path] = []
    try:
        for rel, kind, value in expected:
            target = _at(dst, rel)
            if kind == "dir":
                target.mkdir()
            elif kind == "link":
                os.symlink(value, target)
            else:
                _copy_file(_at(src, rel), target)
            made.append(target)
        verify(src, dst, expected)
    except BaseException:
        for path in reversed(made):
            with contextlib.suppress(OSError):
                _remove_one(path)
        raise


def _copy_file(src: Path, dst: Path) -> None:
    fd = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as out, src.open("rb") as f:
            for block in iter(lambda: f.read(1 << 16), b""):
                out.write(block)
            out.flush()
            os.fsync(out.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(dst)
        raise
    os.chmod(dst, stat.S_IMODE(src.stat().st_mode))


def verify(src: Path, dst: Path, expected: Entries) -> None:
    """dst holds exactly the recorded entries, and each file the same bytes as in src."""
    problem = None
    if entries(dst) != expected:
        problem = "it does not hold what was recorded"
    else:
        for rel, kind, _ in expected:
            if kind == "file" and not filecmp.cmp(_at(src, rel), _at(dst, rel), shallow=False):
                problem = f"{rel or dst.name} differs from the original"
                break
    if problem:
        raise ExtError(
            f"the copy {dst} is not byte for byte the original {src}: {problem}",
            "something changed the files while they were copied; run it again",
        )


def matches(root: Path, expected: Entries, leave_out: Collection[str] = ()) -> bool:
    """True when root holds exactly the recorded entries (same bytes, same link texts)."""
    try:
        return entries(root, leave_out) == expected
    except (OSError, ExtError):
        return False


def remove(root: Path, expected: Entries) -> None:
    """Delete a recorded copy, refusing (before deleting anything) if it changed since."""
    if not os.path.lexists(root):
        return
    if not matches(root, expected):
        raise ExtError(
            f"{root} changed since ext copied it; it was left as it is",
            "put it back as it was, or remove it yourself",
        )
    for rel, _kind, _value in reversed(expected):
        _remove_one(_at(root, rel))


def _remove_one(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        path.rmdir()
    else:
        path.unlink()
