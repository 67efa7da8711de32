"""settings.json text <-> data: strict parsing with positions, and formatting kept on dump."""

from __future__ import annotations

import json
import re

from installer.ground.errors import ExtError
from installer.ground.jsondepth import MAX_NESTING
from installer.ground.records import NamedTuple
from installer.ground.shellword import shell_word
from installer.settings.files import MAX_BYTES  # one cap: a read's, a stat's

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

MAX_DEPTH = MAX_NESTING  # one limit for every JSON ext reads (ground.jsondepth)

# Only strings and the bytes that open, close or separate containers matter for depth and keys.
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[{}\[\]:]')
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')


class JsonFormat(NamedTuple):
    """How a JSON document is laid out, so a rewrite looks like the original."""

    indent: str | None = "  "
    item_sep: str = ","
    key_sep: str = ": "
    newline: str = "\n"
    final_newline: bool = True
    ensure_ascii: bool = False


# pi writes JSON.stringify(settings, null, 2); a file ext creates looks the same, plus a newline.
NEW_FILE_FORMAT = JsonFormat()


def position(text: str, index: int) -> tuple[int, int]:
    """The 1-based line and column of a character offset."""
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def _refuse(name: str, text: str, index: int, what: str, where: str | None = None) -> ExtError:
    line, col = position(text, index)
    return ExtError(
        f"{name}: {what} at line {line}, column {col}; nothing was changed",
        fix=f"edit {where or name} at line {line}, column {col} by hand, then run the command "
        "again",
    )


def _check_structure(text: str, name: str, where: str | None = None) -> None:
    """Refuse nesting deeper than MAX_DEPTH and duplicate keys, before any real parsing."""
    stack: list[set[str] | None] = []
    pending: re.Match[str] | None = None
    for match in _TOKEN.finditer(text):
        lexeme = match.group()
        if lexeme == ":" and pending is not None and stack and stack[-1] is not None:
            key = json.loads(pending.group())
            if key in stack[-1]:
                raise _refuse(name, text, pending.start(), f'duplicate key "{key}"', where)
            stack[-1].add(key)
        pending = match if lexeme.startswith('"') else None
        if lexeme in "{[":
            stack.append(set() if lexeme == "{" else None)
            if len(stack) > MAX_DEPTH:
                deeper = f"nesting deeper than {MAX_DEPTH} levels"
                raise _refuse(name, text, match.start(), deeper, where)
        elif lexeme in "}]" and stack:
            stack.pop()


class _NotJson(ValueError):
    """NaN or an infinity: Python's json reads them, pi's JSON.parse refuses the file."""


def _not_json(name: str) -> Any:
    raise _NotJson(name)


def _constant_at(text: str) -> int:
    """Where the first NaN/Infinity outside a string is."""
    bare = _STRING.sub(lambda m: " " * len(m.group()), text)
    found = re.search(r"-?(?:NaN|Infinity)", bare)
    return found.start() if found else 0


def parse(text: str, name: str = "settings.json", where: str | None = None) -> dict[str, Any]:
    """Parse settings text into a dict, or raise ExtError naming the line and column.

    Empty (or blank) text is an empty object, as pi reads an empty file. `where`: the file's
    path for a command in a fix, when `name` is short (doctor's)."""
    if len(text) > MAX_BYTES:
        raise ExtError(
            f"{name} is larger than {MAX_BYTES // (1024 * 1024)} MiB; refusing to read it",
            fix=f"check {name}: a settings file is a few kilobytes",
        )
    if not text.strip():
        return {}
    if text.startswith("\ufeff"):  # a Windows editor's; pi 1.x skips it, 0.73 refuses it
        raise ExtError(
            f"{name} starts with a byte-order mark (U+FEFF), which ext does not edit and pi "
            "0.73 does not read; nothing was changed",
            fix=f"remove it: sed -i '1s/^\\xEF\\xBB\\xBF//' {shell_word(where or name)}, or "
            "save the file as UTF-8 without BOM, then run the command again",
        )
    _check_structure(text, name, where)
    try:
        data = json.loads(text, parse_constant=_not_json)
    except _NotJson as err:
        raise _refuse(name, text, _constant_at(text), f"{err} is not JSON", where) from None
    except json.JSONDecodeError as err:
        raise _refuse(name, text, err.pos, _invalid(text, err), where) from None
    except RecursionError:  # pragma: no cover - _check_structure caps depth first
        raise _refuse(name, text, 0, "nesting too deep", where) from None
    if not isinstance(data, dict):
        top = len(text) - len(text.lstrip())
        raise _refuse(name, text, top, "the top level is not an object", where)
    return data


