"""A read-only run, replayed while nothing it read has changed.

`ext install` on a set already installed, `ext list` and `ext env` read a few hundred paths
and write nothing; run again with nothing changed they print the same thing. So the first
such run is recorded: every path it looked at, with what it saw (a `stat`, an `lstat`, a
link's target, an `access` answer, or the error), and what it printed and its exit code.
The next run with the same argv, working folder, environment, terminals and interpreter
makes the same system calls on the same paths, and when every answer is the one recorded
it prints what was printed and exits with the same code, without loading ext. One answer
that differs, and the command runs as usual (and is recorded again).

What a run looked at is seen where it happens, not listed by hand: while recording,
`os.stat`, `os.lstat`, `os.readlink`, `os.access` and `os.scandir` are wrapped, and an audit
hook (PEP 578) sees every file opened and every folder listed, and stats it before it is
read. A run is not recorded when it did anything a replay would not redo:

- wrote anything outside ext's own cache folder, or opened a file for writing there
  without being ext (it is: the manifest and host caches are caches, replays need not
  redo them);
- started a process, opened a socket, changed folder, read stdin, opened a device or a
  pipe, or looked under /proc, /sys or /dev (their times do not move with their contents);
- read the clock, except the few readers that only decide whether to keep a cache
  (`_CLOCK_OK`), and the update notice, which is due by the clock and says until when what
  it decided holds (`bound`): the record is replayed only until then;
- saw a path modified too recently for its time to tell a second change (the "racy" rule
  of git's index: within 0.1 s of the run's start, or 2 s on a file system with whole-second
  times).

A folder's times move when an entry is added, removed or renamed in it; a file's when its
bytes, mode or owner change (its ctime, which nobody can set back, with them); a link is
compared by its target. Nothing is trusted that another user could have written: the
cache folder is 0700, each file 0600, and both must be the user's. Deleting the folder is
always safe, and `EXT_NO_REPLAY=1` turns replays off (`EXT_REPLAY_DEBUG=1` says, on stderr,
whether a run was replayed or recorded, or why not).

Linux only (elsewhere ext's cache folder is platformdirs' to name, and that costs the
import this saves).
"""

from __future__ import annotations

import marshal
import os
import sys

TYPE_CHECKING = False  # typing's own costs ~2 ms of a replay's ~15: mypy reads this as True
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TextIO

FORMAT = 4
COMMANDS = frozenset({"install", "list", "env"})  # argv words worth a look for a replay
CALLS = frozenset({"install", "list_items", "env"})  # the grammar's calls that are recorded
_VOLATILE = frozenset(
    {"_", "OLDPWD", "SHLVL", "EXT_REPLAY_DEBUG"}
)  # shells set them; ext reads none
_KEEP = 64  # recorded runs kept; the oldest go first
_FINE_NS, _COARSE_NS = 100_000_000, 2_000_000_000  # the racy window (see above)
_PSEUDO = ("/proc/", "/sys/", "/dev/")

LSTAT, STAT, READLINK, ACCESS = 0, 1, 2, 3  # a check: (kind, path, answer); ACCESS: (mode, yes)
# A folder stat'ed but never listed: what it is, not when it last changed (its times move
# with every entry made in it, /tmp's all the time, and nothing of ext reads them).
DIR_LSTAT, DIR_STAT = 4, 5

# Modules that read the clock only to decide whether a cache entry is settled or fresh,
# never for what they print: the manifest cache, pi's package.json, the host version cache.
_CLOCK_OK = frozenset({"installer.ground.manifest", "installer.host.pi", "installer.host.cache"})
# Modules whose output depends on the clock, and which say until when it holds (`bound`):
# the update notice.
_CLOCK_BOUNDED = frozenset({"installer.updates.notice"})
_RECORDING: list[Recorder] = []  # the recorder of this run, while it records
_MUTATING = frozenset(
    {
        "os.rename", "os.remove", "os.rmdir", "os.mkdir", "os.symlink", "os.link",
        "os.chmod", "os.chown", "os.utime", "os.truncate", "os.setxattr", "os.removexattr",
        "shutil.copyfile", "shutil.copymode", "shutil.copystat", "shutil.copytree",
        "shutil.rmtree", "shutil.move", "shutil.chown",
    }
)  # fmt: skip
_OUTSIDE = frozenset(
    {
        "subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork",
        "os.forkpty", "os.kill", "os.killpg", "os.chdir", "socket.connect", "socket.bind",
        "socket.sendto", "socket.sendmsg", "ctypes.dlopen", "pty.spawn", "fcntl.ioctl",
    }
)  # fmt: skip


