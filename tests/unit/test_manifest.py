"""extset.toml -> Manifest: defaults, every field, and exit 2 with the fix for bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from installer.ground.errors import ExitCode, UsageError
from installer.ground.manifest import (
    MAX_MANIFEST_BYTES,
    Guard,
    Manifest,
    default_manifest,
    parse_manifest,
)

PATH = Path("/sets/mine/extset.toml")


def parse(text: str | bytes) -> Manifest:
    return parse_manifest(text.encode() if isinstance(text, str) else text, PATH)


def refused(text: str | bytes) -> UsageError:
    with pytest.raises(UsageError) as err:
        parse(text)
    assert err.value.exit_code == ExitCode.USAGE
    assert str(PATH) in err.value.message
    assert err.value.fix
    return err.value


def test_an_empty_manifest_takes_every_default_and_the_folder_name() -> None:
    m = parse("")
    assert (m.name, m.mode, m.host_command, m.agent_dir, m.update_check) == (
        "mine",
        "link",
        "pi",
        None,
        True,
    )
    assert m.warnings == ()


def test_a_set_without_a_manifest_gets_the_same_defaults() -> None:
    m = default_manifest(Path("/sets/other"))
    assert (m.path, m.name, m.mode) == (None, "other", "link")


def test_every_field_is_read() -> None:
    m = parse(
        """
[set]
name = "tools"
mode = "register"
description = "mine"
[host]
command = "pi-dev"
tested = "0.73.1"
[target]
agent_dir = "agent"
[settings.seed]
theme = "dark"
[settings.retired]
oldKey = "gone in 0.70"
[settings.renamed]
a = "b"
[guards.notify]
process = "pi"
required_by = ["timer"]
reason = "sessions rely on it"
[extensions.timer]
requires = ["notify"]
[updates]
check = false
"""
    )
    assert (m.name, m.mode, m.host_command) == ("tools", "register", "pi-dev")
    assert m.host_tested == "0.73.1"
    assert m.agent_dir == Path("/sets/mine/agent")
    assert dict(m.seeds) == {"theme": "dark"}
    assert dict(m.retired) == {"oldKey": "gone in 0.70"}
    assert dict(m.renamed) == {"a": "b"}
    assert m.guards == {"notify": Guard("notify", "pi", ("timer",), "sessions rely on it")}
    assert m.requires == {"timer": ("notify",)}
    assert m.update_check is False


def test_an_absolute_agent_dir_stays_absolute() -> None:
    assert parse('[target]\nagent_dir = "/elsewhere/agent"').agent_dir == Path("/elsewhere/agent")


def test_unknown_keys_are_warnings_naming_the_closest_key() -> None:
    m = parse('[set]\nnmae = "x"\n[updatez]\n[guards.a]\nwhy = "?"')
    assert "unknown key [set] nmae ignored (did you mean 'name'?)" in " ".join(m.warnings)
    assert any("updatez" in w and "'updates'" in w for w in m.warnings)
    assert any("[guards.a] why" in w for w in m.warnings)


def test_bad_toml_names_the_line() -> None:
    err = refused('[set]\nname = "x"\nmode = \n')
    assert "invalid TOML" in err.message
    assert "line 3" in err.message


@pytest.mark.parametrize(
    ("text", "where", "fix"),
    [
        ('set = "x"', "set", "write [set]"),
        ("[set]\nname = 3", "[set] name", 'write name = "…"'),
        ('[set]\nmode = "copy"', "[set] mode", 'write mode = "link" or "register"'),
        ('[updates]\ncheck = "no"', "[updates] check", "write check = false"),
        ('[guards]\nnotify = "no"', "[guards.notify]", 'write [guards.notify] with reason = "…"'),
        (
            "[guards.notify]\nrequired_by = [1]",
            "[guards.notify] required_by",
            'write required_by = ["name", …]',
        ),
        (
            "[extensions.a]\nrequires = 'b'",
            "[extensions.a] requires",
            'write requires = ["name", …]',
        ),
        ("[settings.retired]\nk = 1", "[settings.retired] k", 'k = "…"'),
    ],
)
def test_wrong_types_say_where_and_what_to_write(text: str, where: str, fix: str) -> None:
    err = refused(text)
    assert f"{PATH}: {where}:" in err.message
    assert err.fix == fix


def test_not_utf8_is_exit_2_not_a_traceback() -> None:
    err = refused(b'[set]\nname = "\xff\xfe"\n')
    assert "not UTF-8" in err.message


def test_an_oversized_manifest_is_refused_before_parsing() -> None:
    err = refused(b"#" * (MAX_MANIFEST_BYTES + 1))
    assert "KiB" in err.message


def test_deeply_nested_arrays_are_exit_2_not_a_crash() -> None:
    depth = 50_000
    err = refused("x = " + "[" * depth + "]" * depth)
    assert err.message == f"{PATH}: nested too deeply"
    assert err.fix == "flatten the nested arrays"


@pytest.mark.parametrize(
    "tested", ["^0.73.0", "~0.73", "0.73.x", "0.73.0 - 0.74.2", "^0.73 || ^0.75"]
)
def test_npm_ranges_are_read_as_written(tested: str) -> None:
    assert parse(f'[host]\ntested = "{tested}"\n').host_tested == tested


@pytest.mark.parametrize(
    ("tested", "says"),
    [("banana", "npm's grammar"), (">=0.73.0, <0.74.0", "'>=0.73.0 <0.74.0'")],
)
def test_a_tested_range_npm_cannot_read_is_exit_2_naming_the_key(tested: str, says: str) -> None:
    err = refused(f'[host]\ntested = "{tested}"\n')
    assert err.exit_code == ExitCode.USAGE
    assert "[host] tested" in err.message and says in err.message
    assert err.fix is not None and "npm range" in err.fix


def test_a_manifest_using_every_known_key_gives_no_warnings() -> None:
    m = parse(
        """
