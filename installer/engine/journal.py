"""What each apply did, one JSON line a step, written before the step is taken.

A journal without its closing line belongs to a run that was killed part-way; the next run
finds it (`incomplete`) and says so. `ext undo` reads the steps back to reverse them.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

from installer.ground.atomic import alive
from installer.ground.clock import Moment
from installer.ground.records import NamedTuple

KEEP_DEFAULT = 50
# One encoder for every line: json.dumps with an option builds a new one per call.
_encode = json.JSONEncoder(ensure_ascii=False).encode
_string = json.encoder.encode_basestring  # the same encoder's strings (ensure_ascii=False)


def _line(obj: JournalStep | dict[str, Any]) -> str:
    """One journal line: `_encode`'s, with a link's step written straight from its two strings
    (a fresh install journals 1,000 of them: 2 ms through the encoder, 0.3 ms so)."""
    if len(obj) == 3 and obj.get("op") == "symlink":
        path, target = obj.get("path"), obj.get("target")
        if type(path) is str and type(target) is str:
            return f'{{"op": "symlink", "path": {_string(path)}, "target": {_string(target)}}}\n'
    return _encode(obj) + "\n"


TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO, Any, Literal, Required, TypedDict

    from installer.ground.clock import When

    # What a step did, by its `op`; each names what reverses it (engine/transaction.reverse).
    Op = Literal[
        "mkdir",
        "symlink",
        "rename",
        "unlink",
        "relink",
        "copy",
        "uncopy",
        "settings",
        "write",
        "rmdir",
        "state",
        "file",
    ]
    # One journaled step: `op` and the fields that op writes ("from" is a keyword, hence the
    # form).
    JournalStep = TypedDict(
        "JournalStep",
        {
            "op": Required[Op],
            "path": str,
            "target": str,
            "to": str,
            "kind": str,  # what a rename moved, when not a link ("dir" or "file")
            "mode": int,  # a folder an rmdir removed: its permission bits
            "shared": bool,  # a "file" step's file the host reads: not 0600 (Gemini's TOML)
            "old": str,
            "from": str,
            "file": str,
            "entries": Any,
            "before": Any,
            "after": Any,
        },
        total=False,
    )
else:  # the same at run time, unbuilt: the TypedDict call cost 1.2 ms of every writing run
    JournalStep = dict


def journal_dir(agent_dir: Path) -> Path:
    return agent_dir / ".extset" / "journal"


class Journal:
    """An open journal file; each `record` is flushed before the step it describes runs."""

    def __init__(
        self,
        agent_dir: Path,
        command: str,
        now: When,
        ext_version: str,
        mode: str | None = None,
        set_of: tuple[str, str] | None = None,  # the set the run was for: (name, root)
        asked: tuple[str, ...] = (),  # the words it was asked with (`--skip notify`)
    ) -> None:
        from installer.ground import own

        folder = journal_dir(agent_dir)
        own.ensure_dir(folder.parent)
        own.ensure_dir(folder)
        os.chmod(folder, 0o700)  # a real folder now, not a link: chmod cannot reach elsewhere
        stamp = utc_stamp(now)  # microseconds: runs in one second stay in order
        fd, self.path = _create(folder, stamp, f"{os.getpid()}-{command.replace(' ', '-')}")
        self._file: IO[str] = os.fdopen(fd, "w", encoding="utf-8")
        head = {
            "journal": 1,
            "command": command,
            "started": now.isoformat(),
            "ext": ext_version,
            "agent": str(agent_dir),  # where its absolute paths were: the dir may move
        }
        if mode:
            head["mode"] = mode
        if set_of is not None:
            head["set"], head["root"] = set_of
        if asked:
            head["asked"] = list(asked)
        self._write(head)

    def record(self, step: JournalStep) -> None:
        self._write(step)

    def record_all(self, steps: list[JournalStep]) -> None:
        """Several steps in one write, all of them flushed before the first is taken."""
        self._write(*steps)

    def close(self, status: str) -> None:
        self._write({"end": status})
        self._file.close()

    def _write(self, *objs: JournalStep | dict[str, Any]) -> None:
        try:
            self._file.write("".join([_line(obj) for obj in objs]))
            # A flush is what survives kill -9 (the page cache keeps it); fsync only guards
            # power loss.
            self._file.flush()
        except OSError as err:  # a full disk says nothing of where: name the journal
            raise OSError(err.errno, err.strerror, str(self.path)) from err


def _create(folder: Path, when: str, tail: str) -> tuple[int, Path]:
    """A new journal file; a second apply in the same second (same pid) gets `.001`, …."""
    n = 0
    while True:
        path = folder / f"{when}{f'.{n:03d}' if n else ''}-{tail}.jsonl"
        try:
            return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), path
        except FileExistsError:
            n += 1


class Record(NamedTuple):
    """A journal read back."""

    path: Path
    command: str
    started: str
    status: str | None  # "ok", "rolled-back", "finished-by-next-run", None if never finished
    steps: tuple[JournalStep, ...]
    undone: str | None = None  # when `ext undo` reversed it
    mode: str | None = None  # the mode an install ran in
    set_of: tuple[str, str] | None = None  # the set it ran for (name, root); older ext: None
    agent: str | None = None  # the agent dir it ran in, as then named; older ext: None
    asked: tuple[str, ...] = ()  # the words it was asked with (`--skip notify`); older ext: ()

    @property
    def asked_as(self) -> str:
        """The run as its command line asked for it: `install --skip notify`."""
        from installer.ground.shellword import words

        return f"{self.command} {words(*self.asked)}".rstrip()

    @property
    def name(self) -> str:
        return self.path.stem

    def moved_from(self, root: Path) -> str | None:
        """Where the agent dir was when the run named its absolute paths, if it has moved to
        `root` since (`mv ~/agent-a ~/agent-b`); None when it has not. The head names it; an
        older ext's journal only through ext's own copies (`<dir>/.extset/agent/…`)."""
        then = self.agent or next(
            (
                value.partition(_COPIES)[0]
                for s in self.steps
                for value in (s.get("file"), s.get("target"))
                if isinstance(value, str) and _COPIES in value
            ),
            None,
        )
        now = str(root)
        if then is None or then == now or _one_folder(then, now):  # a link's other name
            return None
        return then


def moved(path: str, then: str | None, root: Path) -> str:
    """A step's absolute path, from where the dir was (`then`) to where it is (`root`)."""
    if then is None or not path.startswith(then + os.sep):
        return path
    return str(root) + path[len(then) :]


