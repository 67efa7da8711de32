"""A guard on the write entry points of os, io and builtins (dotbot's, in its tests/conftest.py).

Each wrapper checks the path a call would change against the folders a test may write in, and
for one outside them raises OutsideWrite and remembers it: a test whose code catches the error
still fails, at its teardown (tests/conftest.py). Paths are made absolute, not resolved: a
write through a link that leads out is not seen, nor is a write by a subprocess.
"""

from __future__ import annotations

import builtins
import io
import os
import tempfile
import threading
from collections.abc import Callable, Iterable
from typing import Any

import pytest

# os.open's flags that make it a write.
_WRITING = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
# os function -> (positional index, keyword, dir_fd keyword) of each path it changes.
_OS: dict[str, tuple[tuple[int, str, str], ...]] = {
    "mkdir": ((0, "path", "dir_fd"),),
    "rename": ((0, "src", "src_dir_fd"), (1, "dst", "dst_dir_fd")),
    "replace": ((0, "src", "src_dir_fd"), (1, "dst", "dst_dir_fd")),
    "symlink": ((1, "dst", "dir_fd"),),
    "link": ((1, "dst", "dst_dir_fd"),),
    "unlink": ((0, "path", "dir_fd"),),
    "remove": ((0, "path", "dir_fd"),),
    "rmdir": ((0, "path", "dir_fd"),),
    "chmod": ((0, "path", "dir_fd"),),
    "chown": ((0, "path", "dir_fd"),),
    "lchown": ((0, "path", ""),),
    "truncate": ((0, "path", ""),),
    "utime": ((0, "path", "dir_fd"),),
    "mkfifo": ((0, "path", "dir_fd"),),
    "mknod": ((0, "path", "dir_fd"),),
    "setxattr": ((0, "path", ""),),
    "removexattr": ((0, "path", ""),),
}


class OutsideWrite(AssertionError):
    """A test wrote outside the folders it may write in."""


class Guard:
    """The folders writes may go to, and the writes seen outside them."""

    def __init__(self, roots: Iterable[str]) -> None:
        self.roots = tuple(os.path.abspath(r) for r in roots)
        self.extra: list[str] = []  # folders a test made with tempfile.mkdtemp / mkstemp
        self.seen: list[str] = []
        self.temp_lock = threading.Lock()

    def allows(self, path: str) -> bool:
        for root in (*self.roots, *self.extra):
            if path == root or path.startswith(root.rstrip(os.sep) + os.sep):
                return True
        return False

    def check(self, what: str, path: Any, dir_fd: Any = None) -> None:
        if isinstance(path, int) or path is None:
            return  # a file descriptor: opened (and checked) already
        text = os.fsdecode(os.fspath(path))
        if isinstance(dir_fd, int) and not os.path.isabs(text):
            text = os.path.join(os.readlink(f"/proc/self/fd/{dir_fd}"), text)
        full = os.path.abspath(text)
        if not self.allows(full):
            message = f"{what}({full!r}) writes outside the test's temp dirs"
            self.seen.append(message)
            raise OutsideWrite(message)

    def install(self, mp: pytest.MonkeyPatch) -> None:
        """Wrap every write entry point; `mp` undoes it."""
        for name, places in _OS.items():
            if hasattr(os, name):
                mp.setattr(os, name, self._wrap_os(f"os.{name}", getattr(os, name), places))
        mp.setattr(os, "open", self._wrap_os_open(os.open))
        mp.setattr(builtins, "open", self._wrap_open("open", builtins.open))
        mp.setattr(io, "open", self._wrap_open("io.open", io.open))  # pathlib's Path.open
        mp.setattr(tempfile, "mkdtemp", self._wrap_temp(tempfile.mkdtemp, lambda made: made))
        mp.setattr(tempfile, "mkstemp", self._wrap_temp(tempfile.mkstemp, lambda made: made[1]))

    def _wrap_os(
        self, what: str, real: Callable[..., Any], places: tuple[tuple[int, str, str], ...]
    ) -> Callable[..., Any]:
        def wrapper(*args: Any, **kw: Any) -> Any:
            for index, key, fd_key in places:
                path = args[index] if len(args) > index else kw.get(key)
                self.check(what, path, kw.get(fd_key) if fd_key else None)
            return real(*args, **kw)

        return wrapper

    def _wrap_os_open(self, real: Callable[..., int]) -> Callable[..., int]:
        def wrapper(path: Any, flags: int, *args: Any, **kw: Any) -> int:
            if flags & _WRITING:
                self.check("os.open", path, kw.get("dir_fd"))
            return real(path, flags, *args, **kw)

        return wrapper

    def _wrap_open(self, what: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(file: Any, mode: str = "r", *args: Any, **kw: Any) -> Any:
            if any(c in mode for c in "wax+"):
                self.check(what, file)
            return real(file, mode, *args, **kw)

        return wrapper

    def _wrap_temp(
        self, real: Callable[..., Any], made: Callable[[Any], Any]
    ) -> Callable[..., Any]:
        """tempfile's own folders and files are the test's temp dirs too, wherever they are."""

        def wrapper(*args: Any, **kw: Any) -> Any:
            parent = os.path.abspath(_temp_parent(args, kw))
            # One at a time: a test whose threads make temp dirs (the hosts' judges, run
            # side by side) must not lose one thread's entry when another restores `extra`.
            with self.temp_lock:
                saved, self.extra = self.extra, [*self.extra, parent]
                try:
                    result = real(*args, **kw)
                finally:
                    self.extra = saved
                self.extra.append(os.fsdecode(made(result)))
            return result

        return wrapper


def _temp_parent(args: tuple[Any, ...], kw: dict[str, Any]) -> str:
    """The folder mkdtemp or mkstemp makes its entry in (`dir`, third positional)."""
    folder = args[2] if len(args) > 2 else kw.get("dir")
    return os.fsdecode(folder) if folder is not None else tempfile.gettempdir()
