"""Side notes a library part may give while it works, for the CLI to show (it prints; they don't).

Cheap to import: nothing here but a list of listeners.
"""

from __future__ import annotations

from collections.abc import Callable

Listener = Callable[[str], None]
_listeners: list[Listener] = []


def listen(listener: Listener) -> None:
    """Have `listener(text)` called for every note from now on."""
    _listeners.append(listener)


def note(text: str) -> None:
    """Say something to whoever listens (nobody, in tests and library use)."""
    for listener in _listeners:
        listener(text)
