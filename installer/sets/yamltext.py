"""A frontmatter key's text as YAML reads it: the one value ext passes on or compares.

pi (the `yaml` package), Gemini CLI and OpenCode (js-yaml), Codex CLI (serde_yaml) and Claude
Code all read a SKILL.md's or a template's frontmatter as YAML, so `description: "the
\\"staged\\" changes"` is `the "staged" changes` to them, `'it''s'` is `it's`, and a folded
`description: >` is the lines below it. ext writes a description into Gemini's TOML and
names a skill by its frontmatter `name`: it reads them the same way, for the forms a
frontmatter's top-level key takes (plain, quoted, block, over several lines), and gives no
answer for a value that is not text (a list, a map, an alias; `null`, `true`, `1.5` as the
core schema reads them), which it never passes on. An anchor (`&a text`) names the value: the
text is what follows it.
`tests/fs/test_yamltext.py` holds it to pi's own `yaml` package.
"""

from __future__ import annotations

import re

_WS = " \t"  # YAML's white space: not Python's, which takes in U+2028 and more
# A key line: its value as written, trailing white space too (a quoted one may escape it).
# The key's trailing blanks are its group's (`_key` takes them off): a lazy key before
# `[ \t]*` took quadratic time on a long line of blanks (helper-92: 128 KB, 15 s).
_KEY_LINE = re.compile(r"([^\s#:][^:]*):(?:[ \t]+(.*))?\Z")
_ESCAPES = {
    "0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v", "f": "\f",
    "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85",
    "_": "\xa0", "L": "\u2028", "P": "\u2029",
}  # fmt: skip
_HEX = {"x": 2, "u": 4, "U": 8}
_BLOCK = re.compile(r"([|>])([+-]?)([1-9]?)([+-]?)[ \t]*(?:#.*)?\Z")


def text_of(head: str, key: str) -> str | None:
    """The text of top-level `key` in the frontmatter `head` (the YAML between its `---`
    lines); None when the key is not there, or its value is not text ext can read."""
    lines, i, value = _key_line(head, key)
    return None if i is None else _value(value, _below(lines, i))


def has_key(head: str, key: str) -> bool:
    """Whether the frontmatter `head` has a top-level line for `key`, readable or not."""
    return _key_line(head, key)[1] is not None


def is_null(head: str, key: str) -> bool:
    """Whether top-level `key` of the frontmatter `head` is absent, or null as YAML reads it:
    nothing after it but comments and blank lines, `~`, `null`, `Null` or `NULL`."""
    lines, i, value = _key_line(head, key)
    if i is None:
        return True
    first = value.strip(_WS)
    first = "" if first.startswith("#") else _uncommented(first).strip(_WS)
    rest = [ln for ln in _below(lines, i) if ln.strip(_WS)[:1] not in ("", "#")]
    return not rest and first in ("", "~", "null", "Null", "NULL")


def _key_line(head: str, key: str) -> tuple[list[str], int | None, str]:
    """The frontmatter's lines, the index of `key`'s top-level line (None: not there) and the
    value written on it."""
    text = head.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.removesuffix("\n").split("\n")  # a final break ends a line: no line after
    for i, line in enumerate(lines):
        found = _KEY_LINE.fullmatch(line)
        if found is not None and _key(found.group(1)) == key:
            return lines, i, found.group(2) or ""
    return lines, None, ""


def _key(written: str) -> str:
    """A key as YAML reads it: `"description"` and `'description'` are `description`
    (helper-84: a quoted key was another key to ext, and a duplicate went unseen), and the
    blanks before its colon are none of it."""
    written = written.rstrip(" \t")
    if len(written) > 1 and written[0] in "\"'" and written[-1] == written[0]:
        return written[1:-1]
    return written


def _below(lines: list[str], i: int) -> list[str]:
    """The lines that go on with the value of the key on line i: indented, or blank."""
    out = []
    for line in lines[i + 1 :]:
        if line.strip(_WS) and line[:1] not in _WS:
            break
        out.append(line)
    return out  # trailing blank lines too: a `|+` block keeps them


