"""Backup names, made and read here alone: `<name>.bak.YYYYMMDD-HHMMSS`, `-N` where taken.

A file is backed up beside itself (pi never loads `foo.ts.bak.<stamp>`); a folder into
`<kind>/.bak/`, since beside itself it would still hold its `index.ts` or `SKILL.md` and pi
would load it. Pure: what is taken is asked of the caller.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container

from installer.ground.records import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from installer.ground.clock import When

FOLDER = ".bak"
_INFIX = ".bak."
_NAME = re.compile(r"(.*)\.bak\.(\d{8}-\d{6})(?:-(\d+))?")


class Backup(NamedTuple):
    """What a backup's name says: the entry it was, when, and its `-N` (0: none)."""

    original: str
    when: str  # YYYYMMDD-HHMMSS
    n: int = 0


def stamp(now: When) -> str:
    """The timestamp backups carry: YYYYMMDD-HHMMSS, local time."""
    return now.strftime("%Y%m%d-%H%M%S")


def name(b: Backup) -> str:
    """The file name of a backup: `notify.ts.bak.20261129-101500`, `-2` appended when n is 2."""
    return f"{b.original}{_INFIX}{b.when}" + (f"-{b.n}" if b.n else "")


def parse(filename: str) -> Backup | None:
    """The backup a file name is (one ext or install.sh made); None for any other name."""
    found = _NAME.fullmatch(filename)
    if found is None:
        return None
    original, when, n = found.groups()
    return Backup(original, when, int(n) if n else 0)


def parent(folder: str, is_dir: bool) -> str:
    """Where the backup of an entry of `folder` goes: beside it, or `folder/.bak` for a folder."""
    return f"{folder}/{FOLDER}" if is_dir else folder


def free(original: str, when: str, taken: Callable[[str], bool]) -> str:
    """The first backup name of `original` at `when` that `taken` does not claim."""
    n = 0
    while taken(candidate := name(Backup(original, when, n))):
        n += 1
    return candidate


def blank_stamp(path: str) -> str:
    """A backup path with its stamp and `-N` blanked, to compare plans made at other moments."""
    head, sep, _ = path.rpartition(_INFIX)
    return f"{head}{sep}*"


class Namer:
    """Picks backup paths that no entry has and no earlier pick of the same plan took."""

    def __init__(
        self, taken: Callable[[str], Container[str]], when: str | Callable[[], str]
    ) -> None:
        self.taken = taken  # folder (relative to the agent dir) -> the names in it
        self._when = when  # a callable: the clock is read at the first pick, if any
        self.used: set[str] = set()

    @property
    def when(self) -> str:
        if callable(self._when):
            self._when = self._when()
        return self._when

    def pick(self, folder: str, filename: str, is_dir: bool) -> str:
        """`<folder>/<filename>.bak.<when>[-N]`, or the same in `<folder>/.bak/` for a folder."""
        where = parent(folder, is_dir)
        there = self.taken(where)
        picked = free(filename, self.when, lambda c: c in there or f"{where}/{c}" in self.used)
        self.used.add(f"{where}/{picked}")
        return f"{where}/{picked}"