def cache_dir() -> str | None:
    """`<user cache dir>/extset/replay` by installer.ground.userdirs' rule, None off Linux."""
    if sys.platform != "linux" or os.environ.get("EXT_NO_REPLAY"):
        return None
    xdg, home = os.environ.get("XDG_CACHE_HOME", ""), os.environ.get("HOME", "")
    if os.path.isabs(xdg):
        return os.path.join(xdg, "extset", "replay")
    if os.path.isabs(home):
        return os.path.join(home, ".cache", "extset", "replay")
    return None


def _key(argv: list[str]) -> str:
    """Everything but the file system a read-only run's output can depend on."""
    env = sorted(item for item in os.environ.items() if item[0] not in _VOLATILE)
    ttys = tuple(os.isatty(fd) for fd in (0, 1, 2))
    size = None
    if ttys[1] or ttys[2]:
        try:
            size = tuple(os.get_terminal_size(1 if ttys[1] else 2))
        except OSError:
            size = None
    cwd = os.getcwd()  # OSError when it was deleted under us: then no replay and no record
    return repr((FORMAT, sys.executable, sys.version, argv, cwd, env, ttys, size, os.getuid()))


def _file(folder: str, key: str) -> str:
    import zlib

    return os.path.join(folder, f"{zlib.crc32(key.encode('utf-8', 'surrogateescape')):08x}")


def _ours(st: os.stat_result, folder: bool) -> bool:
    mode = 0o077 if folder else 0o022
    return st.st_uid == os.getuid() and not st.st_mode & mode


def _sig(st: os.stat_result) -> tuple[int, ...]:
    return (
        st.st_mode, st.st_ino, st.st_dev, st.st_size, st.st_mtime_ns, st.st_ctime_ns,
        st.st_uid, st.st_gid,
    )  # fmt: skip


def _what(sig: tuple[int, ...]) -> tuple[int, ...]:
    """A folder's signature without its size and times."""
    return (sig[0], sig[1], sig[2], sig[6], sig[7])


# The calls themselves, kept before a recording wraps them.
_LSTAT, _STAT, _READLINK, _ACCESS, _SCANDIR = os.lstat, os.stat, os.readlink, os.access, os.scandir


_ASK: dict[int, Callable[[str, int], Any]] = {
    LSTAT: lambda path, mode: _sig(_LSTAT(path)),
    STAT: lambda path, mode: _sig(_STAT(path)),
    READLINK: lambda path, mode: _READLINK(path),
    ACCESS: _ACCESS,
    DIR_LSTAT: lambda path, mode: _what(_sig(_LSTAT(path))),
    DIR_STAT: lambda path, mode: _what(_sig(_STAT(path))),
}


def _answer(kind: int, path: str, mode: int = 0) -> Any:
    """What the file system answers now, or the error number it answers with."""
    try:
        return _ASK[kind](path, mode)
    except OSError as error:
        return error.errno
    except ValueError:  # a NUL in the path: the run saw the same
        return -1


def _load(path: str, key: str) -> tuple[Any, ...] | None:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return None
    try:
        if not (_ours(os.fstat(fd), False) and _ours(os.stat(os.path.dirname(path)), True)):
            return None
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
    except OSError:
        return None
    finally:
        os.close(fd)
    try:
        entry = marshal.loads(b"".join(chunks))  # noqa: S302 (the user's own 0600 file)
    except (EOFError, ValueError, TypeError):
        return None
    if not (isinstance(entry, tuple) and len(entry) == 7 and entry[0] == key):
        return None
    return entry


def replay(argv: list[str]) -> Recorder | None:
    """Replay this run and exit when it was recorded and nothing it read has changed (and its
    stdout takes the output, see _replayed); else the Recorder that records it (None when
    this argv is not one to record)."""
    if not COMMANDS.intersection(argv):
        return None
    folder = cache_dir()
    if folder is None:
        return None
    try:
        key = _key(argv)
    except OSError:
        return None
    path = _file(folder, key)
    entry = _load(path, key)
    if entry is not None:
        _, checks, out, err, code, window, writes = entry
        if _in_window(window) and _holds(checks):
            if os.environ.get("EXT_REPLAY_DEBUG"):
                err += "ext: replay: replayed\n"
            _replayed(out, err, code, writes)  # returns only when stdout failed: run as usual
    return Recorder(key, path, folder)


