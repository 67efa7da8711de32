"""The toggle checklist's state, key by key, without a terminal."""

from __future__ import annotations

import io
import os
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from installer.render.picker import Picker, Row, run

ROWS = [
    Row("alpha", True, "enabled"),
    Row("beta", True, "enabled"),
    Row("gamma", False, "disabled"),
    Row("skill:review", False, "not-installed", locked="not linked"),
]


def gamma_needs_beta(on_after: frozenset[str]) -> str | None:
    if "gamma" in on_after and "beta" not in on_after:
        return "gamma is enabled and needs beta"
    return None


def text(p: Picker, width: int = 100, height: int = 30) -> list[str]:
    return [line for _, line in p.lines(width, height)]


def test_a_row_shows_now_and_after() -> None:
    p = Picker(ROWS, lambda _: None)
    p.move(1)
    p.flip()  # beta off

    shown = text(p)
    assert any("[ ] beta" in line and "enabled → disabled" in line for line in shown)
    assert any("[x] alpha" in line and line.rstrip().endswith("enabled") for line in shown)
    assert shown[-1] == "1 change: beta off"
    assert p.picked() == ["alpha"]


def test_an_item_left_out_is_shown_as_ext_list_says_it_not_as_disabled() -> None:
    """helper-73: after `install --skip notify`, `ext list` and `/ext` said not installed and
    the checklist said `[ ] notify  disabled`."""
    p = Picker(
        [Row("alpha", True, "enabled"), Row("notify", False, "not-installed")], lambda _: None
    )
    [row] = [line for line in text(p) if "] notify " in line]
    assert row.rstrip().endswith("notify  not-installed")
    p.move(1)
    p.flip()  # on: an enable puts it in
    [row] = [line for line in text(p) if "] notify " in line]
    assert row.rstrip().endswith("not-installed → enabled")


def test_a_refused_toggle_stays_as_it_was_and_the_batch_is_kept() -> None:
    p = Picker(ROWS, gamma_needs_beta)
    p.move(1)
    p.move(1)
    p.flip()  # gamma on
    p.move(-1)
    p.flip()  # beta off: refused while gamma is on after

    shown = text(p)
    [beta] = [line for line in shown if " beta " in line]
    assert "[x] beta" in beta and "refused: gamma is enabled and needs beta" in beta
    assert p.changes() == [("gamma", True)]
    assert shown[-1] == "1 change: gamma on"


def test_the_summary_counts_changes_not_ticks() -> None:
    p = Picker(ROWS, lambda _: None)
    p.flip()
    p.flip()  # alpha off and on again: no change
    p.move(1)
    p.flip()
    p.move(1)
    p.flip()
    assert p.summary() == "2 changes: beta off, gamma on"


def test_locked_rows_are_skipped_by_the_cursor_and_never_switch() -> None:
    p = Picker(ROWS, lambda _: None)
    for _ in range(3):
        p.move(1)
    assert p.rows[p.cursor].label == "alpha"  # wrapped past skill:review
    assert any("skill:review" in line and "not linked" in line for line in text(p))


def test_a_tiny_terminal_gets_a_readable_list_that_follows_the_cursor() -> None:
    p = Picker(ROWS, lambda _: None)
    p.move(1)
    p.move(1)  # gamma

    shown = text(p, width=20, height=5)

    assert len(shown) <= 5 and all(len(line) <= 20 for line in shown)
    assert any(line.startswith("» off    gamma") for line in shown)
    assert shown[-1] == "no change"


def test_a_tiny_terminal_shows_now_and_after_before_the_name() -> None:
    long_rows = [Row("confirm-destructive", True, "enabled"), *ROWS]
    p = Picker(long_rows, lambda _: None)
    p.flip()  # confirm-destructive off: its name is longer than the terminal is wide

    shown = text(p, width=20, height=5)

    assert shown[1] == "» on→off confirm-des"
    assert shown[2] == "  on     alpha"


def test_a_tiny_terminal_says_a_refusal_in_the_foot_line() -> None:
    p = Picker(ROWS, gamma_needs_beta)
    p.move(1)
    p.move(1)
    p.flip()  # gamma on
    p.move(-1)
    p.flip()  # beta off: refused

    shown = text(p, width=40, height=5)

    assert any(line.startswith("» on     beta") for line in shown)
    assert shown[-1] == "refused: gamma is enabled and needs beta"


