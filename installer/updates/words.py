"""How update results read, where two outputs say the same thing: one wording for both."""

from __future__ import annotations


def up_to_date(label: str, current: str | None) -> str:
    """`pi is up to date (1.6.0)`: the words of `ext update --check` and of doctor."""
    shown = current[:12] if current and len(current) == 40 else current  # a commit: short
    return f"{label} is up to date ({shown or 'unknown'})"
