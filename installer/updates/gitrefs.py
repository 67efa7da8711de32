"""A checkout's HEAD commit read straight from `.git` files: no subprocess, for the hot path."""

from __future__ import annotations

from pathlib import Path

# A ref file holds a line; packed-refs, a line a ref. Past this, or no regular file (a FIFO
# would hold the read, /dev/zero fill memory: helper-69), it is no checkout ext reads.
_CAP = 16 * 1024 * 1024


def _text(path: Path) -> str:
    from installer.ground.readfile import read_text

    return read_text(path, cap=_CAP)


def head_sha(set_dir: Path) -> str | None:
    """The checkout's HEAD commit read from `.git` files directly (no subprocess; hot path)."""
    git_dir = _git_dir(set_dir)
    if git_dir is None:
        return None
    try:
        head = _text(git_dir / "HEAD").strip()
        if not head.startswith("ref: "):
            return head or None
        ref = head[5:]
        common = _common_dir(git_dir)
        for folder in (git_dir, common):
            loose = folder / ref
            if loose.is_file():
                return _text(loose).strip() or None
        for line in _text(common / "packed-refs").splitlines():
            sha, _, name = line.partition(" ")
            if name == ref:
                return sha
    except (OSError, UnicodeDecodeError):
        return None
    return None


def _git_dir(start: Path) -> Path | None:
    for folder in (start, *start.parents):
        dot = folder / ".git"
        if dot.is_dir():
            return dot
        if dot.is_file():  # a worktree or submodule: "gitdir: <path>"
            try:
                text = _text(dot).strip()
            except (OSError, UnicodeDecodeError):
                return None
            if text.startswith("gitdir: "):
                return (folder / text[8:]).resolve()
            return None
    return None


def _common_dir(git_dir: Path) -> Path:
    try:
        text = _text(git_dir / "commondir").strip()
    except (OSError, UnicodeDecodeError):
        return git_dir
    return (git_dir / text).resolve()