def on_a_terminal(
    keys: str, capsys: pytest.CaptureFixture[str]
) -> tuple[list[str] | None, str, str]:
    """run() on a fake terminal: what it returned, what it drew there, and what went to stderr.

    How many frames prompt_toolkit draws depends on how fast the keys arrive; only the last
    frame, and what follows it, are the same on every run.
    """
    from prompt_toolkit.data_structures import Size
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output.vt100 import Vt100_Output

    screen = io.StringIO()
    output = Vt100_Output(screen, lambda: Size(rows=30, columns=100), term="xterm")
    with create_pipe_input() as keyboard:
        keyboard.send_text(keys)
        result = run(Picker(ROWS, lambda _: None), color=False, terminal=(keyboard, output))
    return result, screen.getvalue(), capsys.readouterr().err


def last_line(screen: str) -> str:
    """The last line of text drawn, escape sequences left out."""
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", screen)
    return [line.strip() for line in plain.splitlines() if line.strip()][-1]


def test_after_enter_the_summary_is_shown_once(capsys: pytest.CaptureFixture[str]) -> None:
    picked, screen, err = on_a_terminal(" \r", capsys)  # alpha off, apply

    assert picked == ["beta"]
    assert last_line(screen) == "1 change: alpha off"  # the last frame's foot, nothing after
    assert err == ""


def test_a_cancel_returns_none_and_leaves_saying_so_to_the_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    picked, screen, err = on_a_terminal(" \x03", capsys)  # alpha off, Ctrl-C (Escape's binding)

    assert picked is None
    assert "cancelled" not in screen + err


def test_a_sigint_from_outside_cancels_as_ctrl_c_does(capsys: pytest.CaptureFixture[str]) -> None:
    """A trial: `kill -INT` (or `timeout -s INT 5 ext toggle`) was ignored, the picker ran on
    until SIGKILL. The signal now cancels, as the Ctrl-C key does."""
    import signal

    from prompt_toolkit.data_structures import Size
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output.vt100 import Vt100_Output

    class Signalled(Picker):
        def flip(self) -> None:  # the first key, once the picker runs
            super().flip()
            os.kill(os.getpid(), signal.SIGINT)

    def stuck(*_: object) -> None:  # a watchdog, not a wait: ignored, the picker never ends
        raise TimeoutError("the picker ignored SIGINT")

    output = Vt100_Output(io.StringIO(), lambda: Size(rows=30, columns=100), term="xterm")
    before = signal.signal(signal.SIGALRM, stuck)
    signal.setitimer(signal.ITIMER_REAL, 20)
    try:
        with create_pipe_input() as keyboard:
            keyboard.send_text(" ")
            picked = run(Signalled(ROWS, lambda _: None), color=False, terminal=(keyboard, output))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)
    assert picked is None
    assert capsys.readouterr().err == ""


LONG = (
    "refusing to disable confirm-destructive: a live session (pid 4242, started 12:00:00) "
    "loads it, and switching it off under that session leaves rm -rf unguarded there"
)


@pytest.mark.parametrize(("width", "height"), [(120, 30), (80, 30), (40, 5)])
def test_a_long_refusal_wraps_and_is_never_cut(width: int, height: int) -> None:
    rows = [Row("confirm-destructive", True, "enabled"), *ROWS]
    p = Picker(rows, lambda on: LONG if "confirm-destructive" not in on else None)
    p.flip()  # refused

    shown = text(p, width, height)

    assert all(len(line) <= width for line in shown), shown
    # Only a reason longer than the whole terminal may take more lines than it has.
    assert len(shown) <= height or height == 5
    assert any(line.startswith("» ") and "confirm-destructive" in line for line in shown)
    words = " ".join(line.strip() for line in shown)
    assert f"refused: {LONG}" in words  # every word of the reason, in order


def test_escape_with_nothing_staged_returns_the_list_unchanged(
    capsys: pytest.CaptureFixture[str],
) -> None:
    picked, _, err = on_a_terminal("\x1b", capsys)
    assert picked == ["alpha", "beta"]  # as it is: the command has nothing to do (exit 0)
    assert err == ""
    staged, _, _ = on_a_terminal(" \x1b", capsys)  # a change staged: Escape cancels it
    assert staged is None


