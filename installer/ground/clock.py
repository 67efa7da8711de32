"""Now, as ext writes it: a journal's start, a backup's stamp, an approval's date.

`datetime` costs ~1.5 ms to import here (its whole pure-Python module runs before the C one
replaces it), a tenth of a fresh install's own work, for two strings `time` gives as well.
A Moment says them as `datetime` does, so a test's fixed clock may still be a datetime.
"""

from __future__ import annotations

import time

from installer.ground.records import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol

    class When(Protocol):
        """What ext asks of a point in time: a datetime is one, and so is a Moment."""

        def strftime(self, fmt: str, /) -> str: ...

        def isoformat(self) -> str: ...

        def timestamp(self) -> float: ...


class Moment(NamedTuple):
    """A point in time, said in the local time zone."""

    ns: int  # since the epoch, as time.time_ns() gives it

    def strftime(self, fmt: str, /) -> str:
        """As datetime.strftime of the local time; `%f` is the microseconds."""
        micro = f"{self.ns // 1000 % 1_000_000:06d}"
        return time.strftime(fmt.replace("%f", micro), time.localtime(self.ns // 1_000_000_000))

    def isoformat(self) -> str:
        """As datetime.isoformat of the local time with its offset: `2026-12-06T09:10:06.123456
        +01:00`, the microseconds left out when there are none."""
        local = time.localtime(self.ns // 1_000_000_000)
        micro = self.ns // 1000 % 1_000_000
        text = time.strftime("%Y-%m-%dT%H:%M:%S", local) + (f".{micro:06d}" if micro else "")
        offset = local.tm_gmtoff
        sign = "-" if offset < 0 else "+"
        hours, rest = divmod(abs(offset), 3600)
        minutes, seconds = divmod(rest, 60)
        return f"{text}{sign}{hours:02d}:{minutes:02d}" + (f":{seconds:02d}" if seconds else "")

    def timestamp(self) -> float:
        """Seconds since the epoch, as datetime.timestamp gives them."""
        return self.ns / 1_000_000_000


def when_run(started: str) -> str:
    """A run's start (a journal's ISO time, in its own run's zone) in this shell's zone, to the
    second: runs made in two zones are said in one (helper-90: `history` listed a run of
    23:04 above one of 00:04 the day after, in order, but it read as the wrong one)."""
    from datetime import datetime  # only where a run's time is said, never on the everyday path

    try:
        return datetime.fromisoformat(started).astimezone().strftime("%Y-%m-%dT%H:%M:%S")
    except (TypeError, ValueError):
        return started[:19]
