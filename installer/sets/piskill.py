"""Whether pi loads a skill's file: it skips one whose frontmatter is not YAML it can read, or
has no `description` that is text with something in it (`loadSkillFromFile` in
dist/core/skills.js, both lines).

pi reads the frontmatter with the `yaml` package (`parseFrontmatter` in
dist/utils/frontmatter.js: the text between a first line `---` and the next line starting
`---`). ext has no YAML parser. It reads a frontmatter of `key: value` lines, the shape SKILL.md
files have, as YAML 1.2's core schema does: the errors people make in it (a `: ` inside a plain
value, a value starting with a reserved character, text after a quoted value, a key given
twice, a tab as indentation), and the type of `description` (a plain number, boolean or null
is not text; a quoted, folded or literal value is). A frontmatter of another shape (a quoted
or explicit key, a flow map, an indented map) ext does not judge: it says nothing, and
`ext doctor --deep` asks pi's own loader. `tests/conformance` holds each case to pi's loader
on both lines; the one difference between them (a byte order mark) is pi's line table's.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from installer.host.lines import PiLine
    from installer.sets.resources import Resource

_MAX = 1 << 20  # pi reads the whole file; ext gives up on one larger than this
# A top-level key line, and one below: their values' (and the inner key's) trailing blanks
# are the groups', taken off where they are read; a lazy group before `[ \t]*` took
# quadratic time on a long line of blanks (helper-92: a 128 KB line, 43 s).
_KEY = re.compile(r"([A-Za-z0-9_][\w.-]*)[ \t]*:(?:[ \t]+(.*))?")
# YAML 1.2's core schema: what a plain scalar is when it is not a string.
_NOT_TEXT = re.compile(
    r"true|True|TRUE|false|False|FALSE|null|Null|NULL|~"
    r"|[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+"
    r"|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)"
)
_NESTED = re.compile(r"[ \t]*-(?:[ \t]|$)|[ \t]+[^\s:#][^:]*:(?:[ \t]|$)")  # a list or a map
_INNER_KEY = re.compile(r"[ \t]+([^\s:#\-][^:]*):[ \t]+(.*)")  # `  key: value` below
_QUOTED = re.compile(r"""("(?:[^"\\]|\\.)*"|'(?:[^']|'')*')[ \t]*(.*)""", re.DOTALL)
_NOT_TEXT_TAGS = ("!!int", "!!float", "!!bool", "!!null", "!!map", "!!seq")
_UNKNOWN = "?"  # a shape ext does not judge
# Two of the reasons, by which doctor picks its fix (installer/doctor/checks/items.py)
YAML_ERROR = "has a frontmatter pi cannot read as YAML"
NOT_TEXT = "has a description that is not text"


def skipped(r: Resource, line: PiLine) -> str | None:
    """Why pi (of `line`) skips skill r though it is in place (None: it loads it, ext cannot
    tell, or r is no skill)."""
    if r.kind != "skill":
        return None
    return next(filter(None, (refusal(e, line.strips_bom) for e in r.entries())), None)


def warnings(resources: Iterable[Resource], line: PiLine) -> list[str]:
    """One line per skill of `resources` that pi will skip though it is put in place or
    switched on, with why (an install's warnings, an enable's)."""
    return [f"{r.label}: {why}" for r in resources if (why := skipped(r, line))]


def refusal(path: str, strips_bom: bool = True) -> str | None:
    """Why pi skips the skill whose file is `path`, or None when it loads it (or the file
    cannot be read, a missing file being the link engine's to report, or ext cannot tell)."""
    from installer.ground.readfile import read_head

    try:
        text = read_head(path, _MAX)
    except OSError:
        return None
    why = _why_not(text, strips_bom, whole=len(text) < _MAX)
    return f"pi does not load it: its {path.rpartition('/')[2]} {why}" if why else None


def _why_not(text: str, strips_bom: bool, whole: bool) -> str | None:
    head = frontmatter(text, strips_bom)
    if head is None:
        return "has no frontmatter with a description" if whole else None
    lines = head.split("\n")
    keys = _keys(lines)
    error = None if keys is None else _yaml_error(lines, keys)
    if keys is None or error is not None:
        return error and f"{YAML_ERROR} ({error})"
    return _description(lines, keys)


