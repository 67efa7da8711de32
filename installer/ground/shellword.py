"""A value as one word to paste into a shell; a path under the home as `~/…`, the `~/` outside
the quotes so the shell expands it (`~/'my agent'`, never `'~/my agent'`)."""

from __future__ import annotations

import os
import shlex
from collections.abc import Iterable
from pathlib import Path

from installer.ground.screen import plain, shown


def shell_word(value: object, home: str | None = None) -> str:
    """`value` quoted for a POSIX shell; a Path under `home` (default $HOME) as `~/…`."""
    text = str(value)
    home = (os.environ.get("HOME", "") if home is None else home).rstrip("/")
    if isinstance(value, Path) and home and text.startswith(home + "/"):
        return "~/" + _quote(text[len(home) + 1 :])
    if text.startswith("~/"):  # shown with `~` already: the home stays the shell's to expand
        return "~/" + _quote(text[2:])
    return _quote(text)


def words(*parts: str) -> str:
    """Words as a command line gives them, each quoted where it needs it (`disable 'my ext'`)."""
    return " ".join(map(shell_word, parts))


def skip_flag(labels: Iterable[str]) -> str:
    """`--skip a,b` as one word: a name may hold a space or a `$` (pi loads `my ext.ts`)."""
    return f"--skip {shell_word(','.join(labels))}"


def aside(path: object) -> str:
    """The fix that moves an entry out of ext's way: `move it aside: mv P P.bak`, pasteable."""
    return f"move it aside: mv {shell_word(Path(str(path)))} {shell_word(Path(f'{path}.bak'))}"


def _quote(text: str) -> str:
    """shlex's single quotes; `$'…'` for text with a character the screen shows as an escape
    (installer.ground.screen: a control, a bidi or zero-width one, a byte its name could not
    decode): in single quotes it would be printed as that escape (a newline as `\\n`, U+202E
    as `\\u202e`), which the shell would then take as that many characters, naming another
    path."""
    if plain(text):
        return shlex.quote(text)
    return "$'" + "".join(_ansi_c(c) for c in text) + "'"


def _ansi_c(c: str) -> str:
    """One character as bash's `$'…'` writes it."""
    o = ord(c)
    if c in "\\'":
        return "\\" + c
    if shown(c):
        return c
    if 0xDC80 <= o <= 0xDCFF:  # an undecodable byte (surrogateescape): the byte itself
        return f"\\x{o - 0xDC00:02x}"
    if o < 0x20 or o == 0x7F:
        return {"\n": "\\n", "\t": "\\t", "\r": "\\r"}.get(c, f"\\x{o:02x}")
    # Its UTF-8 bytes: bash reads `\u200b` only in a UTF-8 locale (under LC_ALL=C it stays
    # six characters, naming another path: helper-43); `\xe2\x80\x8b` is the same in any.
    return "".join(f"\\x{b:02x}" for b in c.encode("utf-8"))
