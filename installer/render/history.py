"""`ext history`: one aligned line per run, newest first, or the rows as JSON."""

from __future__ import annotations

from typing import TYPE_CHECKING

from installer.ground.clock import when_run

if TYPE_CHECKING:
    from installer.commands.undo import Journals
    from installer.render.ui import Output


def show(out: Output, result: Journals) -> int:
    from installer.render import text_or_json

    return text_or_json(out, result, lines)


def lines(result: Journals) -> list[str]:
    """Columns as wide as their longest entry: `settings migrate` or `interrupted` keep them
    aligned. A run is named as it was asked: `install --skip notify`, `disable notify`."""
    from installer.ground.screen import cells, pad

    rows = result.rows
    asked = [_asked(r["command"], r["asked"]) for r in rows]
    cw = max((cells(a) for a in asked), default=0)
    sw = max((len(r["status"]) for r in rows), default=0)
    nw = max((len(str(r["steps"])) for r in rows), default=0)
    return [
        (
            f"{when_run(r['started'])}  {pad(a, cw)}  {r['status']:<{sw}}  {r['steps']:>{nw}} "
            + ("step " if r["steps"] == 1 else "steps")  # what follows stays in one column
            + (f"  for {r['set']}" if r.get("set") else "")
            + ("  (undone)" if r["undone"] else "")
        ).rstrip()
        for r, a in zip(rows, asked, strict=True)
    ] or ["no history yet"]


def _asked(command: str, asked: list[str], most: int = 40) -> str:
    """The run as asked, a long list of names cut short (`--only a,b,…(200 names)`, no more a
    line to paste): one install of many names must not push every row's columns right. The
    JSON has it whole."""
    from installer.ground.shellword import shell_word

    def short(word: str) -> str:
        names = word.split(",")
        if len(word) <= most or len(names) < 3:
            return shell_word(word)
        return f"{shell_word(names[0])},{shell_word(names[1])},…({len(names)} names)"

    return " ".join([command, *map(short, asked)])
