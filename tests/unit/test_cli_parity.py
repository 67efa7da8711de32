"""The hand parser of the everyday commands agrees with the click app on every argv it takes.

Both are built from one declaration (installer.cli.grammar). `installer.cli.fast.parse`
either returns a Call or None (click parses it). For any argv it takes, the click app, given
the same argv, must make the same call with the same arguments and the same global options:
hypothesis draws argvs from the tokens people type, and their typos.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from installer.cli import app as cli
from installer.cli import calls
from installer.cli.fast import Call, parse
from installer.cli.grammar import BY_NAME, COMMANDS, GLOBALS
from installer.cli.options import Globals


def _tokens(name: str) -> tuple[list[str], list[str]]:
    """A command's flags and valued options, as the grammar declares them."""
    options = BY_NAME[name].options
    flags = [f for o in options if o.kind == "flag" for f in o.flags]
    return flags, [f for o in options if o.kind != "flag" for f in o.flags]


FAST = [c.name for c in COMMANDS if c.fast and not c.passthrough]
OWN = {name: _tokens(name) for name in FAST}
OWN["--version"] = ([], [])
OWN["launch"] = (["--", "-p", "--help", "-h", "--version"], [])  # the host's, all of them
GLOBAL_FLAGS = [f for o in GLOBALS if o.kind == "flag" for f in o.flags]
GLOBAL_OPTIONS = [f for o in GLOBALS if o.kind != "flag" for f in o.flags]

# What people type: every token of the everyday commands, a few of the others, and typos.
WORDS = [*OWN, "enable", "doctor"]
FLAGS = sorted({f for flags, _ in OWN.values() for f in flags} | set(GLOBAL_FLAGS))
FLAGS += ["--help", "-h", "-yq", "--json=1", "--yes=no", "--", "extra", "--nope"]
OPTIONS = sorted({o for _, options in OWN.values() for o in options} | set(GLOBAL_OPTIONS))
VALUES = ["a", "a,b", "", "-x", "link", "fish", " ", "x=y", "install", "~/s", "--json"]


def _option(draw: st.DrawFn, option: str) -> list[str]:
    value = draw(st.sampled_from(VALUES))
    return draw(st.sampled_from([[option, value], [f"{option}={value}"]]))


@st.composite
def plausible(draw: st.DrawFn) -> list[str]:
    """An everyday command with its own and global options in any order; maybe one typo."""
    command = draw(st.sampled_from(list(OWN)))
    flags, options = OWN[command]
    before: list[list[str]] = [
        [f] for f in draw(st.lists(st.sampled_from(GLOBAL_FLAGS), max_size=2))
    ]
    before += [
        _option(draw, o) for o in draw(st.lists(st.sampled_from(GLOBAL_OPTIONS), max_size=2))
    ]
    after: list[list[str]] = [
        [f] for f in draw(st.lists(st.sampled_from(flags + GLOBAL_FLAGS), max_size=3))
    ]
    if options or command != "--version":
        chosen = draw(st.lists(st.sampled_from(options + GLOBAL_OPTIONS), max_size=3))
        after += [_option(draw, o) for o in chosen]
    tokens = [t for group in draw(st.permutations(before)) for t in group] + [command]
    tokens += [t for group in draw(st.permutations(after)) for t in group]
    if draw(st.integers(0, 3)) == 0:
        typo = draw(st.sampled_from(FLAGS + WORDS + OPTIONS))
        tokens.insert(draw(st.integers(0, len(tokens))), typo)
    return tokens


@st.composite
def scrambled(draw: st.DrawFn) -> list[str]:
    """Any tokens at all, in any order."""
    tokens: list[str] = []
    for _ in range(draw(st.integers(0, 7))):
        kind = draw(st.sampled_from(["command", "flag", "option"]))
        if kind == "command":
            tokens.append(draw(st.sampled_from(WORDS)))
        elif kind == "flag":
            tokens.append(draw(st.sampled_from(FLAGS)))
        else:
            tokens.extend(_option(draw, draw(st.sampled_from(OPTIONS))))
    return tokens


