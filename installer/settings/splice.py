"""Edit JSON as text: splice the members a change touched into the original bytes.

Re-serialising settings.json would rewrite what ext never meant to touch: `1e400` would
become `Infinity` (which pi's JSON.parse refuses), `1E2` would become `100.0`, escapes and
line endings would change. So a change is applied as edits of the text: a changed value's
span is replaced, a removed member is cut out with its separator, a new member is inserted
after the last one with the separator and indentation its siblings already use. Every byte
outside those spans stays as it was.
"""

from __future__ import annotations

import json
import re

from installer.ground.records import NamedTuple
from installer.settings.jsondoc import JsonFormat

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_SPACE = re.compile(r"[ \t\r\n]*")
_INDENT = re.compile(r"[ \t]*")
_SCALAR = re.compile(
    r'"(?:[^"\\]|\\.)*"|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null', re.S
)


class Node(NamedTuple):
    """A value's span in the text, and its members (object) or items (array)."""

    start: int
    end: int
    members: tuple[Member, ...] | None = None  # an object
    items: tuple[Node, ...] | None = None  # an array


class Member(NamedTuple):
    """One `"key": value` of an object: where its key starts and ends, and its value."""

    key: str
    key_start: int
    key_end: int
    value: Node


def locate(text: str) -> Node:
    """The spans of a JSON text that jsondoc.parse already accepted."""
    node, _ = _value(text, _SPACE.match(text, 0).end())  # type: ignore[union-attr]
    return node


def _skip(text: str, pos: int) -> int:
    return _SPACE.match(text, pos).end()  # type: ignore[union-attr]


def _value(text: str, pos: int) -> tuple[Node, int]:
    opener = text[pos]
    if opener == "{":
        return _object(text, pos)
    if opener == "[":
        return _array(text, pos)
    match = _SCALAR.match(text, pos)
    if match is None:
        raise ValueError(f"not JSON at {pos}")
    return Node(pos, match.end()), match.end()


def _object(text: str, start: int) -> tuple[Node, int]:
    members: list[Member] = []
    pos = _skip(text, start + 1)
    while text[pos] != "}":
        key_match = _SCALAR.match(text, pos)
        assert key_match is not None  # noqa: S101 - the text was parsed before
        key_end = key_match.end()
        value, pos = _value(text, _skip(text, _skip(text, key_end) + 1))
        members.append(Member(json.loads(key_match.group()), key_match.start(), key_end, value))
        pos = _skip(text, pos)
        if text[pos] == ",":
            pos = _skip(text, pos + 1)
    return Node(start, pos + 1, members=tuple(members)), pos + 1


def _array(text: str, start: int) -> tuple[Node, int]:
    items: list[Node] = []
    pos = _skip(text, start + 1)
    while text[pos] != "]":
        item, pos = _value(text, pos)
        items.append(item)
        pos = _skip(text, pos)
        if text[pos] == ",":
            pos = _skip(text, pos + 1)
    return Node(start, pos + 1, items=tuple(items)), pos + 1