def _in_window(window: tuple[int, int] | None) -> bool:
    """Whether now is inside the window the record holds for (None: it read no clock)."""
    if window is None:
        return True
    import time

    return window[0] <= time.time_ns() < window[1]


def _holds(checks: tuple[tuple[int, str, Any], ...]) -> bool:
    """Whether every check answers as recorded: _answer, with the readlink of each of a large
    set's ~1,000 links made in the loop, where a call per check costs a tenth of the replay."""
    readlink, lstat = _READLINK, _LSTAT
    for kind, where, want in checks:
        try:
            if kind == READLINK:
                if readlink(where) != want:
                    return False
                continue
            if kind == LSTAT:
                got: Any = _sig(lstat(where))
            elif kind == ACCESS:
                got = (want[0], _ACCESS(where, want[0]))
            else:
                got = _ASK[kind](where, 0)
        except OSError as error:
            got = error.errno
        except ValueError:
            got = -1
        if got != want:
            return False
    return True


def stop(why: str) -> None:
    """This run will do what a replay would not redo (a command that knows it writes says so
    before it reads its trees): stop recording it now rather than at its first write."""
    for recorder in list(_RECORDING):
        recorder.spoil(why)


def reads_only() -> None:
    """This run writes nothing (a listing, a dry run): its replay, like it, says nothing when
    stdout's reader left (installer.render.ui.Output.writes)."""
    for recorder in _RECORDING:
        recorder.writes = False


def bound(since: float, until: float | None) -> None:
    """What this run prints holds from `since` until `until` (seconds since the epoch; None:
    no end): a module of _CLOCK_BOUNDED says so after it read the clock."""
    for recorder in _RECORDING:
        recorder.bounded(since, until)


def _replayed(out: str, err: str, code: int, writes: bool) -> None:
    """Print what the run printed and exit with its code; a reader that is gone is met as a
    real run meets it (installer.render.ui.Output): the note on stderr for a command that
    `writes`, the same exit code.

    Any other fault of stdout (`> /dev/full`) returns instead, and the command runs as usual:
    it meets the same fault and says it as a real run does (an error, exit 1), not as a
    replay would guess it. The output goes to the descriptors, never through the streams'
    buffers: nothing of it is left there for that run, nor for an exit to flush."""
    try:
        _put(1, sys.stdout, out)
    except OSError as fault:
        from installer.ground.streams import STDOUT_GONE, reader_gone

        if not reader_gone(fault):
            return
        if writes:
            err += STDOUT_GONE.format(code=code) + "\n"
    try:  # noqa: SIM105 - no contextlib on a replay (docs/performance.md)
        _put(2, sys.stderr, err)
    except OSError:
        pass  # said nowhere, as a real run's stderr that is gone
    os._exit(code)


def _put(fd: int, stream: TextIO, text: str) -> None:
    """Write text to fd whole, encoded as stream (sys.stdout, sys.stderr) would encode it. A
    descriptor that cannot take more now (non-blocking, shared with a parent) is waited for:
    a fault after part of the output would have it written twice."""
    data = memoryview(text.encode(stream.encoding, stream.errors or "strict"))
    while data:
        try:
            data = data[os.write(fd, data) :]
        except BlockingIOError:
            import select

            select.select([], [fd], [])


class _Tee:
    """sys.stdout or sys.stderr, keeping what is written for the record."""

    def __init__(self, stream: Any, kept: list[str], recorder: Recorder) -> None:
        self._stream, self._kept, self._recorder = stream, kept, recorder

    def write(self, text: str) -> int:
        if self._recorder._on:  # an Output keeps the stream it was given after a spoil
            self._kept.append(text)
        return int(self._stream.write(text))

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        if name in ("buffer", "fileno", "detach"):
            self._recorder.spoil(f"sys stream .{name}")
        return getattr(self._stream, name)


class _Stdin:
    """sys.stdin: asking whether it is a terminal is in the key; reading it spoils the run."""

    def __init__(self, stream: Any, recorder: Recorder) -> None:
        self._stream, self._recorder = stream, recorder

    def isatty(self) -> bool:
        return bool(self._stream.isatty())

    def __getattr__(self, name: str) -> Any:
        self._recorder.spoil(f"stdin .{name}")
        return getattr(self._stream, name)


