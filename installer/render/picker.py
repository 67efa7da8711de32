"""`ext toggle`'s checklist: each row shows its state now → after, guards refuse per row.

A small prompt_toolkit application (the library questionary is built on, through its
public API): questionary's checkbox draws a row's title once, so it could not show what a
row will become, and checked guards only after Enter, dropping the whole batch. Here a
row that a guard refuses stays as it was and says why; the rest of the batch is kept.
On a terminal too small for the list (20x5), each row is `on→off name` (the change first,
so a cut name still shows it), a refusal is said in the foot line, and the list scrolls with
the cursor, one row a line. Colour follows --no-color and NO_COLOR.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from installer.ground.records import NamedTuple

if TYPE_CHECKING:
    from prompt_toolkit.input import Input
    from prompt_toolkit.output import Output


class Row(NamedTuple):
    """One item of the list: its label, whether it is on now, or why it cannot switch."""

    label: str
    on: bool
    state: str  # as `ext list` says it: enabled, disabled, not-installed, …
    locked: str | None = None  # not switchable: the reason shown in its place
    mark: str = ""  # e.g. "[guarded]"


# Given the labels that would be on after this toggle, why a guard refuses it (or None).
Check = Callable[[frozenset[str]], "str | None"]


@dataclass
class Picker:
    """The list's state, apart from any terminal: tests drive it key by key."""

    rows: list[Row]
    check: Check
    cursor: int = 0
    after: dict[str, bool] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.after = {r.label: r.on for r in self.rows}
        self.cursor = next((i for i, r in enumerate(self.rows) if r.locked is None), 0)

    def move(self, step: int) -> None:
        """To the next switchable row up or down (wrapping)."""
        n = len(self.rows)
        for k in range(1, n + 1):
            i = (self.cursor + step * k) % n
            if self.rows[i].locked is None:
                self.cursor = i
                return

    def flip(self) -> None:
        """Switch the row under the cursor, unless a guard refuses: then it says why."""
        row = self.rows[self.cursor] if self.rows else None
        if row is None or row.locked is not None:
            return
        want = dict(self.after)
        want[row.label] = not want[row.label]
        refusal = self.check(frozenset(k for k, v in want.items() if v))
        if refusal is not None:
            self.notes[row.label] = refusal
            return
        self.notes.pop(row.label, None)
        self.after = want

    def changes(self) -> list[tuple[str, bool]]:
        """(label, on after) for every row that will change."""
        return [(r.label, self.after[r.label]) for r in self.rows if self.after[r.label] != r.on]

    def picked(self) -> list[str]:
        """The labels on after the change (what the checkbox used to return)."""
        return [r.label for r in self.rows if self.after[r.label]]

    def summary(self) -> str:
        changed = self.changes()
        if not changed:
            return "no change"
        what = ", ".join(f"{label} {'on' if on else 'off'}" for label, on in changed)
        return f"{len(changed)} change{'' if len(changed) == 1 else 's'}: {what}"

    def lines(self, width: int, height: int) -> list[tuple[str, str]]:
        """The screen as (style, text) lines, fitted to width x height: a long row (a guard's
        reason) wraps onto the lines below it, never cut; the list scrolls with the cursor."""
        small = width < 60 or height < len(self.rows) + 3
        keys = "space switches, enter applies, escape cancels"
        # A narrow terminal gets the keys alone, so the list keeps its rows.
        head = [
            ("class:head", "space/enter/escape" if small else f"Switch items on or off ({keys})")
        ]
        # One long name must not push every row past the edge (helper-44: at 80 columns each
        # row wrapped in two): the name column is capped, and a longer name cut in its middle.
        longest = max((_width(r.label) for r in self.rows), default=0)
        name_w = min(longest, max(12, width - _STATE_W))
        if small:  # one row a line, cut at the edge; the refusal is said, wrapped, in the foot
            blocks = [[_cut(self._small_row(i, r, name_w), width)] for i, r in enumerate(self.rows)]
            head = [_cut(h, width) for h in head]
            said = ("class:foot", self._foot())
            # The summary is cut like the rows; a guard's reason wraps, as it is all there is.
            foot = _wrap(said, width, 2) if self._refused() else [_cut(said, width)]
        else:
            blocks = [
                _wrap(self._row(i, r, name_w), width, name_w + 8) for i, r in enumerate(self.rows)
            ]
            head = [line for h in head for line in _wrap(h, width, 2)]
            foot = _wrap(("class:foot", self.summary()), width, 2)
        room = max(1, height - len(head) - len(foot))
        first, last = _window(blocks, self.cursor, room)
        if (first, last) != (0, len(blocks)) and room > 1:  # scrolled: a line says so
            room -= 1
            first, last = _window(blocks, self.cursor, room)
            foot = [("class:foot", f"rows {first + 1}-{last} of {len(blocks)}"), *foot]
        shown = [line for block in blocks[first:last] for line in block][:room]
        return head + shown + foot

    def _row(self, i: int, r: Row, name_w: int) -> tuple[str, str]:
        pointer = "»" if i == self.cursor else " "
        if r.locked is not None:
            return ("class:locked", f"{pointer} -  {_fit(r.label, name_w)}  {r.locked}")
        box = "[x]" if self.after[r.label] else "[ ]"
        # An item off is said as `ext list` says it (not-installed: --skip left it out).
        now = "enabled" if r.on else (r.state or "disabled")
        after = self.after[r.label]
        state = now if after == r.on else f"{now} → {'enabled' if after else 'disabled'}"
        note = f"  refused: {self.notes[r.label]}" if r.label in self.notes else ""
        mark = f"  {r.mark}" if r.mark else ""
        style = "class:changed" if after != r.on else ("class:refused" if note else "")
        return (style, f"{pointer} {box} {_fit(r.label, name_w)}  {state}{mark}{note}")

    def _small_row(self, i: int, r: Row, name_w: int) -> tuple[str, str]:
        """A row for a terminal too small for columns: now → after first, then the name,
        so what changes is still seen when a long name is cut at the edge."""
        pointer = "»" if i == self.cursor else " "
        if r.locked is not None:
            return ("class:locked", f"{pointer} {'-':<6} {r.label} ({r.locked})")
        now, after = ("on" if r.on else "off"), ("on" if self.after[r.label] else "off")
        state = now if now == after else f"{now}→{after}"
        style = (
            "class:changed" if now != after else ("class:refused" if r.label in self.notes else "")
        )
        mark = f" {r.mark}" if r.mark else ""  # helper-44: compact rows lost `[guarded]`
        return (style, f"{pointer} {state:<6} {r.label}{mark}")

    def _refused(self) -> str | None:
        """The guard's reason for the row under the cursor, if its last switch was refused."""
        label = self.rows[self.cursor].label if self.rows else None
        return self.notes.get(label) if label is not None else None

    def _foot(self) -> str:
        """The summary; on a small terminal, the refusal of the row under the cursor instead."""
        refused = self._refused()
        return f"refused: {refused}" if refused else self.summary()


