"""A value as one word to paste into a shell; a path under the home as `~/…`, the `~/` outside
the quotes so the shell expands it (`~/'my agent'`, never `'~/my agent'`)."""

from __future__ import annotations

import os
import shlex
from pathlib import Path


def shell_word(value: object, home: str | None = None) -> str:
    """`value` quoted for a POSIX shell; a Path under `home` (default $HOME) as `~/…`."""
    text = str(value)
    home = (os.environ.get("HOME", "") if home is None else home).rstrip("/")
    if isinstance(value, Path) and home and text.startswith(home + "/"):
        return "~/" + _quote(text[len(home) + 1 :])
    return _quote(text)


def _quote(text: str) -> str:
    """shlex's single quotes; `$'…'` for text with a control character or a byte its name
    could not decode: in single quotes those are printed as escapes (a newline as `\\n`, on
    screen) that the shell would then take as two characters, naming another path."""
    if not any(_unprintable(c) for c in text):
        return shlex.quote(text)
    return "$'" + "".join(_ansi_c(c) for c in text) + "'"


def _unprintable(c: str) -> bool:
    o = ord(c)
    return o < 0x20 or 0x7F <= o < 0xA0 or 0xDC80 <= o <= 0xDCFF


def _ansi_c(c: str) -> str:
    o = ord(c)
    if c in "\\'":
        return "\\" + c
    if 0xDC80 <= o <= 0xDCFF:  # an undecodable byte (surrogateescape): the byte itself
        return f"\\x{o - 0xDC00:02x}"
    if o < 0x20 or o == 0x7F:
        return {"\n": "\\n", "\t": "\\t", "\r": "\\r"}.get(c, f"\\x{o:02x}")
    if 0x80 <= o < 0xA0:
        return f"\\u{o:04x}"
    return c
