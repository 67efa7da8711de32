"""A list said in a line: all of it when short, else its first few and how many more."""

from __future__ import annotations

from collections.abc import Sequence


def few(words: Sequence[str], shown: int = 3, many: int | None = None) -> str:
    """`a, b, c`; past `many` words (default `shown`), the first `shown` and `and N more`
    (helper-29: a refusal named 320 items, twice; helper-52: this was written three times)."""
    if len(words) <= (shown if many is None else many):
        return ", ".join(words)
    return f"{', '.join(words[:shown])} and {len(words) - shown} more"


def joined(names: Sequence[str]) -> str:
    """`a`, `a and b`, `a, b and c`."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