def _width(text: str) -> int:
    """The columns text takes on a terminal: a CJK character two (helper-46: names were
    measured in characters, and a row of 40 of them took 109 columns of 80)."""
    from prompt_toolkit.utils import get_cwidth

    return get_cwidth(text)


def _cut(line: tuple[str, str], width: int) -> tuple[str, str]:
    """A line cut at `width` columns."""
    style, text = line
    if _width(text) <= width:
        return line
    while _width(text) > width:
        text = text[:-1]
    return style, text


def _wrap(line: tuple[str, str], width: int, indent: int) -> list[tuple[str, str]]:
    """A line as lines of at most width columns, at spaces where it can; the ones after the
    first indented (under a row's state), so a wrapped reason reads as part of its row."""
    import textwrap

    style, text = line
    used = _width(text)
    if used <= width:
        return [line]
    pad = " " * min(indent, width // 2)
    if used == len(text):  # one column a character: textwrap's count is the screen's
        parts = textwrap.wrap(
            text, width, subsequent_indent=pad, drop_whitespace=True, break_on_hyphens=False
        )
        return [(style, part) for part in parts]
    return [(style, part) for part in _wrap_columns(text, width, pad)]


def _wrap_columns(text: str, width: int, pad: str) -> list[str]:
    """textwrap's greedy wrap, by terminal columns (helper-49: a wide name or reason wrapped
    by characters drew a 90-column row at 80); a word wider than a line is cut by columns."""
    lines: list[str] = []
    now = ""
    for word in text.split():
        room = width - (_width(pad) if lines else 0)
        joined = f"{now} {word}" if now else word
        if _width(joined) <= room:
            now = joined
            continue
        if now:
            lines.append(now)
        rest = word
        while _width(rest) > width - _width(pad):  # cut what no line holds whole
            head = _cut(("", rest), width - _width(pad))[1] or rest[:1]
            lines.append(head)
            rest = rest[len(head) :]
        now = rest
    lines.append(now)
    return [lines[0], *(pad + line for line in lines[1:])]


# What a row takes beside its name: pointer, box and spaces (8), and `disabled → enabled` (18).
_STATE_W = 26


def _fit(label: str, width: int) -> str:
    """A label in exactly `width` columns: padded, or cut in its middle (`an-extra…-columns`)
    when longer, both ends kept, as /ext shows a long name."""
    used = _width(label)
    if used <= width:
        return label + " " * (width - used)
    head, tail = "", ""
    for c in label:  # the first half of the room from the front, the rest from the back
        if _width(head + c) > (width - 1) // 2:
            break
        head += c
    for c in reversed(label):
        if _width(head) + 1 + _width(c + tail) > width:
            break
        tail = c + tail
    return f"{head}…{tail}" + " " * (width - _width(head) - 1 - _width(tail))


def _window(blocks: list[list[tuple[str, str]]], cursor: int, room: int) -> tuple[int, int]:
    """The rows [first, last) shown whole in `room` lines, the cursor's among them, as
    centred on it as the ends allow (helper-44: lines were cut anywhere, a row's half left)."""
    if not blocks:
        return 0, 0
    first, last, used = cursor, cursor + 1, len(blocks[cursor])
    grow_up = True
    while True:
        up = first > 0 and used + len(blocks[first - 1]) <= room
        down = last < len(blocks) and used + len(blocks[last]) <= room
        if not (up or down):
            return first, last
        if up and (grow_up or not down):
            first -= 1
            used += len(blocks[first])
        else:
            used += len(blocks[last])
            last += 1
        grow_up = not grow_up


STYLE = {
    "head": "bold",
    "changed": "fg:ansiyellow",
    "refused": "fg:ansired",
    "locked": "fg:ansibrightblack",
    "foot": "italic",
}


def run(
    picker: Picker, color: bool = True, terminal: tuple[Input, Output] | None = None
) -> list[str] | None:
    """Show the list on the terminal (drawn on stderr); the labels on after, None if cancelled
    (Ctrl-C, or Escape with a change staged; Escape with none returns the list unchanged).

    The last frame stays on screen, its foot line the summary of what was picked; nothing
    is printed after it (a cancel is said once, by the command). `terminal` is for tests.
    """
    import sys

    from prompt_toolkit.application import Application
    from prompt_toolkit.formatted_text import FormattedText
    from prompt_toolkit.key_binding import KeyBindings
    from prompt_toolkit.layout import Layout, Window
    from prompt_toolkit.layout.controls import FormattedTextControl
    from prompt_toolkit.output import ColorDepth, create_output
    from prompt_toolkit.styles import Style

    keyboard, output = terminal if terminal else (None, create_output(stdout=sys.stderr))

    def text() -> FormattedText:
        size = output.get_size()
        fragments: list[Any] = []
        for style, line in picker.lines(size.columns, size.rows):
            fragments += [(style, line), ("", "\n")]
        return FormattedText(fragments[:-1])

    keys = KeyBindings()

    @keys.add("up")
    @keys.add("k")
    def _up(event: Any) -> None:
        picker.move(-1)

    @keys.add("down")
    @keys.add("j")
    def _down(event: Any) -> None:
        picker.move(1)

    @keys.add(" ")
    def _flip(event: Any) -> None:
        picker.flip()

    @keys.add("enter")
    def _apply(event: Any) -> None:
        event.app.exit(result=picker.picked())

    @keys.add("escape", eager=True)
    def _leave(event: Any) -> None:
        # Nothing staged: the list as it is, which the command takes as no change (exit 0).
        event.app.exit(result=None if picker.changes() else picker.picked())

    @keys.add("c-c")
    @keys.add("<sigint>")  # `kill -INT`, `timeout -s INT`: prompt_toolkit turns it into this key
    def _cancel(event: Any) -> None:
        event.app.exit(result=None)

    app: Application[list[str] | None] = Application(
        layout=Layout(Window(FormattedTextControl(text, show_cursor=False), wrap_lines=False)),
        key_bindings=keys,
        style=Style.from_dict(STYLE if color else {}),
        input=keyboard,
        output=output,
        color_depth=None if color else ColorDepth.MONOCHROME,
        full_screen=False,
    )
    return app.run()