LONG_NAME = "an-extraordinarily-long-extension-name-that-keeps-going-and-going-past-eighty-columns"
MANY = [Row(LONG_NAME, True, "enabled"), *(Row(f"item-{i:02}", True, "enabled") for i in range(14))]


def test_one_long_name_does_not_push_every_row_past_the_edge() -> None:
    """A trial (helper-44): at 80 columns every row was padded to an 87-character name and
    wrapped onto two lines. The name column is capped; a longer name is cut in its middle."""
    shown = text(Picker(list(MANY), lambda _: None), 80, 30)

    rows = shown[1:-1]
    assert len(rows) == len(MANY)  # one line each
    assert all(len(line) <= 80 for line in shown)
    assert rows[0] == "» [x] an-extraordinarily-long-ex…d-going-past-eighty-columns  enabled"
    assert rows[1].startswith("  [x] item-00 ") and rows[1].rstrip().endswith("enabled")


@given(st.integers(40, 200), st.integers(5, 40), st.integers(0, len(MANY) - 1))
def test_the_list_shows_whole_rows_and_says_when_there_are_more(
    width: int, height: int, cursor: int
) -> None:
    """helper-44: scrolling cut the list's lines anywhere, leaving half a row at the top,
    and nothing said that rows were off screen."""
    p = Picker(list(MANY), lambda on: LONG if LONG_NAME not in on else None)
    p.flip()  # refused: the first row has a long reason, wrapped
    p.cursor = cursor

    shown = text(p, width, height)

    assert all(len(line) <= width for line in shown)
    starts = [line for line in shown if re.match(r"(» |  \S)", line)]  # a row's first line
    assert any(line.startswith("» ") for line in starts)  # the cursor's row is there
    more = [line for line in shown if re.fullmatch(r"rows \d+-\d+ of 15", line)]
    if len(starts) < len(MANY):  # said, where a line is left for it (helper-46: not past it)
        assert more or len(shown) >= height, shown
    # the list begins with a row's first line, never with the rest of a row cut above
    assert re.match(r"(» |  \S)", shown[1]), shown


def test_a_compact_row_keeps_its_guard_mark() -> None:
    rows = [Row("watchdog", True, "enabled", mark="[guarded]"), *ROWS]
    assert text(Picker(rows, lambda _: None), 50, 15)[1] == "» on     watchdog [guarded]"


def test_a_wide_name_is_measured_in_columns() -> None:
    """helper-46: a name of 40 CJK characters (80 columns) drew a 109-column row at 80."""
    rows = [Row("日本語" * 14, True, "enabled"), *ROWS]
    shown = text(Picker(rows, lambda _: None), 80, 30)
    from prompt_toolkit.utils import get_cwidth

    assert all(get_cwidth(line) <= 80 for line in shown), shown
    assert "…" in shown[1]


def test_a_list_that_scrolls_in_one_line_of_room_draws_no_line_more() -> None:
    """helper-46: with one line of room, the 'rows a-b of n' line was drawn all the same."""
    p = Picker(list(MANY), lambda on: LONG if LONG_NAME not in on else None)
    p.flip()  # refused: its reason, wrapped, fills the foot
    shown = text(p, 80, 4)
    # the head, the cursor's row, then the reason it was refused, and no line more
    assert shown[1].startswith("» ") and shown[2].startswith("refused: ")
    assert not any(line.startswith("rows ") for line in shown)


@given(st.integers(30, 120))
def test_a_wide_reason_wraps_by_columns_too(width: int) -> None:
    """helper-49: a CJK name with a refusal drew rows of 90 and 88 columns at 80."""
    from prompt_toolkit.utils import get_cwidth

    wide = "日本語の名前" * 7
    rows = [Row(wide, True, "enabled"), *ROWS]
    p = Picker(rows, lambda on: f"拒否された理由 {LONG}" if wide not in on else None)
    p.flip()
    shown = text(p, width, 40)
    assert all(get_cwidth(line) <= width for line in shown), shown
    assert "refused:" in " ".join(shown)
