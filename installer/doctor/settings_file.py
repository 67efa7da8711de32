"""Read settings.json for doctor without pi's lock: doctor writes nothing, not even a lock dir."""

from __future__ import annotations

import os
import time
from pathlib import Path

from installer.doctor.subject import SettingsRead
from installer.ground.errors import ExtError

_RETRY_SECONDS = 0.05


def read_unlocked(path: Path) -> SettingsRead:
    """The file's text and data, or the error; one retry, since pi writes it in place."""
    first = _read_once(path)
    if first.error is None or first.text is None:
        return first
    time.sleep(_RETRY_SECONDS)  # a parse error may be a write caught half-way
    return _read_once(path)


def _read_once(path: Path) -> SettingsRead:
    from installer.settings import jsondoc

    try:
        text = _read_text(path)
    except ExtError as exc:  # with the text as pi reads it, when it has one (helper-61)
        from installer.settings.store import text_as_pi_reads

        return SettingsRead(path, text_as_pi_reads(path), None, exc)
    if text is None:
        return SettingsRead(path, None, {})
    try:
        # the fix's sed edits the file a dotfiles link leads to: `sed -i` on the link would
        # put a file in its place (helper-58)
        real = os.path.realpath(path)
        return SettingsRead(path, text, jsondoc.parse(text, path.name, real))
    except ExtError as exc:
        return SettingsRead(path, text, None, exc)


def _read_text(path: Path) -> str | None:
    from installer.settings.store import read_text

    return read_text(path)