def _invalid(text: str, err: json.JSONDecodeError) -> str:
    """Why the text is no JSON, in the words of what people write in a settings file by hand
    (helper-58: a comment was said as "Expecting property name enclosed in double quotes")."""
    at = text[err.pos : err.pos + 2]
    if at in ("//", "/*"):
        return "a comment, which JSON does not allow (pi reads JSON only)"
    before = text[: err.pos].rstrip()
    if before.endswith(",") and text[err.pos : err.pos + 1] in ("}", "]"):
        return "a comma before the closing bracket, which JSON does not allow"
    return f"not valid JSON ({err.msg})"


def decode(raw: bytes, name: str = "settings.json") -> str:
    """Bytes of a settings file as text, or ExtError naming where the bad byte is."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        good = raw[: err.start].decode("utf-8")
        raise _refuse(name, good, len(good), "invalid UTF-8") from None


def detect_format(text: str) -> JsonFormat:
    """Read indent (spaces, tab or none), separators, line ending and final newline."""
    if not text.strip():
        return NEW_FILE_FORMAT
    bare = _STRING.sub('""', text)
    if re.fullmatch(r"\{\s*\}", bare.strip()):  # nothing to learn from: lay it out as pi does
        newline = "\r\n" if "\r\n" in text else "\n"
        return NEW_FILE_FORMAT._replace(newline=newline, final_newline=text.endswith("\n"))
    indent = _detect_indent(bare)
    key_sep = ": " if re.search(r":[ \t]", bare) else ":"
    # json.dumps puts no space after a comma that ends a line; only compact text needs a guess.
    item_sep = ", " if indent is None and re.search(r",[ \t]", bare) else ","
    return JsonFormat(
        indent=indent,
        item_sep=item_sep,
        key_sep=key_sep,
        newline="\r\n" if "\r\n" in text else "\n",
        final_newline=text.endswith("\n"),
        ensure_ascii=not any(ord(ch) > 127 for ch in text) and "\\u" in text,
    )


def _detect_indent(bare: str) -> str | None:
    """The whitespace before the first line that opens inside a container: one level."""
    match = re.search(r"[{\[][ \t]*\r?\n([ \t]*)[^\s}\]]", bare)
    if match:
        return match.group(1)
    # A multi-line document whose first container is empty still has a layout: assume pi's.
    return "  " if "\n" in bare.strip() else None


def dump(data: dict[str, Any], fmt: JsonFormat = NEW_FILE_FORMAT) -> str:
    """Serialise keeping key order and the given format."""
    text = json.dumps(
        data,
        indent=fmt.indent,
        separators=(fmt.item_sep, fmt.key_sep),
        ensure_ascii=fmt.ensure_ascii,
        allow_nan=False,
    )
    if fmt.final_newline:
        text += "\n"
    if fmt.newline != "\n":
        text = text.replace("\n", fmt.newline)
    return text


def clone(value: Any) -> Any:
    """A deep copy of settings data: JSON's, or a manifest's TOML (objects and arrays copied,
    every other value immutable). Not copy.deepcopy: the copy module loads weakref, ~1 ms of
    every install that plans settings."""
    if isinstance(value, dict):
        return {key: clone(item) for key, item in value.items()}
    if isinstance(value, list):
        return [clone(item) for item in value]
    return value
