"""How a plan reads: a reason many lines share is given whole once, then by its first words."""

from __future__ import annotations

import io

from installer.engine.plan import Action, Plan
from installer.links.plan import NOT_SELECTED
from installer.render.ui import Output


def _shown(*actions: Action) -> list[str]:
    stdout = io.StringIO()
    Output(stdout=stdout, stderr=io.StringIO()).show_plan(Plan("install", actions))
    return stdout.getvalue().splitlines()


def test_a_reason_lines_share_is_said_whole_once() -> None:
    """`ext install --only notify` after a whole install: one line per item left out, each
    with the whole sentence, was 7 times the same 60 characters for the bundled set."""
    lines = _shown(
        Action("unlink", "extensions/a.ts", target="/s/a.ts", detail=NOT_SELECTED),
        Action("link", "extensions/n.ts", target="/s/n.ts"),
        Action("unlink", "extensions/b.ts", target="/s/b.ts", detail=NOT_SELECTED),
        Action("unlink", "prompts/c.md", target="/s/c.md", detail=NOT_SELECTED),
    )
    assert lines[:4] == [
        f"  - unlink     extensions/a.ts  ({NOT_SELECTED})",
        "  + link       extensions/n.ts",
        "  - unlink     extensions/b.ts  (not selected)",
        "  - unlink     prompts/c.md  (not selected)",
    ]


def test_reasons_that_differ_or_have_no_first_words_are_said_each_time() -> None:
    lines = _shown(
        Action("unlink", "skills/a", detail="not written for codex: its warning says why"),
        Action("unlink", "skills/b", detail="not written for gemini: its warning says why"),
        Action("unlink", "extensions/p.ts", detail="off already; left as it is"),
        Action("unlink", "extensions/q.ts", detail="off already; left as it is"),
    )
    assert [line.partition("(")[2] for line in lines[:4]] == [
        "not written for codex: its warning says why)",
        "not written for gemini: its warning says why)",
        "off already; left as it is)",  # no `: `, so no first words to say it by
        "off already; left as it is)",
    ]