class _Entry:
    """An os.DirEntry whose answers that go past the folder's listing are recorded."""

    __slots__ = ("_entry", "_recorder", "name", "path")

    def __init__(self, entry: os.DirEntry[str], recorder: Recorder) -> None:
        self._entry, self._recorder = entry, recorder
        self.name, self.path = entry.name, entry.path

    def is_symlink(self) -> bool:
        return self._entry.is_symlink()

    def is_dir(self, *, follow_symlinks: bool = True) -> bool:
        if follow_symlinks and self._entry.is_symlink():
            self._recorder.note(STAT, self.path)
        return self._entry.is_dir(follow_symlinks=follow_symlinks)

    def is_file(self, *, follow_symlinks: bool = True) -> bool:
        if follow_symlinks and self._entry.is_symlink():
            self._recorder.note(STAT, self.path)
        return self._entry.is_file(follow_symlinks=follow_symlinks)

    def stat(self, *, follow_symlinks: bool = True) -> os.stat_result:
        self._recorder.note(STAT if follow_symlinks else LSTAT, self.path)
        return self._entry.stat(follow_symlinks=follow_symlinks)

    def inode(self) -> int:
        return self._entry.inode()

    def __fspath__(self) -> str:
        return self.path

    def __repr__(self) -> str:
        return f"<DirEntry {self.name!r}>"


class _Listing:
    def __init__(self, found: Any, recorder: Recorder) -> None:
        self._found, self._recorder = found, recorder

    def __iter__(self) -> _Listing:
        return self

    def __next__(self) -> _Entry:
        return _Entry(next(self._found), self._recorder)

    def __enter__(self) -> _Listing:
        return self

    def __exit__(self, *exc: object) -> None:
        self._found.close()

    def close(self) -> None:
        self._found.close()