def _description(lines: list[str], keys: list[tuple[int, str, str]]) -> str | None:
    """Why pi skips a frontmatter it can read: its description missing, empty or not text."""
    found = [(i, value) for i, key, value in keys if key == "description"]
    if not found:
        return "has no description in its frontmatter"
    i, value = found[0]
    shown = f"{value} …" if _below(lines, i) and value[:1] in ("[", "{") else value
    said = {
        "empty": "has an empty description",
        "not-text": f"{NOT_TEXT} ({shown or 'a list or a map'})",
    }
    return said.get(_kind(_resolved(value, keys), _below(lines, i)) or "")


def frontmatter(text: str, strips_bom: bool = True) -> str | None:
    """The YAML between the first `---` and the next line starting `---`, as pi cuts it (pi
    1.x drops a byte order mark first; 0.73 does not, and then sees no frontmatter)."""
    if strips_bom:
        text = text.removeprefix("\ufeff")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.startswith("---"):
        return None
    end = text.find("\n---", 3)
    return text[4:end] if end >= 0 and text[4:end] else None


def _keys(lines: list[str]) -> list[tuple[int, str, str]] | None:
    """Each top-level `key: value` line (its index, key and value, a trailing comment off);
    None for a frontmatter of another shape, which ext does not judge."""
    out: list[tuple[int, str, str]] = []
    for i, line in enumerate(lines):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line[:1] in (" ", "\t") or _is_item(line):  # the value of the key above goes on
            if not out:
                return None  # an indented map, or a list: not a frontmatter of key lines
            continue
        match = _KEY.fullmatch(line)
        if match is None:
            return None
        out.append((i, match.group(1), _uncommented((match.group(2) or "").rstrip(" \t"))))
    return out


def _yaml_error(lines: list[str], keys: list[tuple[int, str, str]]) -> str | None:
    """The first error the yaml package stops at in a frontmatter of key lines, or None."""
    seen: set[str] = set()
    for i, key, value in keys:
        error = f"{key} is given twice" if key in seen else _key_error(lines, i, key, value)
        if error is not None:
            return error
        seen.add(key)
    return None


def _key_error(lines: list[str], i: int, key: str, value: str) -> str | None:
    """Why the yaml package refuses the key on line i with `value`, or its lines below."""
    below = _below(lines, i)
    error = _value_error(value) or _below_error(value, below)
    if error is not None:
        return f"{key}: {error}"
    inner = [m for m in map(_INNER_KEY.fullmatch, below) if m] if not value else []
    for m in inner:  # a map below: each of its values is read as one on a key line
        inner_key, inner_value = (part.rstrip(" \t") for part in m.groups())
        error = _value_error(_uncommented(inner_value))
        if error:
            return f"{key}.{inner_key}: {error}"
    return None


def _below_error(value: str, below: list[str]) -> str | None:
    """Why the lines below a key's `value` are refused: a tab, a quote never closed, a colon
    and a space where the value goes on in plain text."""
    if any(line.startswith("\t") for line in below if line.strip()):
        return "a tab indents the line below it"
    plain = value and value[0] not in "\"'|>[{&!*"
    if plain and any(": " in _uncommented(line.strip()) for line in below):
        return "a colon and a space in its value's next line"
    if value[:1] in ("[", "{") and not _closes([value, *below]):
        # helper-86: `description: [unclosed` was said to be "a description that is not text"
        return f"a {value[0]} that is never closed"
    return _quote_below(value, below)


def _closes(lines: list[str]) -> bool:
    """Whether the flow collection these lines start (`[a,` / `  b]`) closes in them."""
    return _flow_end("\n".join(_uncommented(line.strip()) for line in lines)) is not None


def _quote_below(value: str, below: list[str]) -> str | None:
    """Why a quoted value not closed on its key's line is refused: never closed (helper-77:
    `description: "open` was found by doctor --deep alone), or text after its closing quote
    on a line below; None when it is not such a value, or is closed well."""
    if value[:1] not in ("'", '"') or _QUOTED.fullmatch(value) is not None:
        return None
    closed = _QUOTED.fullmatch("\n".join([value, *(line.strip() for line in below)]))
    if closed is None:
        return "a quoted value that is never closed"
    after = closed.group(2)
    return "text after the closing quote" if after and not after.startswith("#") else None


