"""Every option of every command is a field of its verb's options type, and back.

installer.cli.grammar names each command's verb and options type, and the one generic call
(installer.cli.calls.call) builds the options from the parsed values by field name. So a new
option is a line in the grammar and a field (and its use) beside the verb: these tests fail
when one of the two is missing, and show that nothing else needs an edit.
"""

from __future__ import annotations

import inspect
import re
from importlib import import_module
from pathlib import Path
from typing import Any

import pytest

from installer.cli import calls
from installer.cli.grammar import COMMANDS, Command, Option

ROOT = Path(__file__).resolve().parents[2]


def _dests(command: Command) -> list[str]:
    """What the parsers hand the call for this command, in the grammar's order."""
    if command.passthrough:
        return ["args"]  # ext launch -- ARGS: the host's words
    return [o.dest for o in command.options] + [a.dest for a in command.arguments]


def _load(where: str) -> Any:
    module, _, name = where.partition(":")
    return getattr(import_module(f"installer.commands.{module}"), name)


def _default(o: Option) -> object:
    """The value a field must default to: what the call gets when the option is not given."""
    if o.kind == "flag":
        return False
    if o.kind == "list":
        return ()
    return o.default


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.name)
def test_each_option_is_a_field_of_the_options_type_and_back(command: Command) -> None:
    """Back but for what a `[hosts] serve` run hands each host's call itself (calls.SERVED)."""
    takes = _load(command.takes)
    served = set(calls.SERVED.get(command.call, ()))
    assert sorted(set(takes._fields) - served) == sorted(_dests(command))
    assert served <= set(takes._fields)


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.name)
def test_each_field_defaults_to_what_an_option_not_given_is(command: Command) -> None:
    defaults = _load(command.takes)()
    for o in command.options:
        assert getattr(defaults, o.dest) == _default(o), f"{command.name} {o.flags[0]}"


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.name)
def test_the_verb_takes_its_options_type(command: Command) -> None:
    verb = _load(command.verb)
    params = list(inspect.signature(verb).parameters.values())
    assert len(params) == (3 if command.asks else 2), command.verb
    assert params[1].annotation == command.takes.partition(":")[2]


def test_the_call_builds_the_options_by_field_name() -> None:
    install = next(c for c in COMMANDS if c.name == "install")
    parsed = {"only": ["a,b", "c"], "skip": None, "dry_run": True, "yes": False}
    parsed |= {"create": False, "mode": None, "reseed": True}
    options = calls.options_of(install, parsed)
    assert options == _load(install.takes)(only=("a", "b", "c"), dry_run=True, reseed=True)


def test_a_new_install_option_is_a_line_in_the_grammar_and_a_field_beside_the_verb() -> None:
    """Who names install's options: the grammar, install's own module, and no third file.

    An option's dest appears as a name in installer/cli/grammar.py (its declaration) and in
    installer/commands/install.py (its field and its use); the parsers, the call and the
    renderer of plans take the options (and the result) whole, so none of them names one.
    """
    install = next(c for c in COMMANDS if c.name == "install")
    own = {o.dest for o in install.options} - {"yes", "dry_run", "create"}  # shared by others
    front = [ROOT / "installer" / "cli" / name for name in ("calls.py", "fast.py", "app.py")]
    front += [ROOT / "installer" / "cli" / "entry.py", ROOT / "installer" / "cli" / "run.py"]
    front += [ROOT / "installer" / "render" / name for name in ("__init__.py", "plans.py")]
    for path in front:
        text = path.read_text()
        named = sorted(d for d in own if re.search(rf"\.{d}\b|\"{d}\"|\b{d}=", text))
        assert named == [], f"{path.relative_to(ROOT)} names install's {named}"
    verb = (ROOT / "installer" / "commands" / "install.py").read_text()
    for dest in own:
        assert f"    {dest}: " in verb, f"no field {dest}"
        assert f"options.{dest}" in verb, f"{dest} is never used"


def test_a_new_option_reaches_the_verb_through_both_parsers_unedited(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Declare `--frob` on install and give Install a `frob` field: the hand parser, the
    click app and the call carry it to the verb with no edit of their own."""
    from collections import namedtuple

    import click

    from installer.cli import app, fast
    from installer.commands import install as verb_module

    install = next(c for c in COMMANDS if c.name == "install")
    frob = Option("frob", ("--frob",), "text", "A new option.")
    grown = install._replace(options=(*install.options, frob))
    fields = [*verb_module.Install._fields, "frob"]
    defaults = [*verb_module.Install._field_defaults.values(), None]
    monkeypatch.setattr(verb_module, "Install", namedtuple("Install", fields, defaults=defaults))

    spec = fast._spec(grown, grown.options)
    assert spec.options["--frob"] == "frob"
    parsed = {**spec.defaults, "frob": "x"}

    seen: list[dict[str, Any]] = []
    monkeypatch.setattr(calls, "call", lambda name, g, values: seen.append(values))
    command = app._command(grown)
    with click.Context(command) as ctx:
        command.parse_args(ctx, ["--frob", "x"])
        ctx.invoke(command.callback, **ctx.params)
    assert seen == [parsed]

    assert calls.options_of(grown, parsed).frob == "x"
