"""The one escaping rule for text that reaches a terminal, here and in pi's dialogs.

A character is shown as an escape unless Python calls it printable (a tab is kept):
C0 and C1 controls (`ESC[8m`, `\r`, U+009B), DEL, bidi controls (U+061C, U+200E,
U+202E, U+2066), zero-width and format characters (U+200B, U+2060, U+FEFF, U+00AD,
tags U+E0000-U+E007F), line and paragraph separators (U+2028, U+2029), and the rest
of Unicode's "Other" and "Separator" classes; and the characters that draw as nothing or
as a blank though Python calls them printable (BLANKS: a combining grapheme joiner,
variation selectors, Hangul fillers, the braille blank; helper-54: they made two words
look like one). The project-hooks extension implements the same rule
(extensions/project-hooks/screen.ts); tests/escape-vectors.json holds them to it, in both
test suites. A byte a file name could not decode (Python's surrogateescape,
U+DC80-U+DCFF) is shown as that byte, `\\xff`: Node never has one.
"""

from __future__ import annotations

_NAMED = {"\n": "\\n", "\r": "\\r", "\x1b": "\\x1b"}
# Unicode's Default_Ignorable_Code_Point outside the Other class, and the braille blank
BLANKS = frozenset(
    chr(c)
    for c in (
        0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B, 0x180C, 0x180D, 0x180F, 0x2800,
        0x3164, *range(0xFE00, 0xFE10), 0xFFA0, *range(0xE0100, 0xE01F0),
    )
)  # fmt: skip


def plain(text: str) -> bool:
    """Whether `escape` leaves text as it is, a tab aside (str.isprintable, less BLANKS)."""
    return text.isprintable() and (text.isascii() or BLANKS.isdisjoint(text))


def shown(c: str) -> bool:
    """Whether `escape` shows the character c as itself."""
    return c.isprintable() and c not in BLANKS


def escape(text: str) -> str:
    """text on one line, with every character a terminal could act on shown as an escape."""
    if plain(text):
        return text
    return "".join(c if shown(c) or c == "\t" else _escaped(c) for c in text)


def visible(text: str) -> str:
    """text escaped as `escape` does, line by line: its newlines are kept, for indenting."""
    return "\n".join(escape(line) for line in text.split("\n"))


def _escaped(c: str) -> str:
    code = ord(c)
    if c in _NAMED:
        return _NAMED[c]
    if code < 0x100:
        return f"\\x{code:02x}"
    if 0xDC80 <= code <= 0xDCFF:  # a byte a file name could not decode (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def cells(text: str) -> int:
    """How many columns `text` takes on a terminal: two for a wide character (日), none for a
    combining one (the accent of `é` spelled in two), one for the rest; what pads a column."""
    if text.isascii():
        return len(text)
    import unicodedata

    def width(c: str) -> int:
        if unicodedata.category(c) in ("Mn", "Me"):  # a mark drawn on the one before
            return 0
        return 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1

    return sum(map(width, text))


def pad(text: str, columns: int) -> str:
    """`text` with spaces after it to fill `columns` as a terminal draws it (`f"{x:<n}"`)."""
    return text + " " * max(columns - cells(text), 0)