def _value_error(value: str) -> str | None:
    """Why the yaml package refuses a value on its key's line, or None."""
    first = value[:1]
    if first in ("'", '"'):
        quoted = _QUOTED.fullmatch(value)
        after = quoted.group(2) if quoted is not None else ""
        return "text after the closing quote" if after and not after.startswith("#") else None
    plain = bool(first) and first not in "|>[{&!*"
    problems = (
        (first in ("`", "@", "%"), f"a value cannot start with {first}"),
        (value == "-" or value.startswith("- "), "a list cannot start on its key's line"),
        (first == "*" and bool(re.search(r"\s", value)), "text after an alias (`*` starts one)"),
        (first in ("[", "{") and bool(_after_flow(value)), "text after the closing bracket"),
        (plain and (": " in value or value.endswith(":")), "a colon and a space inside it"),
    )
    why = next((why for bad, why in problems if bad), None)
    return f"{why} (quote the value)" if why else None


def _after_flow(value: str) -> str:
    """What follows a one-line flow collection's closing bracket (`[a] b` -> `b`), comments
    off; "" when nothing does, or it does not close on this line (ext does not judge)."""
    end = _flow_end(value)
    return "" if end is None else _uncommented(value[end + 1 :].strip())


def _flow_end(text: str) -> int | None:
    """Where the flow collection `text` starts with closes (its bracket's index), or None."""
    depth, quote = 0, ""
    for i, c in enumerate(text):
        if quote:
            quote = "" if c == quote else quote
        elif c in "\"'":
            quote = c
        elif c in "[{":
            depth += 1
        elif c in "]}":
            depth -= 1
            if depth == 0:
                return i
    return None


def _resolved(value: str, keys: list[tuple[int, str, str]]) -> str:
    """An alias (`*a`) as the value its anchor (`&a value`) names; a value as it is."""
    if not value.startswith("*"):
        return value
    name = value[1:]
    for _, _, other in keys:
        if other.startswith(f"&{name} "):
            return other[len(name) + 2 :].lstrip()
    return value


def _kind(value: str, below: list[str]) -> str | None:
    """What YAML makes of a description: text (None), "empty", "not-text", or _UNKNOWN."""
    content = [line for line in below if line.strip()]
    first = value[:1]
    if first in ("|", ">"):  # a literal or folded block: the indented lines below
        return None if content else "empty"
    if first in ("'", '"'):
        return _quoted_kind(value, content)
    if first in ("!", "&", "*"):
        return _tagged_kind(value, below)
    nested = not value and bool(content) and bool(_NESTED.match(content[0]))
    if first in ("[", "{") or nested or (_NOT_TEXT.fullmatch(value) and not content):
        return "not-text"
    return None if value or content else "empty"


def _quoted_kind(value: str, content: list[str]) -> str | None:
    quoted = _QUOTED.fullmatch(value)
    if quoted is None:  # the quote goes on below: text, unless nothing follows
        return None if content or value[1:].strip() else "empty"
    return None if quoted.group(1)[1:-1].strip() else "empty"


def _tagged_kind(value: str, below: list[str]) -> str | None:
    """A tagged value (`!!int 42`, `!!str 42`) by its tag; an anchored or aliased one ext does
    not judge."""
    tag, _, rest = value.partition(" ")
    if tag in _NOT_TEXT_TAGS:
        return "not-text"
    if tag in ("!!str", "!"):  # text whatever it looks like: empty, or not
        return None if rest.strip() or any(line.strip() for line in below) else "empty"
    return _UNKNOWN


def _uncommented(value: str) -> str:
    """A value without its trailing ` # comment` (a value that is a comment is none)."""
    if value.startswith("#"):
        return ""
    if value[:1] in ("'", '"'):
        quoted = _QUOTED.fullmatch(value)
        if quoted is not None and quoted.group(2).startswith("#"):
            return quoted.group(1)
        return value
    return re.split(r"[ \t]#", value, maxsplit=1)[0].rstrip()


def _below(lines: list[str], i: int) -> list[str]:
    """The lines that continue the value of the key on line i: indented, blank, or a list's
    items (`- a`, which may start at the key's own column)."""
    out = []
    for line in lines[i + 1 :]:
        key_line = line.strip() and not line[:1].isspace() and not _is_item(line)
        if key_line and not line.lstrip().startswith("#"):
            break
        out.append(line)
    return out


def _is_item(line: str) -> bool:
    return line == "-" or line.startswith(("- ", "-\t"))