def _trimmed(below: list[str]) -> list[str]:
    """The lines below without the blank ones they end with (only a `+` block keeps those)."""
    end = len(below)
    while end and not below[end - 1].strip(_WS):
        end -= 1
    return below[:end]


_ANCHOR = re.compile(r"&([^\s\[\]{},]+)(?:[ \t]+|\Z)")


def _value(first: str, raw: list[str]) -> str | None:
    first = _uncommented(first) if first.startswith("#") else first
    anchored = _ANCHOR.match(first)
    if anchored is not None:  # `&name text`: the anchor names the value, which is the text
        first = first[anchored.end() :]
        first = _uncommented(first) if first.startswith("#") else first
    below = _trimmed(raw)
    if not first:
        return _starting_below(below)
    tagged = first.startswith("!!str ") or first == "!!str"  # text, whatever it looks like
    if tagged:
        first = first[5:].lstrip(_WS)
    if first[:1] in ('"', "'"):
        return _quoted(first, below)
    block = _BLOCK.fullmatch(first)
    if block is not None:
        return _block(block, raw)
    if _not_text(first):
        return None
    lines = [first, *(line.strip(_WS) for line in below)]
    comment = next((n for n, ln in enumerate(lines) if ln.startswith("#")), None)
    if comment is not None:  # a comment line ends a plain scalar: nothing may follow it
        if any(ln for ln in lines[comment:] if not ln.startswith("#")):
            return None
        lines = lines[:comment]
    text = _plain([_uncommented(line) for line in lines])
    return None if text is None or (not tagged and _NOT_A_STRING.fullmatch(text)) else text


def _starting_below(below: list[str]) -> str | None:
    """A value that starts on a line below its key (comment lines before it are none)."""
    rest = list(below)
    while rest and (not rest[0].strip(_WS) or rest[0].strip(_WS).startswith("#")):
        rest.pop(0)
    if not rest:
        return None  # `key:` and nothing: YAML's null, not text
    if any(_is_structure(line) for line in rest):
        return None  # a map or a list below the key
    return _value(rest[0].strip(_WS), rest[1:])


def _not_text(first: str) -> bool:
    """A value that starts as a list, a map, an alias, a tag, or a character YAML reserves."""
    return (
        first[:1] in ("[", "{", "&", "*", "!", "@", "`", "%")
        or first in ("-", "?")
        or (first.startswith(("- ", "? ")))
    )


def _is_structure(line: str) -> bool:
    stripped = line.strip(_WS)
    return stripped.startswith("- ") or stripped == "-" or bool(_KEY_LINE.fullmatch(stripped))


def _uncommented(text: str) -> str:
    return re.split(r"(?:^|[ \t])#", text, maxsplit=1)[0].rstrip(_WS)


def _plain(lines: list[str]) -> str | None:
    """A plain scalar over several lines: each stripped, a line break folded to a space, an
    empty line kept as a line break."""
    if any(": " in ln or ":\t" in ln or ln.endswith(":") for ln in lines):
        return None  # a key inside: YAML refuses it, or reads a map; ext does not guess
    return _fold([ln.strip(_WS) for ln in lines]).strip(_WS)


# A plain scalar YAML 1.2's core schema (pi's yaml, js-yaml) reads as null, a bool or a number.
_NOT_A_STRING = re.compile(
    r"~|null|Null|NULL|true|True|TRUE|false|False|FALSE"
    r"|[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+"
    r"|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN"
)


def _fold(lines: list[str]) -> str:
    """Flow folding: lines joined by a space, each empty line a line break instead."""
    out, pending = "", ""
    for n, line in enumerate(lines):
        if n == 0:
            out = line
        elif not line and n < len(lines) - 1:  # the closing line is text, even when empty
            pending += "\n"
        else:
            out += (pending or " ") + line
            pending = ""
    return out + pending


