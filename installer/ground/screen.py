"""The one escaping rule for text that reaches a terminal, here and in pi's dialogs.

A character is shown as an escape unless Python calls it printable (a tab is kept):
C0 and C1 controls (`ESC[8m`, `\r`, U+009B), DEL, bidi controls (U+061C, U+200E,
U+202E, U+2066), zero-width and format characters (U+200B, U+2060, U+FEFF, U+00AD,
tags U+E0000-U+E007F), line and paragraph separators (U+2028, U+2029), and the rest
of Unicode's "Other" and "Separator" classes. The project-hooks extension implements
the same rule (extensions/project-hooks/screen.ts); tests/escape-vectors.json holds
them to it, in both test suites. A byte a file name could not decode (Python's
surrogateescape, U+DC80-U+DCFF) is shown as that byte, `\\xff`: Node never has one.
"""

from __future__ import annotations

_NAMED = {"\n": "\\n", "\r": "\\r", "\x1b": "\\x1b"}


def escape(text: str) -> str:
    """text on one line, with every character a terminal could act on shown as an escape."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c == "\t" else _escaped(c) for c in text)


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