def same(a: Any, b: Any) -> bool:
    """Equal as JSON: `1`, `1.0` and `true` differ; key order does not matter."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(v, b[k]) for k, v in a.items())
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def render(value: Any, fmt: JsonFormat, base: str = "") -> str:
    """A new value as JSON in the document's layout, its lines indented from `base`.

    Raises ValueError for NaN or an infinity: they are not JSON and pi refuses them.
    """
    text = json.dumps(
        value,
        indent=fmt.indent,
        separators=(fmt.item_sep, fmt.key_sep),
        ensure_ascii=fmt.ensure_ascii,
        allow_nan=False,
    )
    return text.replace("\n", fmt.newline + base) if "\n" in text else text


Edit = tuple[int, int, str]


class _Splicer:
    """Collects the text edits that turn `old` into `new`, each one as small as it can be."""

    def __init__(self, text: str, fmt: JsonFormat) -> None:
        self.text = text
        self.fmt = fmt
        self.edits: list[Edit] = []

    def indent_at(self, pos: int) -> str:
        """The whitespace that starts the line holding pos."""
        line = self.text.rfind("\n", 0, pos) + 1
        return self.text[line : _INDENT.match(self.text, line).end()]  # type: ignore[union-attr]

    def value(self, node: Node, old: Any, new: Any) -> None:
        if same(old, new):
            return
        if node.members is not None and isinstance(old, dict) and isinstance(new, dict):
            self.object(node, old, new)
        elif node.items is not None and isinstance(old, list) and isinstance(new, list):
            self.array(node, old, new)
        else:
            self.edits.append(
                (node.start, node.end, render(new, self.fmt, self.indent_at(node.start)))
            )

    def layout(self, node: Node, firsts: list[int], ends: list[int]) -> tuple[str, str, str]:
        """(opening, separator, closing) whitespace of a container, from its own children."""
        text, fmt = self.text, self.fmt
        if len(firsts) >= 2:
            sep = text[ends[0] : firsts[1]]
        elif firsts and "\n" in text[node.start + 1 : firsts[0]]:
            sep = "," + text[node.start + 1 : firsts[0]]
        elif firsts:
            sep = fmt.item_sep if fmt.indent is None else ", "
        elif fmt.indent is None:
            sep = fmt.item_sep
        else:
            base = self.indent_at(node.start)
            inner = fmt.newline + base + fmt.indent
            return inner, "," + inner, fmt.newline + base
        opening = text[node.start + 1 : firsts[0]] if firsts else ""
        closing = text[ends[-1] : node.end - 1] if firsts else ""
        return opening, sep, closing

    def object(self, node: Node, old: dict[str, Any], new: dict[str, Any]) -> None:
        members = node.members or ()
        kept = [m for m in members if m.key in new]
        for m in kept:
            self.value(m.value, old[m.key], new[m.key])
        opening, sep, closing = self.layout(
            node, [m.key_start for m in members], [m.value.end for m in members]
        )
        indent = sep.rpartition("\n")[2] if "\n" in sep else ""
        key_sep = self.text[members[0].key_end : members[0].value.start] if members else None
        added = "".join(
            sep
            + json.dumps(k, ensure_ascii=self.fmt.ensure_ascii)
            + (key_sep or self.fmt.key_sep)
            + render(v, self.fmt, indent)
            for k, v in new.items()
            if k not in old
        )
        if not kept:
            body = added[len(sep) :]
            self.edits.append(
                (node.start + 1, node.end - 1, opening + body + closing if body else "")
            )
            return
        last = members.index(kept[-1])
        for i, m in enumerate(members[:last]):
            if m.key not in new:
                self.edits.append((m.key_start, members[i + 1].key_start, ""))
        tail_end = members[-1].value.end  # the removed trailing members go with what is added
        self.edits.append((kept[-1].value.end, tail_end, added))

    def array(self, node: Node, old: list[Any], new: list[Any]) -> None:
        items = node.items or ()
        if len(old) == len(new):
            for item, a, b in zip(items, old, new, strict=True):
                self.value(item, a, b)
            return
        from difflib import SequenceMatcher  # only a list that grows or shrinks needs it

        opening, sep, closing = self.layout(node, [i.start for i in items], [i.end for i in items])
        indent = sep.rpartition("\n")[2] if "\n" in sep else ""
        keys = SequenceMatcher(None, [_key(x) for x in old], [_key(x) for x in new], autojunk=False)
        parts: list[str] = []
        for op, i1, i2, j1, j2 in keys.get_opcodes():
            if op == "equal":
                parts += [self.text[item.start : item.end] for item in items[i1:i2]]
            else:
                parts += [render(x, self.fmt, indent) for x in new[j1:j2]]
        body = opening + sep.join(parts) + closing if parts else ""
        self.edits.append((node.start + 1, node.end - 1, body))


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def splice(text: str, old: Any, new: Any, fmt: JsonFormat) -> str:
    """The text with the difference between `old` (what text holds) and `new` spliced in."""
    if same(old, new):
        return text
    splicer = _Splicer(text, fmt)
    splicer.value(locate(text), old, new)
    out = text
    for start, end, replacement in sorted(splicer.edits, reverse=True):
        out = out[:start] + replacement + out[end:]
    return out