def _quoted(first: str, below: list[str]) -> str | None:
    """A single- or double-quoted scalar, over as many lines as it takes to close."""
    quote = first[0]
    text = "\n".join([first, *below])
    body, end = _until_close(text, quote)
    if end is None:
        return None  # it never closes: the reader fails, ext does not guess
    rest = text[end + 1 :].split("\n", 1)[0].strip(_WS)
    if rest and not rest.startswith("#"):
        return None
    lines = body.split("\n")
    # A line break folds to a space (an empty line to a break); the lines' edges are not text,
    # but the first line's start and the last one's end, inside the quotes.
    trim = _end_unescaped if quote == '"' else _end_plain
    parts = lines
    if len(lines) > 1:
        inner = [trim(ln.lstrip(_WS)) for ln in lines[1:-1]]
        parts = [trim(lines[0]), *inner, lines[-1].lstrip(_WS)]
    if quote == "'":
        return _fold(parts).replace("''", "'")
    return _unescape(parts)


def _end_plain(line: str) -> str:
    return line.rstrip(_WS)


def _end_unescaped(line: str) -> str:
    """A double-quoted line without its trailing white space, but for an escaped one (`\\t`
    written as a backslash and a tab is text)."""
    end = len(line)
    while end and line[end - 1] in _WS:
        slashes = len(line[: end - 1]) - len(line[: end - 1].rstrip("\\"))
        if slashes % 2:
            break
        end -= 1
    return line[:end]


def _until_close(text: str, quote: str) -> tuple[str, int | None]:
    """The text inside the quotes, and where the closing quote is (None: no closing one)."""
    i = 1
    while i < len(text):
        c = text[i]
        if quote == '"' and c == "\\":
            i += 2
            continue
        if c == quote:
            if quote == "'" and text[i + 1 : i + 2] == "'":
                i += 2
                continue
            return text[1:i], i
        i += 1
    return text[1:], None


def _unescape(parts: list[str]) -> str | None:
    """A double-quoted scalar's lines: folded, but after a line ending in an escaping `\\`
    (joined with no space); then its escapes read."""
    out, pending, glued = "", "", False
    for n, part in enumerate(parts):
        trailing = len(part) - len(part.rstrip("\\"))
        escaped_break = n < len(parts) - 1 and trailing % 2 == 1
        text = part[:-1] if escaped_break else part
        if n == 0 or glued:
            out += text
        elif not text and n < len(parts) - 1:
            pending += "\n"
        else:
            out += (pending or " ") + text
            pending = ""
        glued = escaped_break
    return _escapes(out + pending)


def _escapes(text: str) -> str | None:
    """A double-quoted scalar's escapes read (a UTF-16 pair of `\\u`s is one character, as
    the JavaScript readers take it); None for one YAML does not know, or half a pair."""
    out, i = [], 0
    while i < len(text):
        c = text[i]
        code = text[i + 1 : i + 2] if c == "\\" else ""
        if not code:
            out.append(c)
            i += 1
        elif code in _ESCAPES:
            out.append(_ESCAPES[code])
            i += 2
        elif code in _HEX and (value := _hex(text, i + 2, _HEX[code])) is not None:
            i += 2 + _HEX[code]
            low = _hex(text, i + 2, 4) if text[i : i + 2] == "\\u" else None
            if 0xD800 <= value <= 0xDBFF and low is not None and 0xDC00 <= low <= 0xDFFF:
                value = 0x10000 + ((value - 0xD800) << 10) + low - 0xDC00
                i += 6
            if 0xD800 <= value <= 0xDFFF or value > 0x10FFFF:
                return None  # half a pair, or past Unicode: no text a file can hold
            out.append(chr(value))
        else:
            return None  # an escape YAML does not know: the reader fails
    return "".join(out)


def _hex(text: str, at: int, digits: int) -> int | None:
    """The number written by `digits` hex digits at `at`, or None."""
    found = text[at : at + digits]
    if len(found) != digits or any(d not in "0123456789abcdefABCDEF" for d in found):
        return None
    return int(found, 16)


def _block(header: re.Match[str], below: list[str]) -> str | None:
    """A literal (`|`) or folded (`>`) block, with its chomping (`-` strip, `+` keep)."""
    style = header.group(1)
    chomp = header.group(2) or header.group(4)
    content = below
    indents = [len(ln) - len(ln.lstrip(" ")) for ln in content if ln.strip(" ")]
    if not indents:
        return ""
    indent = int(header.group(3)) if header.group(3) else indents[0]
    if any(n < indent for n in indents):
        return None
    # A tab is text here, and so are spaces past the block's indentation.
    lines = [ln[indent:] if ln.strip(" ") or len(ln) > indent else "" for ln in content]
    body = "\n".join(lines) if style == "|" else _fold_block(lines)
    if chomp == "-":
        return body.rstrip("\n")
    if chomp == "+":
        return body + "\n"
    return body.rstrip("\n") + "\n"