def _one_folder(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # the old place is gone: the dir moved
        return False


_COPIES = f"{os.sep}.extset{os.sep}agent{os.sep}"  # ext's own agent files, in every agent dir


def read(path: Path) -> Record | None:
    """Parse a journal; None for a file that is not one of ours."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    objs: list[dict[str, Any]] = []
    for line in lines:
        try:
            obj = json.loads(line)
        except json.JSONDecodeError:
            break  # a line cut short by a crash ends the readable part
        if not isinstance(obj, dict):
            break  # ext writes objects only: what follows is not ours either
        objs.append(obj)
    if not objs or objs[0].get("journal") != 1:
        return None
    head, rest = objs[0], objs[1:]
    status = next((o["end"] for o in rest if "end" in o), None)
    undone = next((o["undone"] for o in rest if "undone" in o), None)
    found: Iterator[Any] = (o for o in rest if "op" in o)  # each a step, as ext wrote it
    steps: tuple[JournalStep, ...] = tuple(found)
    command, started = head.get("command", "?"), head.get("started", "")
    name, root = head.get("set"), head.get("root")
    set_of = (name, root) if isinstance(name, str) and isinstance(root, str) else None
    agent = head.get("agent") if isinstance(head.get("agent"), str) else None
    words = head.get("asked")
    asked = tuple(w for w in words if isinstance(w, str)) if isinstance(words, list) else ()
    mode = head.get("mode")
    return Record(path, command, started, status, steps, undone, mode, set_of, agent, asked)


def records(agent_dir: Path) -> Iterator[Record]:
    """Every journal of the agent dir, newest first."""
    for path in _paths(agent_dir):
        rec = read(path)
        if rec is not None:
            yield rec


def utc_stamp(now: When) -> str:
    """A journal's name's start: when it began in UTC, `20261206T091133.488021Z`. A local
    time (as ext wrote before) put an older run first after a change of zone, or in the hour
    a clock goes back (helper-88: `ext undo` then reversed the run before the last)."""
    # A Moment's own nanoseconds, cut as its isoformat cuts them (helper-90: a float rounded
    # named a run 1 µs after its `started`); a test's datetime, by its timestamp.
    us = now.ns // 1000 if isinstance(now, Moment) else round(now.timestamp() * 1_000_000)
    return time.strftime("%Y%m%dT%H%M%S", time.gmtime(us // 1_000_000)) + f".{us % 1_000_000:06d}Z"


def _in_utc(name: str) -> str:
    """A journal's name with its start in UTC: as written (`…Z`), or an older ext's local time
    turned into UTC (in the hour a clock goes back, which of the two it was is a guess); a
    name of another shape stays as it is."""
    when = name[:22]  # 20261206T091133.488021
    shaped = when[:8].isdigit() and when[8] == "T" and when[9:15].isdigit() and when[15] == "."
    if name[22:23] == "Z" or not (len(when) == 22 and shaped and when[16:].isdigit()):
        return name  # ext's own, or of another shape (an early ext's had no microseconds)
    local = (int(when[:4]), int(when[4:6]), int(when[6:8]), int(when[9:11]), int(when[11:13]))
    seconds = time.mktime((*local, int(when[13:15]), 0, 0, -1))
    return time.strftime("%Y%m%dT%H%M%S", time.gmtime(seconds)) + when[15:] + "Z" + name[22:]


def _paths(agent_dir: Path) -> list[Path]:
    """ext's journals, newest first (by their start in UTC): regular files only, in a folder
    that is not a link."""
    folder = journal_dir(agent_dir)
    try:
        with os.scandir(folder) as found:
            if os.path.islink(folder):
                from installer.ground import own

                raise own.refused(folder, "a symlink")
            names = [e.name for e in found if e.name.endswith(".jsonl") and _regular(e)]
    except (FileNotFoundError, NotADirectoryError):
        return []
    return [folder / name for name in sorted(names, key=_in_utc, reverse=True)]


def _regular(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file(follow_symlinks=False)
    except OSError:
        return False


def incomplete(agent_dir: Path) -> Record | None:
    """The newest journal that a crash left without its closing line, if any."""
    folder = journal_dir(agent_dir)
    if not folder.is_dir():
        return None
    for path in _paths(agent_dir):
        if _closed(path):  # every command asks: read a journal's tail, not its every step
            continue
        rec = read(path)
        if rec is not None and rec.status is None and rec.steps and running(rec.path) is None:
            return rec
    return None


def at_work(agent_dir: Path) -> Record | None:
    """The newest unfinished journal whose ext is alive: the run that holds the lock."""
    for path in _paths(agent_dir):
        pid = pid_of(path)
        if pid is None or pid == os.getpid() or _closed(path) or not alive(pid):
            continue
        rec = read(path)
        if rec is not None and rec.status is None:
            return rec
    return None


# Commands whose journal a run that takes no names repeats whole (`ext install` again); the
# others' (`disable NAME`) only as typed; the rest are no command of their own to run again.
_WHOLE = ("install", "uninstall", "settings migrate")
_NAMED = ("enable", "disable", "toggle", "adopt", "consent approve")


_UNDO_SETTLED = (
    "`ext undo` finishes it",  # doctor
    "this run finishes it",  # the next undo
    # any other run marks the undo superseded: the next undo reverses that run instead
    "`ext undo` would have finished it; this run goes on from where it stopped",
)


def finishes(
    rec: Record, running: str | None, asked: tuple[str, ...] = (), mode: str | None = None
) -> bool:
    """Whether a run of `running`, asked with the words `asked` in `mode`, is the interrupted
    one run again: the same command, one that takes no names (a `disable b` is no second try
    of a killed `disable a`; helper-33), asked the same (a plain `install` is no second try
    of a killed `install --skip notify`, which it would undo in part: helper-76; `--skip b,a`
    is `--skip a,b`: helper-78), in the same mode (a link install after a killed register
    one changes how the set is installed)."""
    if running != rec.command or rec.command in _NAMED or not _same_mode(rec.mode, mode):
        return False
    return _selection(rec.asked) == _selection(asked)


def _same_mode(journaled: str | None, mode: str | None) -> bool:
    return journaled is None or mode is None or journaled == mode


def _selection(asked: tuple[str, ...]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Words a run was asked with, in an order of their own: each flag once, with the names
    it was given sorted (`--only b --only a` and `--only a,b` ask the same)."""
    names: dict[str, set[str]] = {}
    flag = ""
    for word in asked:
        if word.startswith("--"):
            flag = word
            names.setdefault(flag, set())
        else:
            names.setdefault(flag, set()).update(n for n in word.split(",") if n)
    return tuple(sorted((f, tuple(sorted(ns))) for f, ns in names.items()))


def settling(
    rec: Record, running: str | None = None, asked: tuple[str, ...] = (), mode: str | None = None
) -> str:
    """How a run cut short is finished or reversed, said once for every reader: the warning
    of the run `running` now, asked with the words `asked` (it goes on), or doctor's fix
    (None)."""
    if rec.command == "undo":  # an undo is finished by another, not reversed
        return _UNDO_SETTLED[{None: 0, "undo": 1}.get(running, 2)]
    if finishes(rec, running, asked, mode):
        return "this run finishes the job (`ext undo` reverses it instead)"
    if rec.command in _WHOLE:  # the selection it was asked with, from its journal, if any
        return f"`ext {rec.asked_as}` finishes it, `ext undo` reverses it"
    if rec.command in _NAMED and rec.asked:
        return f"`ext {rec.asked_as}` again finishes it; `ext undo` reverses it"
    if rec.command in _NAMED:  # a journal of an older ext: what was asked is not in it
        return f"`ext {rec.command}` again, as you typed it, finishes it; `ext undo` reverses it"
    return "`ext undo` reverses it"


def _closed(path: Path, tail: int = 4096) -> bool:
    """Whether the journal's closing line is among its last bytes (only `undone` follows it)."""
    try:
        with path.open("rb") as f:
            f.seek(max(0, f.seek(0, os.SEEK_END) - tail))
            last = f.read().splitlines()
    except OSError:
        return False
    return any(line.startswith(b'{"end": ') for line in last[1:] or last)


def running(path: Path) -> int | None:
    """The pid of the ext that writes this journal while it is still at work, else None.

    The pid is in the journal's name. An unfinished journal of a live process is a run in
    progress, not one that was killed; but a run at work holds the agent dir's lock, so with
    the lock free the pid is a process that died unreaped, or another that took its number.
    """
    pid = pid_of(path)
    if pid is None or pid == os.getpid():
        return None
    from installer.engine.lock import free

    if free(path.parent.parent.parent):  # <agent>/.extset/journal/<name>
        return None
    return pid if alive(pid) else None


def pid_of(path: Path) -> int | None:
    """The pid a journal's name carries: `<when>-<pid>-<command>.jsonl`."""
    try:
        return int(path.stem.split("-")[1])
    except (IndexError, ValueError):
        return None


def mark(path: Path, status: str) -> None:
    """Close a journal found incomplete, once its run has been finished or reversed."""
    _append(path, {"end": status})


def mark_undone(path: Path, when: When) -> None:
    """Note that `ext undo` reversed this run, so the next undo goes one further back."""
    _append(path, {"undone": when.isoformat()})


def _append(path: Path, obj: dict[str, Any]) -> None:
    from installer.ground import own

    fd = own.open_file(path, os.O_WRONLY | os.O_APPEND)
    with os.fdopen(fd, "a", encoding="utf-8") as f:
        f.write(json.dumps(obj) + "\n")


def keep_setting(config: Path | None = None) -> int:
    """How many journals to keep: `[journal] keep` in ext's config file, else 50 (at least 1)."""
    if config is None:
        from installer.ground.userdirs import config_file

        config = config_file()
    try:
        text = config.read_text(encoding="utf-8")
    except (OSError, ValueError):
        return KEEP_DEFAULT
    import tomllib  # most people have no config file

    try:
        value = tomllib.loads(text).get("journal", {}).get("keep")
    except (ValueError, AttributeError):
        return KEEP_DEFAULT
    return (
        value
        if isinstance(value, int) and not isinstance(value, bool) and value > 0
        else (KEEP_DEFAULT)
    )


def trim(agent_dir: Path, keep: int | None = None) -> None:
    """Keep only the newest `keep` journals."""
    keep = keep_setting() if keep is None else keep
    names = _paths(agent_dir)[::-1]  # ext's own journals only, in a folder that is no link
    for old in names[: max(0, len(names) - keep)]:
        old.unlink(missing_ok=True)
