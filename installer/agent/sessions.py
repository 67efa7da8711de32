"""The session registry: `<agent>/.extset/sessions/<pid>.json`, one record per live host session.

pi sets `process.title`, so from outside a running pi shows no flags. Whoever starts a
session writes its argv here instead: `ext launch` just before it execs the host (same pid),
and the agent-side recorder (`installer/agent/ext-sessions.ts`) from inside pi. A record is
trusted only while its pid is alive and that process started when the record says; anything
else is stale (the pid is gone or was reused) and is ignored and cleaned.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from installer.ground.records import NamedTuple

# Node's process.uptime() and `ps -o etime` only approximate a start; ticks compare exactly.
START_SLACK_SECONDS = 5.0


def sessions_dir(agent_dir: Path) -> Path:
    return agent_dir / ".extset" / "sessions"


class ProcessStart(NamedTuple):
    """When a live process started: kernel clock ticks since boot (Linux) and/or epoch seconds."""

    ticks: int | None
    epoch: float | None


class SessionRecord(NamedTuple):
    """One host session as its starter recorded it."""

    pid: int
    argv: tuple[str, ...]
    start_ticks: int | None
    started: float | None
    writer: str
    path: Path

    def has_flag(self, flag: str) -> bool:
        """True when the session was started with `flag` (`--ssh` or `--ssh=host`)."""
        return any(a == flag or a.startswith(flag + "=") for a in self.argv[1:])

    def describe(self) -> str:
        return f"pid {self.pid}: {' '.join(self.argv[1:]) or '(no arguments)'}"


def process_start(pid: int) -> ProcessStart | None:
    """The start of a live process; None when there is none (or only a zombie) with that pid."""
    stat = _proc_stat(pid)
    if stat is not None:
        state, ticks = stat
        if state in ("Z", "X"):
            return None
        boot = _boot_time()
        hz = os.sysconf("SC_CLK_TCK")
        return ProcessStart(ticks, None if boot is None else boot + ticks / hz)
    if Path("/proc/self/stat").exists():
        return None  # /proc works here and has no such pid
    return _start_from_ps(pid)


def _proc_stat(pid: int) -> tuple[str, int] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    # comm (field 2) may hold spaces and ')'; the fields after the last ')' are fixed.
    rest = text[text.rfind(")") + 2 :].split()
    try:
        return rest[0], int(rest[19])  # field 3 is the state, field 22 the start time
    except (IndexError, ValueError):
        return None


def _boot_time() -> float | None:
    try:
        for line in Path("/proc/stat").read_text(encoding="ascii").splitlines():
            if line.startswith("btime "):
                return float(line.split()[1])
    except (OSError, ValueError):
        pass
    return None


def _start_from_ps(pid: int) -> ProcessStart | None:
    """Without /proc (macOS, BSD): `kill 0` for life, `ps -o etime=` for the start."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:
        pass  # alive, someone else's
    import subprocess  # here only: on Linux /proc answers, and `ext launch` imports this module

    from installer.ground.which import for_children

    try:
        out = subprocess.run(
            ["ps", "-o", "etime=", "-p", str(pid)],
            env=for_children(os.environ),  # `ps` looked up on it: never a `./ps` (helper-77)
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        ).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return ProcessStart(None, None)
    seconds = parse_etime(out)
    return ProcessStart(None, None if seconds is None else time.time() - seconds)


def parse_etime(text: str) -> int | None:
    """`ps` elapsed time `[[dd-]hh:]mm:ss` -> seconds."""
    days, _, clock = text.strip().rpartition("-")
    parts = clock.split(":")
    if not 2 <= len(parts) <= 3:
        return None
    try:
        numbers = [int(p) for p in parts]
        total = int(days) * 86400 if days else 0
    except ValueError:
        return None
    seconds = 0
    for n in numbers:
        seconds = seconds * 60 + n
    return total + seconds


def is_live(record: SessionRecord, start: ProcessStart | None) -> bool:
    """True when the record's process is alive and is the same process that was recorded."""
    if start is None:
        return False
    if record.start_ticks is not None and start.ticks is not None:
        return record.start_ticks == start.ticks
    if record.started is not None and start.epoch is not None:
        return abs(record.started - start.epoch) <= START_SLACK_SECONDS
    return True  # alive and nothing to compare: cannot prove it stale, so it counts


def read_records(agent_dir: Path) -> Iterator[SessionRecord]:
    """Every record that parses; unreadable ones are skipped (and cleaned as stale)."""
    folder = sessions_dir(agent_dir)
    try:
        paths = sorted(p for p in folder.iterdir() if p.suffix == ".json")
    except OSError:
        return
    for path in paths:
        record = _parse(path)
        if record is not None:
            yield record


def _parse(path: Path) -> SessionRecord | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        pid = int(data["pid"])
        argv = tuple(str(a) for a in data.get("argv", []))
        ticks = data.get("start_ticks")
        started = data.get("started")
        return SessionRecord(
            pid=pid,
            argv=argv,
            start_ticks=int(ticks) if ticks is not None else None,
            started=float(started) if started is not None else None,
            writer=str(data.get("writer", "?")),
            path=path,
        )
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None


def live_sessions(agent_dir: Path, clean: bool = True) -> list[SessionRecord]:
    """The records of sessions still running; with `clean`, stale and broken records go."""
    live, keep = [], set()
    for record in read_records(agent_dir):
        if is_live(record, process_start(record.pid)):
            live.append(record)
            keep.add(record.path)
    if clean:
        _clean(agent_dir, keep)
    return live


def _clean(agent_dir: Path, keep: set[Path]) -> None:
    folder = sessions_dir(agent_dir)
    try:
        paths = [p for p in folder.iterdir() if p.suffix == ".json" and p not in keep]
    except OSError:
        return
    for path in paths:
        # Re-check just before removing: the pid may have been reused by a new session.
        record = _parse(path)
        if record is None or not is_live(record, process_start(record.pid)):
            with contextlib.suppress(OSError):
                path.unlink()


def write_session_record(agent_dir: Path, argv: Sequence[str], writer: str = "launch") -> Path:
    """Record this process as a host session started with argv; call it just before exec."""
    pid = os.getpid()
    start = process_start(pid)
    record: dict[str, Any] = {
        "version": 1,
        "pid": pid,
        "argv": list(argv),
        "start_ticks": start.ticks if start else None,
        "started": start.epoch if start and start.epoch is not None else time.time(),
        "writer": writer,
    }
    from installer.ground import atomic, own

    folder = sessions_dir(agent_dir)
    path = folder / f"{pid}.json"
    for last in (False, True):
        own.ensure_dir(folder.parent)
        own.ensure_dir(folder)
        try:
            atomic.replace_own(path, json.dumps(record) + "\n")
            break
        except FileNotFoundError:
            # The last set's uninstall took the empty folder between the two steps (it
            # cleans ended sessions' records after its lock): made again, once.
            if last:
                raise
    return path
