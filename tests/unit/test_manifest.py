"""extset.toml -> Manifest: defaults, every field, and exit 2 with the fix for bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from installer.errors import ExitCode, UsageError
from installer.manifest import (
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
    with pytest.raises(UsageError):
        parse("x = " + "[" * depth + "]" * depth)


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
