"""A unified diff of settings.json for --dry-run and the plan shown before the prompt."""

from __future__ import annotations

from pathlib import Path

_NO_EOL = "\\ No newline at end of file\n"


def _lines(text: str | None) -> list[str]:
    """Lines with their endings; a last line without one is marked as diff(1) does."""
    if not text:
        return []
    lines = text.splitlines(keepends=True)
    if not lines[-1].endswith("\n"):
        lines[-1] += "\n" + _NO_EOL
    return lines


def render_diff(before: str | None, after: str | None, path: Path | str) -> str:
    """The change from before to after as a unified diff; "" when they are the same.

    None stands for a missing file (before: created; after: nothing written).
    """
    if before == after:
        return ""
    import difflib

    old = "/dev/null" if before is None else f"a/{path}"
    new = "/dev/null" if after is None else f"b/{path}"
    return "".join(difflib.unified_diff(_lines(before), _lines(after), old, new))
