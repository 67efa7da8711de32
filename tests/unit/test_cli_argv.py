"""Global options may stand after the command; what follows `launch` or `--` is left alone."""

from __future__ import annotations

import pytest

from installer.cli.fast import hoist_globals, option_value


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["install", "--yes", "--json"], ["--json", "install", "--yes"]),
        (["--json", "install"], ["--json", "install"]),
        (["doctor", "-q", "--set", "s"], ["-q", "--set", "s", "doctor"]),
        (["list", "--agent-dir=/a"], ["--agent-dir=/a", "list"]),
        (["launch", "--json", "-p", "x"], ["launch", "--json", "-p", "x"]),
        (["--debug", "launch", "--", "--json"], ["--debug", "launch", "--", "--json"]),
        (["consent", "check", "dir", "--json"], ["--json", "consent", "check", "dir"]),
        (["install", "--only", "a,b"], ["install", "--only", "a,b"]),
    ],
)
def test_hoist_globals(argv: list[str], expected: list[str]) -> None:
    assert hoist_globals(argv) == expected


def test_launch_is_the_pass_through_point_only_as_the_command() -> None:
    assert hoist_globals(["enable", "launch", "--json"]) == ["--json", "enable", "launch"]


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--mode=link"], ("link", 0)),
        (["--mode", "link", "--yes"], ("link", 1)),
        (["--mode="], ("", 0)),
        (["--mode", "-"], ("-", 1)),  # a word that is "-" is a value like any other
        (["--mode"], (None, 1)),  # argv ends first: no value, not a marker string
    ],
)
def test_option_value_is_none_when_argv_ends_first(
    argv: list[str], expected: tuple[str | None, int]
) -> None:
    assert option_value(argv, 0) == expected


@pytest.mark.parametrize(
    "argv",
    [
        ["--agent-dir", "", "install"],
        ["install", "--agent-dir="],
        ["--host", "", "list"],
        ["install", "--only", ""],
        ["install", "--mode="],
    ],
)
def test_the_hand_parser_leaves_an_empty_value_to_the_app(argv: list[str]) -> None:
    """The app says it is empty (tests/unit/test_cli_errors.py); the hand parser has no words
    for errors, so it takes no empty value."""
    from installer.cli.fast import parse

    assert parse(argv) is None
