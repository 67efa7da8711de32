"""Undo of a settings change as a three-way merge: take back ext's keys, keep everyone else's.

pi writes settings.json too (`lastChangelogVersion` on its first start), and so does the
user. Undoing ext's write by putting the old bytes back would lose theirs; refusing would
make undo useless after any pi start. So the keys ext changed are taken back while they
still hold ext's value, and everything else stays as it is now, byte for byte.
"""

from __future__ import annotations

import json
from typing import Any

from installer.ground.records import NamedTuple
from installer.settings import jsondoc
from installer.settings.splice import same, splice

MISSING: Any = object()  # a key that is absent (distinct from a key holding null)
WHOLE_FILE = "(the whole file)"  # the conflict's key when settings.json itself is gone


class Conflict(NamedTuple):
    """A key ext changed that someone changed again since: undo cannot take it back."""

    key: str
    before: Any  # what it held before ext's run (MISSING: absent)
    wrote: Any  # what ext wrote (MISSING: ext removed it)
    now: Any  # what it holds now

    def describe(self) -> str:
        """One phrase: the key and its three values."""
        if self.key == WHOLE_FILE:
            return "settings.json was deleted after ext's run changed it"
        return (
            f'"{self.key}" is {_show(self.now)} now; ext wrote {_show(self.wrote)}, '
            f"it was {_show(self.before)} before"
        )

    def fix(self) -> str:
        """A concrete edit that lets undo go on."""
        if self.key == WHOLE_FILE:
            return "write settings.json again (`{}` will do), then run `ext undo` again"
        if self.before is MISSING:
            wrote = _show(self.wrote)
            return f'remove "{self.key}" from settings.json yourself (or set it to {wrote})'
        return f'set "{self.key}" to {_show(self.before)} yourself (or to {_show(self.wrote)})'


def _show(value: Any) -> str:
    if value is MISSING:
        return "absent"
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= 80 else text[:77] + "..."


class Reverted(NamedTuple):
    """The text undo writes (None: no file), or the conflicts that stop it."""

    text: str | None
    conflicts: tuple[Conflict, ...] = ()


def revert_text(before: str | None, after: str | None, now: str | None) -> Reverted:
    """settings.json text with ext's change (before -> after) taken back from `now`."""
    if now == after:
        return Reverted(before)
    if now == before:
        return Reverted(now)  # already as it was: nothing to take back
    if now is None:
        return Reverted(None, (Conflict(WHOLE_FILE, MISSING, MISSING, MISSING),))
    name = "settings.json"
    old = jsondoc.parse(before, name) if before else {}
    new = jsondoc.parse(after, name) if after else {}
    current = jsondoc.parse(now, name)
    conflicts: list[Conflict] = []
    merged = _revert(old, new, current, "", conflicts)
    if conflicts:
        return Reverted(None, tuple(conflicts))
    if before is None and not merged:
        return Reverted(None)  # ext made the file and nothing of anyone else's is in it
    return Reverted(splice(now, current, merged, jsondoc.detect_format(now)))


def _revert(
    before: dict[str, Any],
    after: dict[str, Any],
    now: dict[str, Any],
    prefix: str,
    out: list[Conflict],
) -> dict[str, Any]:
    merged = dict(now)
    for key in [*before, *(k for k in after if k not in before)]:
        b, a = before.get(key, MISSING), after.get(key, MISSING)
        n = now.get(key, MISSING)
        if _same(b, a) or _same(n, b):
            continue  # ext did not touch it, or it is already back
        name = f"{prefix}{key}"
        if isinstance(a, dict) and isinstance(n, dict) and (b is MISSING or isinstance(b, dict)):
            inner = _revert({} if b is MISSING else b, a, n, f"{name}.", out)
            if b is MISSING and not inner:
                merged.pop(key, None)  # a parent ext made and nobody added to
            else:
                merged[key] = inner
        elif _same(n, a):
            if b is MISSING:
                merged.pop(key, None)
            else:
                merged[key] = b
        else:
            out.append(Conflict(name, b, a, n))
    return merged


def _same(a: Any, b: Any) -> bool:
    if a is MISSING or b is MISSING:
        return a is b
    return same(a, b)
