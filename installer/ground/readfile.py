"""Reading a file of a set that a hostile repository could have made anything: a FIFO (which
would wait for a writer forever), a link to /dev/zero (endless), a 2 GB sparse file. Only a
regular file no bigger than the cap is read; anything else is an OSError naming what it is,
which every reader of a set's files already takes as "cannot be read"."""

from __future__ import annotations

import errno
import os
import stat

from installer.ground.own import NOFOLLOW, NONBLOCK

# Bigger than any source or manifest a set holds (a bundled extension of 8 MB reads), far
# below what lexing or holding it in memory would make slow.
CAP = 32 * 1024 * 1024


class NotReadable(OSError):
    """A file of the set that is not a regular file, or is over the cap: never read."""


def read_bytes(path: str | os.PathLike[str], cap: int = CAP, follow: bool = True) -> bytes:
    """The bytes of a regular file of at most `cap` bytes; NotReadable (an OSError) for
    anything else, at once: opened non-blocking, its type taken from the open descriptor
    (`follow=False`: a link is refused too, ELOOP)."""
    data = _read(path, cap + 1, follow, size_cap=cap)
    if len(data) > cap:  # grew while read
        raise NotReadable(errno.EFBIG, f"bigger than {_size(cap)}", path)
    return data


def read_head(path: str | os.PathLike[str], size: int, errors: str = "replace") -> str:
    """At most the first `size` bytes of a regular file, as UTF-8 text (a character cut at
    the end replaced); NotReadable for anything but a regular file, at once."""
    return _read(path, size, True).decode("utf-8", errors)


def _read(
    path: str | os.PathLike[str], most: int, follow: bool, size_cap: int | None = None
) -> bytes:
    """At most `most` bytes of a regular file (over `size_cap` by its size: refused unread)."""
    fd = os.open(path, os.O_RDONLY | NONBLOCK | (0 if follow else NOFOLLOW))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotReadable(errno.EINVAL, f"not a regular file ({_kind(st.st_mode)})", path)
        if size_cap is not None and st.st_size > size_cap:
            raise NotReadable(errno.EFBIG, f"bigger than {_size(size_cap)}", path)
        chunks, left = [], most
        while left > 0 and (chunk := os.read(fd, min(left, 1 << 20))):
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(fd)
    return b"".join(chunks)


def _size(cap: int) -> str:
    return f"{cap >> 20} MiB" if cap >= 1 << 20 else f"{cap >> 10} KiB"


def read_text(path: str | os.PathLike[str], errors: str = "strict", cap: int = CAP) -> str:
    """read_bytes as UTF-8 text (`errors` as for bytes.decode: a ValueError when strict)."""
    return read_bytes(path, cap).decode("utf-8", errors)


def _kind(mode: int) -> str:
    for test, word in (
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISDIR, "a folder"),
    ):
        if test(mode):
            return word
    return "not a file"