class Recorder:
    """What one run looked at, and what it printed: the record a later run may replay."""

    def __init__(self, key: str, path: str, folder: str) -> None:
        import time

        self.key, self.path, self.folder = key, path, folder
        self.cwd = os.getcwd()  # the run may not change it (os.chdir spoils it)
        self.mine = os.path.dirname(folder) + os.sep  # ext's cache folder: its caches write there
        self.checks: dict[tuple[int, str], Any] = {}
        self.listed: set[str] = set()  # folders listed: their times are their contents
        self.spoiled: str | None = None
        self.out: list[str] = []
        self.err: list[str] = []
        self._time = time
        self.started = time.time_ns()
        self.writes = True  # what the run's Output says (reads_only): a reader gone is said
        # Tests make trees and change them within the window: they may narrow it.
        self.settle_ns = int(os.environ.get("EXT_REPLAY_WINDOW_NS") or _FINE_NS)
        self._saved: list[tuple[Any, str, Any]] = []
        self.window: tuple[int, int] | None = None  # [since, until) in ns, for a bounded clock
        self.unbounded: str | None = None  # a bounded reader read the clock, and said no bound
        self._on = True
        _RECORDING.append(self)
        self._wrap()
        sys.addaudithook(self._audit)

    # -- seeing --

    def spoil(self, why: str) -> None:
        """This run does something a replay would not redo: it is not recorded, and the rest
        of it runs on the real calls (a fresh install's 1,000 links pay nothing for a record)."""
        if self._on and self.spoiled is None:
            self.spoiled = why
            self._unwrap()

    def note(self, kind: int, path: Any, mode: int = 0) -> Any:
        """Record the answer path gives now (before the run reads it); the answer, or None."""
        if not self._on or self.spoiled is not None:
            return None
        try:
            return self._note(kind, path, mode)
        except Exception as error:  # recording never changes what the run does
            self.spoil(f"not recorded: {error!r}")
            return None

    def _note(self, kind: int, path: Any, mode: int) -> Any:
        if isinstance(path, os.PathLike):
            path = os.fspath(path)
        if isinstance(path, int):
            return None  # an open descriptor: its file was noted when it was opened
        if not isinstance(path, str):
            self.spoil(f"a path of type {type(path).__name__}")
            return None
        if not path.startswith("/"):
            path = os.path.join(self.cwd, path)
        if path.startswith(_PSEUDO) or path in ("/proc", "/sys", "/dev"):
            self.spoil(f"looked at {path}")
            return None
        if kind == ACCESS:
            key: tuple[int, str] = (ACCESS, f"{mode}:{path}")
            if key not in self.checks:
                self.checks[key] = (path, mode, _answer(ACCESS, path, mode))
            return self.checks[key][2]
        key = (kind, path)
        if key not in self.checks:
            self.checks[key] = _answer(kind, path)
        return self.checks[key]

    def _audit(self, event: str, args: tuple[Any, ...]) -> None:
        if not self._on or self.spoiled is not None:
            return
        try:
            self._event(event, args)
        except Exception as error:  # recording never changes what the run does
            self.spoil(f"not recorded: {error!r}")

    def _event(self, event: str, args: tuple[Any, ...]) -> None:
        if event == "open":
            self._opened(*args[:3])
        elif event in ("os.listdir", "os.scandir"):
            where = args[0] if args[0] is not None else "."
            if isinstance(where, (str, os.PathLike)):
                self.listed.add(os.path.normpath(os.path.join(self.cwd, os.fspath(where))))
            self.note(STAT, where)
        elif event in _MUTATING:
            if not all(self._ours(a) for a in args if isinstance(a, (str, os.PathLike))):
                self.spoil(event)
        elif event in _OUTSIDE or event.startswith(("socket.", "subprocess.", "os.exec")):
            self.spoil(event)

    def _opened(self, path: Any, mode: Any, flags: Any) -> None:
        if path is None or isinstance(path, int):
            return
        writes = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
            isinstance(flags, int)
            and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND)
        )
        if writes:
            if not self._ours(path):
                self.spoil(f"opened {path} to write")
            return
        seen = self.note(STAT, path)
        if isinstance(seen, tuple) and not (0o100000 <= seen[0] < 0o120000 or seen[0] >> 12 == 4):
            self.spoil(f"opened {path}, not a file")  # a device, a pipe, a socket

    def _ours(self, path: Any) -> bool:
        path = os.fspath(path)
        path = path if isinstance(path, str) else os.fsdecode(path)
        return os.path.join(self.cwd, path).startswith(self.mine)

    def _wrap(self) -> None:
        def wrapped(module: Any, name: str, make: Any) -> None:
            real = getattr(module, name)
            self._saved.append((module, name, real))
            setattr(module, name, make(real))

        def stat(real: Any) -> Any:
            def stat(path: Any, *, dir_fd: Any = None, follow_symlinks: bool = True) -> Any:
                if dir_fd is not None:
                    self.spoil("a stat relative to a descriptor")
                self.note(STAT if follow_symlinks else LSTAT, path)
                return real(path, dir_fd=dir_fd, follow_symlinks=follow_symlinks)

            return stat

        def lstat(real: Any) -> Any:
            def lstat(path: Any, *, dir_fd: Any = None) -> Any:
                if dir_fd is not None:
                    self.spoil("an lstat relative to a descriptor")
                self.note(LSTAT, path)
                return real(path, dir_fd=dir_fd)

            return lstat

        def readlink(real: Any) -> Any:
            def readlink(path: Any, *, dir_fd: Any = None) -> Any:
                if dir_fd is not None:
                    self.spoil("a readlink relative to a descriptor")
                self.note(READLINK, path)
                return real(path, dir_fd=dir_fd)

            return readlink

        def access(real: Any) -> Any:
            def access(path: Any, mode: int, **kw: Any) -> Any:
                if kw:
                    self.spoil("access with options")
                self.note(ACCESS, path, mode)
                return real(path, mode, **kw)

            return access

        def scandir(real: Any) -> Any:
            def scandir(path: Any = ".") -> Any:
                found = real(path)
                return _Listing(found, self) if self._on else found

            return scandir

        strftime = self._time.strftime

        def clock(real: Any) -> Any:
            def clock(*args: Any) -> Any:
                if len(args) < (2 if real is strftime else 1) and self._on:
                    caller = sys._getframe(1).f_globals.get("__name__")
                    if caller in _CLOCK_BOUNDED:
                        self.unbounded = f"{caller} read the clock and said no bound"
                    elif caller not in _CLOCK_OK:
                        self.spoil(f"{caller} read the clock")
                return real(*args)

            return clock

        wrapped(os, "stat", stat)
        wrapped(os, "lstat", lstat)
        wrapped(os, "readlink", readlink)
        wrapped(os, "access", access)
        wrapped(os, "scandir", scandir)
        for name in ("time", "time_ns", "localtime", "gmtime", "ctime", "asctime", "strftime"):
            wrapped(self._time, name, clock)
        sys.stdout = _Tee(sys.stdout, self.out, self) if sys.stdout is not None else None
        sys.stderr = _Tee(sys.stderr, self.err, self) if sys.stderr is not None else None
        sys.stdin = _Stdin(sys.stdin, self) if sys.stdin is not None else None

    def bounded(self, since: float, until: float | None) -> None:
        """The output holds in [since, until): kept with the record, checked by a replay."""
        if not self._on:
            return
        self.unbounded = None
        low = int(since * 1e9)
        high = int(until * 1e9) if until is not None else 1 << 62
        if self.window is not None:
            low, high = max(low, self.window[0]), min(high, self.window[1])
        self.window = (low, high)

    # -- keeping --

    def drop(self) -> None:
        """Stop recording: this run is not one to replay. What it already printed stays."""
        if self.spoiled is None:
            self.spoiled = "not a command replays stand for"
        self._unwrap()

    def _unwrap(self) -> None:
        if not self._on:
            return
        self._on = False
        if self in _RECORDING:
            _RECORDING.remove(self)
        for module, name, real in reversed(self._saved):
            setattr(module, name, real)
        for name in ("stdout", "stderr", "stdin"):
            stream = getattr(sys, name)
            if isinstance(stream, (_Tee, _Stdin)):
                setattr(sys, name, stream._stream)

    def finish(self, code: object) -> str | None:
        """Keep the record when the run was one a replay can stand for; why not, if not."""
        try:
            why = self._finish(code)
        except Exception as error:  # recording never changes what the run does
            self._unwrap()
            why = f"not recorded: {error!r}"
        if os.environ.get("EXT_REPLAY_DEBUG"):
            sys.stderr.write(f"ext: replay: {why or 'recorded'}\n")
        return why

    def _finish(self, code: object) -> str | None:
        for module, item in list(sys.modules.items()):
            where = getattr(item, "__file__", None)
            if module.split(".")[0] == "installer" and isinstance(where, str):
                self.note(STAT, where)  # ext's own code, loaded before the recording began
        for where in sys.path:
            if where:
                self.note(STAT, where)  # a package installed or removed beside ext
        why = self.spoiled or self.unbounded
        self._unwrap()
        if why is None and not isinstance(code, int):
            why = "an exit code that is not a number"
        if why is None:
            why = self._racy()
        if why is None and isinstance(code, int):
            why = self._write(code)
        return why

    def _folder_only(self, kind: int, path: str, seen: Any) -> bool:
        if kind not in (STAT, LSTAT) or not isinstance(seen, tuple) or seen[0] >> 12 != 4:
            return False
        return os.path.normpath(path) not in self.listed

    def _racy(self) -> str | None:
        for (kind, path), seen in self.checks.items():
            if self._folder_only(kind, path, seen):
                continue
            if kind in (STAT, LSTAT) and isinstance(seen, tuple):
                changed = max(seen[4], seen[5])
                window = _COARSE_NS if seen[4] % 1_000_000_000 == 0 else self.settle_ns
                if changed >= self.started - window:
                    return f"{path} changed too recently to tell a second change"
        return None

    def _write(self, code: int) -> str | None:
        checks: list[tuple[int, str, Any]] = []
        for (kind, path), seen in self.checks.items():
            if kind == ACCESS:
                where, mode, yes = seen
                checks.append((ACCESS, where, (mode, yes)))
            elif self._folder_only(kind, path, seen):
                checks.append((DIR_STAT if kind == STAT else DIR_LSTAT, path, _what(seen)))
            else:
                checks.append((kind, path, seen))
        out, err = "".join(self.out), "".join(self.err)
        entry = (self.key, tuple(checks), out, err, code, self.window, self.writes)
        try:
            os.makedirs(self.folder, mode=0o700, exist_ok=True)
            if not _ours(os.stat(self.folder), True):
                return f"{self.folder} is not only the user's"
            partial = f"{self.path}.{os.getpid()}.partial"
            fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
            try:
                os.write(fd, marshal.dumps(entry))
            finally:
                os.close(fd)
            os.replace(partial, self.path)
            self._trim()
        except (OSError, ValueError) as error:
            return f"not written: {error}"
        return None

    def _trim(self) -> None:
        kept = []
        for name in os.listdir(self.folder):
            try:
                kept.append((os.stat(os.path.join(self.folder, name)).st_mtime_ns, name))
            except OSError:
                continue
        for _, name in sorted(kept, reverse=True)[_KEEP:]:
            try:  # not contextlib.suppress: it loads collections and functools, 3 ms of a replay
                os.unlink(os.path.join(self.folder, name))
            except OSError:
                continue