def _fold_block(lines: list[str]) -> str:
    """A folded block: a line break between two lines of text is a space; before empty lines
    it goes and each empty line is a break; next to a more indented line it stays."""
    out, before, empties = "", None, 0
    for line in lines:
        if not line:
            empties += 1
            continue
        if before is None:
            out += "\n" * empties + line
        elif line[:1] in (" ", "\t") or before[:1] in (" ", "\t"):
            out += "\n" * (empties + 1) + line
        else:
            out += "\n" * empties + line if empties else " " + line
        before, empties = line, 0
    return out + "\n" * empties


# ---- mistakes a strict reader refuses ------------------------------------------------------

_ALIAS = re.compile(r"\*([^\s\[\]{},]+)")
_ANCHOR_NAME = re.compile(r"&([^\s\[\]{},]+)")


def faults(head: str) -> list[tuple[str, str]]:
    """The mistakes in the frontmatter `head` that a strict YAML reader refuses, where ext can
    tell them for sure, each (kind, key or text): a top-level key given twice ("twice"), an
    alias that names no anchor before it ("alias"), a quoted value that never closes
    ("unclosed") or goes on after its closing quote ("after-quote"), a `key: value` line
    indented under a plain value ("indented"), a tab that indents an entry of a nested block
    ("tab"). A line ext cannot place (neither a key, nor indented, nor a comment) ends the
    look with nothing said: ext never claims a reader refuses what it may read."""
    lines = head.replace("\r\n", "\n").replace("\r", "\n").removesuffix("\n").split("\n")
    seen: set[str] = set()
    anchors: set[str] = set()
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip(_WS) or line.lstrip(_WS).startswith("#"):
            i += 1
            continue
        found = _KEY_LINE.fullmatch(line) if line[:1] not in _WS else None
        if found is None:
            return []  # not a form ext follows: say nothing
        key, value = _key(found.group(1)), (found.group(2) or "").strip(_WS)
        out += [("twice", key)] if key in seen else []
        seen.add(key)
        anchored = _ANCHOR.match(value)
        if anchored is not None:
            anchors.add(anchored.group(1))
            value = value[anchored.end() :]
        alias = _ALIAS.match(value)
        if alias is not None and alias.group(1) not in anchors:
            out.append(("alias", f"*{alias.group(1)}"))
        if value[:1] in ('"', "'"):
            taken = _quoted_fault(value, lines[i + 1 :], key, out)
            if taken is None:
                return out  # it never closes: the rest is inside the quote
            i += taken
            continue
        below = _below(lines, i)
        out += _fault_below(value, below, anchors)
        i += 1 + len(below)
    return out


def _quoted_fault(value: str, after: list[str], key: str, out: list[tuple[str, str]]) -> int | None:
    """A quoted value's fault added to `out`; the lines it takes (None: it never closes)."""
    text = "\n".join([value, *after])
    _, end = _until_close(text, value[0])
    if end is None:
        out.append(("unclosed", key))
        return None
    rest = text[end + 1 :].split("\n", 1)[0].strip(_WS)
    if rest and not rest.startswith("#"):
        out.append(("after-quote", key))
    return text[:end].count("\n") + 1


def _fault_below(value: str, below: list[str], anchors: set[str]) -> list[tuple[str, str]]:
    """The first fault of the lines under a key (its anchors noted): a `key: value` line
    under a plain value, a tab indenting an entry of a nested block."""
    for line in below:
        anchors.update(_ANCHOR_NAME.findall(line))
        entry = line.strip(_WS)
        if not entry or entry.startswith("#"):
            continue
        if value and value[0] not in "|>[{#" and _KEY_LINE.fullmatch(entry):
            return [("indented", entry)]  # under a plain value: no map can start there
        if not value and line[:1] == "\t" and _is_structure(line):
            return [("tab", entry)]
    return []
