"""A checkout's HEAD commit read straight from `.git` files: no subprocess, for the hot path."""

from __future__ import annotations

from pathlib import Path

# A ref file holds a line; packed-refs, a line a ref. Past this, or no regular file (a FIFO
# would hold the read, /dev/zero fill memory: helper-69), it is no checkout ext reads.
_CAP = 16 * 1024 * 1024


def _text(path: Path) -> str:
    from installer.ground.readfile import read_text

    return read_text(path, cap=_CAP)


def _line(path: Path) -> str:
    """A file of one line (HEAD, a loose ref, `commondir`, a `.git` file): its first 4 KiB,
    so a huge one is no huge version string (helper-71)."""
    from installer.ground.readfile import read_head

    return read_head(path, 4096, errors="strict")


def head_sha(set_dir: Path) -> str | None:
    """The checkout's HEAD commit read from `.git` files directly (no subprocess; hot path)."""
    git_dir = _git_dir(set_dir)
    if git_dir is None:
        return None
    try:
        head = _line(git_dir / "HEAD").strip()
        if not head.startswith("ref: "):
            return _sha(head)
        ref = head[5:]
        common = _common_dir(git_dir)
        for folder in (git_dir, common):
            loose = folder / ref
            if loose.is_file():
                return _sha(_line(loose).strip())
        for line in _text(common / "packed-refs").splitlines():
            sha, _, name = line.partition(" ")
            if name == ref:
                return _sha(sha)
    except (OSError, UnicodeDecodeError):
        return None
    return None


def _sha(text: str) -> str | None:
    """A commit's name (SHA-1 or SHA-256 hex), or None for anything else."""
    hexdigits = frozenset("0123456789abcdef")
    return text if len(text) in (40, 64) and hexdigits.issuperset(text) else None


def _git_dir(start: Path) -> Path | None:
    for folder in (start, *start.parents):
        dot = folder / ".git"
        if dot.is_dir():
            return dot
        if dot.is_file():  # a worktree or submodule: "gitdir: <path>"
            try:
                text = _line(dot).strip()
            except (OSError, UnicodeDecodeError):
                return None
            if text.startswith("gitdir: "):
                return (folder / text[8:]).resolve()
            return None
    return None


def _common_dir(git_dir: Path) -> Path:
    try:
        text = _line(git_dir / "commondir").strip()
    except (OSError, UnicodeDecodeError):
        return git_dir
    return (git_dir / text).resolve()