[set]
name = "mine"
mode = "link"
description = "my extensions"

[host]
command = "pi"
tested = ">=0.73.0 <0.74.0"

[target]
agent_dir = "agent"

[settings.seed]
theme = "dark"

[settings.retired]
mcp = "use an extension instead"

[settings.renamed]
uiMode = "tuiMode"

[guards.notify]
reason = "needed"

[extensions.notify]
requires = []

[updates]
check = false
"""
    )
    assert m.warnings == ()
    assert m.name == "mine"
    assert m.update_check is False


def test_array_seeds_and_nested_seed_tables_are_taken_as_written() -> None:
    m = parse(
        """
[settings.seed]
enabledModels = ["a", "b"]

[settings.seed.compaction]
enabled = true
reserveTokens = 16384
"""
    )
    assert dict(m.seeds) == {
        "enabledModels": ["a", "b"],
        "compaction": {"enabled": True, "reserveTokens": 16384},
    }


@pytest.mark.parametrize(
    "text",
    [
        "[settings.seed]\nx = [1979-05-27]\n",  # a date inside an array: JSON has no date
        "[settings.seed]\nx = 1979-05-27T07:32:00Z\n",
        "[settings.seed.t]\nx = 07:32:00\n",
        "[settings.seed]\nx = nan\n",
        "[settings.seed]\nx = inf\n",
    ],
)
def test_a_seed_with_no_json_form_is_refused(text: str) -> None:
    assert "seed" in refused(text).message


@pytest.mark.parametrize(
    ("text", "message", "fix"),
    [
        ("set = 1", "set: must be a table, not a number", "write [set]"),
        ("host = []", "host: must be a table, not a list", "write [host]"),
        ("target = true", "target: must be a table, not a boolean", "write [target]"),
        ('settings = "x"', "settings: must be a table, not a string", "write [settings]"),
        ("updates = 1.5", "updates: must be a table, not a number", "write [updates]"),
        ("[settings]\nseed = 1", "settings.seed: must be a table, not a number", ""),
        ("[settings]\nretired = []", "settings.retired: must be a table, not a list", ""),
        ("[settings]\nrenamed = 2", "settings.renamed: must be a table, not a number", ""),
        ("guards = 1", "guards: must be a table, not a number", "write [guards]"),
        ("extensions = 1", "extensions: must be a table, not a number", "write [extensions]"),
        ("[set]\nmode = 1", "[set] mode: must be a string, not a number", 'write mode = "…"'),
        ("[set]\nname = {}", "[set] name: must be a string, not a table", 'write name = "…"'),
        ("[host]\ncommand = []", "[host] command: must be a string, not a list", ""),
        ("[host]\ntested = 1", "[host] tested: must be a string, not a number", ""),
        ("[target]\nagent_dir = 1", "[target] agent_dir: must be a string, not a number", ""),
        ('[set]\nmode = "lnk"', "[set] mode: unknown mode 'lnk'", 'write mode = "link" or "r'),
        (
            '[updates]\ncheck = "no"',
            "[updates] check: must be true or false",
            "write check = false",
        ),
        ("[settings.retired]\nx = 1", "[settings.retired] x: must be a string, not a number", ""),
        (
            "[settings.renamed]\nx = true",
            "[settings.renamed] x: must be a string, not a boolean",
            "",
        ),
        ("[guards]\nx = 1", "[guards.x]: must be a table", 'write [guards.x] with reason = "…"'),
        ("[guards.x]\nreason = 1", "[guards.x] reason: must be a string, not a number", ""),
        ("[guards.x]\nprocess = []", "[guards.x] process: must be a string, not a list", ""),
        ("[guards.x]\nrequired_by = [1]", "[guards.x] required_by: must be a list of names", ""),
        ("[extensions]\nx = 1", "[extensions.x]: must be a table", "write [extensions.x] req"),
        ('[extensions.x]\nrequires = "y"', "[extensions.x] requires: must be a list of names", ""),
        ('[settings.seed]\n"a..b" = 1', "[settings.seed] 'a..b': has an empty part", 'write "a.b'),
        ('[settings.seed.c]\n"" = 1', "[settings.seed] 'c.': has an empty part", ""),
        (
            "[settings.seed.c]\nwhen = 1979-05-27",
            "[settings.seed] c.when: date has no JSON form",
            "use a string, number, boolean, array or table",
        ),
    ],
)
def test_each_mistake_names_where_what_and_the_fix(text: str, message: str, fix: str) -> None:
    err = refused(text)
    assert err.message == f"{PATH}: {message}" or err.message.startswith(f"{PATH}: {message}")
    assert err.fix.startswith(fix)


def test_an_unknown_key_warning_names_the_table_and_the_closest_key() -> None:
    m = parse('sett = 1\n[set]\nnme = "x"\n[host]\nzzz = 1\n[guards.a]\nwhy = "x"')
    assert m.warnings == (
        "extset.toml: unknown key sett ignored (did you mean 'set'?)",
        "extset.toml: unknown key [set] nme ignored (did you mean 'name'?)",
        "extset.toml: unknown key [host] zzz ignored",
        "extset.toml: unknown key [guards.a] why ignored",
    )


def test_the_size_limit_is_exact_and_bad_bytes_say_which() -> None:
    at_limit = b"#" * (MAX_MANIFEST_BYTES - 1) + b"\n"
    assert parse(at_limit).warnings == ()
    over = refused(at_limit + b"#")
    assert over.message == f"{PATH}: over 1024 KiB"
    assert over.fix == "a manifest is a few lines"
    bad = refused(b'[set]\nname = "\xff"')
    assert bad.message == f"{PATH}: not UTF-8 (byte 14)"
    assert bad.fix == "save the file as UTF-8"
    syntax = refused("[set\n")
    assert syntax.message.startswith(f"{PATH}: invalid TOML: ")
    assert syntax.fix == "fix the TOML syntax at that line"
    unclosed = refused('[set]\nname = "x')  # tomllib names no line, only the end
    assert unclosed.message.endswith("invalid TOML: Unterminated string (at end of document)")
    assert unclosed.fix == "fix the TOML syntax near the end of the file"


def test_tables_inside_seed_arrays_and_empty_seed_tables_are_json() -> None:
    m = parse("[settings.seed]\nx = [{a = 1}, {}]\ny = {}\n")
    assert dict(m.seeds) == {"x": [{"a": 1}, {}], "y": {}}
    assert m.path == PATH
    nested_date = refused("[settings.seed]\nx = [{z = 1979-05-27}]\n")
    assert nested_date.message == f"{PATH}: [settings.seed] x: list has no JSON form"


def test_an_unknown_key_of_an_extension_table_is_a_warning_naming_it() -> None:
    m = parse('[extensions.notify]\nrequires = []\nneeds = ["x"]\n')
    assert m.warnings == ("extset.toml: unknown key [extensions.notify] needs ignored",)


def test_switch_says_how_link_mode_switches_an_item_off() -> None:
    assert parse("").switch == "rename"  # the default: `.off` links, as DESIGN.md has it
    assert default_manifest(Path("/sets/x")).switch == "rename"
    assert parse('[set]\nswitch = "pi"\n').switch == "pi"
    assert parse('[set]\nswitch = "rename"\n').warnings == ()


@pytest.mark.parametrize(
    ("text", "message", "fix"),
    [
        ('[set]\nswitch = "off"', "[set] switch: unknown switch 'off'", 'write switch = "rename"'),
        ("[set]\nswitch = true", "[set] switch: must be a string, not a boolean", 'switch = "…"'),
    ],
)
def test_a_bad_switch_names_the_fix(text: str, message: str, fix: str) -> None:
    err = refused(text)
    assert message in err.message
    assert fix in (err.fix or "")
