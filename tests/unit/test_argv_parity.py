"""The hand parser of the everyday commands agrees with the typer app on every argv it takes.

`installer.argv.parse` either returns a Call or None (typer parses it). For any argv it
takes, the typer app, given the same argv, must call the same handler with the same
arguments and set the same global options: hypothesis draws argvs from the tokens people
type, and their typos.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from installer import cli, handlers
from installer.argv import Call, parse
from installer.runner import G, Globals

COMMANDS = ["install", "list", "env", "enable", "launch", "doctor", "--version"]
FLAGS = ["--yes", "-y", "--dry-run", "--create", "--reseed", "--json", "-q", "--quiet"]
FLAGS += ["--no-color"]
FLAGS += ["--debug", "--help", "-h", "-yq", "--json=1", "--yes=no", "--", "extra", "--nope"]
OPTIONS = ["--only", "--skip", "--mode", "--set", "--agent-dir", "--shell"]
VALUES = ["a", "a,b", "", "-x", "link", "fish", " ", "x=y", "install", "~/s", "--json"]


OWN = {
    "install": (
        ["--yes", "-y", "--dry-run", "--create", "--reseed"],
        ["--only", "--skip", "--mode"],
    ),
    "list": ([], []),
    "env": ([], ["--shell"]),
    "--version": ([], []),
    "launch": (["--", "-p", "--help", "-h", "--version"], []),  # the host's, all of them
}
GLOBAL_FLAGS = ["--json", "-q", "--quiet", "--no-color", "--debug"]
GLOBAL_OPTIONS = ["--set", "--agent-dir"]


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
        typo = draw(st.sampled_from(FLAGS + COMMANDS + OPTIONS))
        tokens.insert(draw(st.integers(0, len(tokens))), typo)
    return tokens


@st.composite
def scrambled(draw: st.DrawFn) -> list[str]:
    """Any tokens at all, in any order."""
    tokens: list[str] = []
    for _ in range(draw(st.integers(0, 7))):
        kind = draw(st.sampled_from(["command", "flag", "option"]))
        if kind == "command":
            tokens.append(draw(st.sampled_from(COMMANDS)))
        elif kind == "flag":
            tokens.append(draw(st.sampled_from(FLAGS)))
        else:
            tokens.extend(_option(draw, draw(st.sampled_from(OPTIONS))))
    return tokens


def argvs() -> st.SearchStrategy[list[str]]:
    return st.one_of(plausible(), scrambled())


def _reset() -> None:
    vars(G).update(vars(Globals()))


def _through_typer(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> Call:
    """What the typer app calls for argv: the handler, its arguments and the globals set."""
    calls: list[tuple[str, dict[str, Any]]] = []

    def recorder(command: str, *params: str) -> Any:
        def record(*args: Any) -> None:
            calls.append((command, dict(zip(params, args, strict=True))))
            raise SystemExit(0)

        return record

    monkeypatch.setattr(handlers, "version", recorder("--version", "as_json"))
    install_params = ("only", "skip", "dry_run", "yes", "create", "mode", "reseed")
    monkeypatch.setattr(handlers, "install", recorder("install", *install_params))
    monkeypatch.setattr(handlers, "list_items", recorder("list"))
    monkeypatch.setattr(handlers, "env", recorder("env", "shell"))
    monkeypatch.setattr(handlers, "launch", recorder("launch", "args"))
    monkeypatch.setattr(sys, "argv", ["ext", *argv])
    _reset()
    with pytest.raises(SystemExit) as exit_info:
        cli.main()
    assert exit_info.value.code in (0, None), f"typer refused {argv}"
    assert len(calls) == 1, f"typer ran {calls} for {argv}"
    command, args = calls[0]
    found = dict(vars(G))
    _reset()
    return Call(command, args, found)


def _expected(call: Call) -> Call:
    """The parser's Call with every global option spelled out, as typer's callback sets them."""
    found = vars(Globals()) | call.globals
    return Call(call.command, call.args, found)


@settings(max_examples=400, deadline=None)
@given(argv=argvs())
def test_the_typer_app_makes_the_same_call(argv: list[str]) -> None:
    fast = parse(argv)
    if fast is None:
        return
    with pytest.MonkeyPatch.context() as monkeypatch:
        # --version is eager in typer: it prints before the globals' callback runs.
        typed = _through_typer(argv, monkeypatch)
    expected = _expected(fast)
    if fast.command == "--version":
        assert (typed.command, typed.args) == (expected.command, expected.args)
    else:
        assert typed == expected


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
    ],
)
def test_everyday_forms_are_parsed_by_hand(
    argv: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = parse(argv)
    assert fast is not None
    typed = _through_typer(argv, monkeypatch)
    expected = _expected(fast)
    assert (typed.command, typed.args) == (expected.command, expected.args)
    if fast.command != "--version":
        assert typed.globals == expected.globals


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
        ["launch", "-p", "-h", "--", "x"],
        ["doctor"],
        ["instal"],
    ],
)
def test_everything_else_goes_to_typer(argv: list[str]) -> None:
    assert parse(argv) is None


def test_option_values_become_what_typer_passes() -> None:
    call = parse(["--set", "~/s", "install", "--only", "a", "--only", ""])
    assert call is not None
    assert call.globals == {"set_dir": Path("~/s")}
    assert call.args["only"] == ["a", ""]