def argvs() -> st.SearchStrategy[list[str]]:
    return st.one_of(plausible(), scrambled())


def _through_click(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> Call:
    """What the click app calls for argv: the call, its arguments and the globals."""
    made: list[Call] = []

    def record(name: str, g: Globals, args: dict[str, Any]) -> None:
        made.append(Call(name, dict(args), g))
        raise SystemExit(0)

    def version(g: Globals, as_json: bool) -> None:
        record("version", g, {"as_json": as_json})

    monkeypatch.setattr(calls, "call", record)
    monkeypatch.setattr(calls, "version", version)
    monkeypatch.setattr(sys, "argv", ["ext", *argv])
    with pytest.raises(SystemExit) as exit_info:
        cli.main()
    assert exit_info.value.code in (0, None), f"click refused {argv}"
    assert len(made) == 1, f"click made {made} for {argv}"
    return made[0]


@settings(max_examples=400)
@given(argv=argvs())
def test_the_click_app_makes_the_same_call(argv: list[str]) -> None:
    fast = parse(argv)
    if fast is None:
        return
    with pytest.MonkeyPatch.context() as monkeypatch:
        # --version is eager in click: it prints before the globals' callback runs.
        typed = _through_click(argv, monkeypatch)
    if fast.call == "version":
        assert (typed.call, typed.args) == (fast.call, fast.args)
    else:
        assert typed == fast


@pytest.mark.parametrize(
    "argv",
    [
        ["--version"],
        ["--version", "--json"],
        ["env"],
        ["env", "--shell", "fish"],
        ["--json", "list"],
        ["list", "-q"],
        ["install", "--yes"],
        ["install", "-y", "--json", "--only", "a,b", "--only=c", "--skip", "d"],
        ["--agent-dir", "/tmp/a", "install", "--dry-run", "--mode", "register", "--create"],
        ["install", "--set=s", "--yes", "--no-color", "--debug"],
        ["launch"],
        ["launch", "--", "--version"],
        ["-q", "launch", "-p", "x", "--", "--json", "--", "y"],
        ["launch", "--", "--help"],
        # -h is no help option of ext's (`ext install -h` is an error): launch hands it to pi.
        ["launch", "-h"],
        ["launch", "-p", "-h", "--", "x"],
    ],
)
def test_everyday_forms_are_parsed_by_hand(
    argv: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = parse(argv)
    assert fast is not None
    typed = _through_click(argv, monkeypatch)
    assert (typed.call, typed.args) == (fast.call, fast.args)
    if fast.call != "version":
        assert typed.globals == fast.globals


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["--help"],
        ["install", "--help"],
        ["install", "-yq"],
        ["install", "--yes=1"],
        ["install", "extra"],
        ["install", "--mode"],
        ["install", "--mode", "link", "--mode", "register"],
        ["--set", "a", "--set", "b", "list"],
        ["--set=", "list"],
        ["install", "--only", "--json"],
        ["--yes", "install"],
        ["list", "--version"],
        ["--version", "list"],
        ["launch", "--help"],
        ["launch", "-p", "x", "--help", "--", "y"],
        ["doctor"],
        ["instal"],
    ],
)
def test_everything_else_goes_to_click(argv: list[str]) -> None:
    assert parse(argv) is None


def test_option_values_become_what_click_passes() -> None:
    call = parse(["--set", "~/s", "install", "--only", "a", "--only", "b,c"])
    assert call is not None
    assert call.globals == Globals(set_dir=Path("~/s"))
    assert call.args["only"] == ["a", "b,c"]


def test_launch_help_says_where_pis_arguments_go() -> None:
    from click.testing import CliRunner

    out = CliRunner().invoke(cli.app, ["launch", "--help"]).output
    assert out.startswith("Usage: ext launch [--help] [--] [ARGS]...\n")
    assert "`ext launch -h` and `ext launch -- --help` show pi's help" in " ".join(out.split())
