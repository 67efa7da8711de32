"""A prompt template as a Gemini CLI command: `commands/<name>.toml`, written by ext.

Gemini CLI reads TOML (`description`, `prompt`), not markdown, so ext writes the file a link
cannot be. Its arguments are one placeholder, `{{args}}`: pi's `$ARGUMENTS` and `$@` (all of
them, joined) map to it; what picks arguments apart (`$1`, `${@:2}`, a default) has no
counterpart, and a template that uses it is refused with that reason rather than sent with a
different meaning. Text Gemini would run or read is refused too: in a prompt, `!{…}` is a shell
command and `@{…}` a file's contents there, which in pi's template are plain text.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from installer.sets.resources import Resource

# pi's placeholders (docs/prompt-templates.md): all of them, and the ones that pick.
_ALL = re.compile(r"\$ARGUMENTS\b|\$@|\$\{@\}")
_PICKS = re.compile(r"\$\{?[0-9]|\$\{@:|\$\{ARGUMENTS:")
_GEMINI_ONLY = (
    ("!{", "`!{…}` runs a shell command in Gemini CLI"),
    ("@{", "`@{…}` reads a file into the prompt in Gemini CLI"),
    ("{{args}}", "`{{args}}` is Gemini CLI's own placeholder, plain text in pi"),
)


class Unwritable(Exception):
    """Why a template cannot be a Gemini command with the same meaning."""


def split_frontmatter(text: str) -> tuple[str, str]:
    """(frontmatter, body) of a markdown template; no frontmatter: ("", text)."""
    if not text.startswith("---\n"):
        return "", text
    end = text.find("\n---\n", 3)
    if end < 0:
        return ("", text) if not text.endswith("\n---") else (text[4:-4], "")
    return text[4:end], text[end + 5 :]


def description_of(head: str) -> str | None:
    """The frontmatter's `description` as YAML reads it (quotes, escapes, a folded block), as
    Gemini CLI would have read it from the markdown, less the line break a block ends with (a
    one-line description in Gemini's list); None when there is none that is text."""
    from installer.sets.yamltext import text_of

    return (text_of(head, "description") or "").rstrip("\n") or None


def command_text(r: Resource, text: str, rewrite: str) -> str:
    """The TOML command for template `r` whose markdown is `text`, its header naming `rewrite`,
    the command that writes it again; Unwritable when Gemini would read it with another
    meaning."""
    head, body = split_frontmatter(text)
    for mark, why in _GEMINI_ONLY:
        if mark in body:
            raise Unwritable(f"{why}; written there, the set's text would mean something else")
    picked = _PICKS.search(body)
    if picked:
        raise Unwritable(
            f"it uses {picked.group(0)}…: Gemini CLI passes the arguments whole, as {{{{args}}}}, "
            "and has nothing that picks one or gives a default"
        )
    prompt = _ALL.sub("{{args}}", body).strip("\n") + "\n"
    description = description_of(head)
    lines = [
        f"# Written by ext from the set's {r.declared[0] if r.declared else r.filename}: edit",
        "# that file, then this writes this one again:",
        f"# {rewrite}",
    ]
    if description:
        lines.append(f"description = {_basic(description)}")
    lines.append(f"prompt = {_basic(prompt)}")
    # Each value is a basic string of JSON's escapes, which TOML's are: it reads back as
    # itself (tests/unit/test_toml_commands.py holds that for any text).
    return "\n".join(lines) + "\n"


def _basic(text: str) -> str:
    """A TOML basic string: JSON's escapes are TOML's, and DEL, which TOML will not take raw."""
    import json

    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def toml_name(filename: str) -> str:
    """`review.md` -> `review.toml`: the command's file, named as Gemini names the command."""
    stem, dot, _ = filename.rpartition(".")
    return f"{stem if dot else filename}.toml"
