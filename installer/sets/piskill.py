"""Whether pi loads a skill's file: it skips one whose frontmatter has no `description` that
is text with something in it (`loadSkillFromFile` in dist/core/skills.js, both lines).

pi reads the frontmatter as YAML (`parseFrontmatter` in dist/utils/frontmatter.js: the text
between a first line `---` and the next line starting `---`). ext has no YAML parser; it reads
the one key the way YAML's core schema types it: a plain scalar that is a number, a boolean
or null is not text; a quoted, folded or literal one is; a key given twice is an error, which
pi skips the skill for. What pi makes of anything fancier (anchors, tags) ext takes as text:
`ext doctor --deep` asks pi's own loader. `tests/conformance` holds each case to pi's loader.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from installer.sets.resources import Resource

_HEAD = 16384  # a frontmatter is at the top; the rest of a long SKILL.md is not read
_KEY = re.compile(r"^description[ \t]*:(?:[ \t]+(.*?))?[ \t]*$")
# YAML 1.2's core schema: what a plain scalar is when it is not a string.
_NOT_TEXT = re.compile(
    r"true|True|TRUE|false|False|FALSE|null|Null|NULL|~"
    r"|[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+"
    r"|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)"
)
_NESTED = re.compile(r"[ \t]+(?:-(?:[ \t]|$)|[^\s:#][^:]*:(?:[ \t]|$))")  # a list or a map


def skipped(r: Resource) -> str | None:
    """Why pi skips skill r though it is in place (None: it loads it, or r is no skill)."""
    if r.kind != "skill":
        return None
    return next(filter(None, map(refusal, r.entries())), None)


def refusal(path: str) -> str | None:
    """Why pi skips the skill whose file is `path`, or None when it loads it (or the file
    cannot be read: a missing file is the link engine's to report)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read(_HEAD)
    except OSError:
        return None
    why = _why_not(text)
    return f"pi does not load it: its {path.rpartition('/')[2]} {why}" if why else None


def _why_not(text: str) -> str | None:
    head = _frontmatter(text)
    if head is None:
        return "has no frontmatter with a description"
    lines = head.split("\n")
    found = [(i, m) for i, line in enumerate(lines) if (m := _KEY.match(line))]
    if len(found) != 1:
        twice = "names description twice in its frontmatter (YAML refuses that)"
        return twice if found else "has no description in its frontmatter"
    i, match = found[0]
    value = _uncommented(match.group(1) or "")
    kind = _kind(value, _indented(lines[i + 1 :]))
    if kind == "empty":
        return "has an empty description"
    return f"has a description that is not text ({value or 'a list or a map'})" if kind else None


def _kind(value: str, below: list[str]) -> str | None:
    """What YAML makes of a description: text (None), "empty", or "not-text"."""
    content = [line for line in below if line.strip()]
    if value[:1] in ("|", ">"):  # a literal or folded block: the indented lines below
        return None if content else "empty"
    if value[:1] in ("'", '"'):
        inner = value[1:-1] if len(value) >= 2 and value[-1] == value[0] else value[1:]
        return None if inner.strip() else "empty"
    nested = not value and bool(content) and bool(_NESTED.match(content[0]))
    if value[:1] in ("[", "{") or nested or (_NOT_TEXT.fullmatch(value) and not content):
        return "not-text"
    return None if value or content else "empty"


def _frontmatter(text: str) -> str | None:
    """The YAML between the first `---` and the next line starting `---`, as pi cuts it."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    if not text.startswith("---"):
        return None
    end = text.find("\n---", 3)
    return text[4:end] if end >= 0 and text[4:end] else None


def _uncommented(value: str) -> str:
    """A plain value without its trailing ` # comment` (a value that is a comment is none)."""
    if value.startswith("#"):
        return ""
    if value[:1] in ("'", '"'):
        return value
    return value.split(" #", 1)[0].split("\t#", 1)[0].rstrip()


def _indented(lines: list[str]) -> list[str]:
    """The lines that continue a key's value: indented, or blank, up to the next key."""
    out = []
    for line in lines:
        if line.strip() and not line[:1].isspace():
            break
        out.append(line)
    return out
