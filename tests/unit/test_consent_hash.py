"""The canonical hook config and its hash: what changes it, and what must not."""

from __future__ import annotations

import copy
import hashlib
import json
from typing import Any

import pytest
import rfc8785
from hypothesis import given
from hypothesis import strategies as st

from installer.consent.canonical import canonical_bytes, loads_like_js
from installer.consent.config import HookConfig, build_config, hooks_of
from installer.ground.errors import ExtError

HOOKS: dict[str, Any] = {
    "PreToolUse": [
        {
            "matcher": "Bash",
            "hooks": [
                {"type": "command", "command": "./check.sh", "timeout": 5},
                {"type": "command", "command": "./log.sh"},
            ],
        },
        {"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "fmt"}]},
    ],
    "Stop": [{"hooks": [{"type": "command", "command": "notify done"}]}],
}


def config_of(*texts: tuple[str, str]) -> HookConfig:
    """Build a config from (source name, file text) pairs, as read_project does."""
    return build_config(
        (name, hooks_of(text, name, whole_file=name == ".pi/hooks.json")) for name, text in texts
    )


def settings(hooks: Any, **other: Any) -> str:
    return json.dumps({**other, "hooks": hooks})


def sha(hooks: Any) -> str | None:
    return config_of((".claude/settings.json", settings(hooks))).sha256


def test_hash_is_sha256_of_rfc8785_bytes_of_sources_to_hooks() -> None:
    config = config_of((".claude/settings.json", settings(HOOKS)))
    expected = rfc8785.dumps({".claude/settings.json": HOOKS})
    assert config.canonical == expected
    assert config.sha256 == "sha256:" + hashlib.sha256(expected).hexdigest()
    assert config.sources == (".claude/settings.json",)


def test_other_key_order_whitespace_and_formatting_hash_the_same() -> None:
    compact = json.dumps({"hooks": HOOKS}, separators=(",", ":"))
    pretty = json.dumps({"hooks": HOOKS}, indent=4, sort_keys=True)
    reordered = json.dumps({"hooks": dict(reversed(list(HOOKS.items())))}, indent="\t")
    crlf = json.dumps({"hooks": HOOKS}, indent=2).replace("\n", "\r\n") + "\r\n"
    escaped = json.dumps({"hooks": HOOKS}, ensure_ascii=True).replace("/", "\\/")
    hashes = {
        config_of((".claude/settings.json", t)).sha256
        for t in (compact, pretty, reordered, crlf, escaped)
    }
    assert len(hashes) == 1


def test_a_change_outside_hooks_keeps_the_hash() -> None:
    assert (
        sha(HOOKS)
        == config_of(
            (
                ".claude/settings.json",
                settings(HOOKS, model="opus", permissions={"allow": ["Bash"]}),
            )
        ).sha256
    )


def _renamed_event(h: dict[str, Any]) -> None:
    h["PostToolUse"] = h.pop("PreToolUse")


def _changed_matcher(h: dict[str, Any]) -> None:
    h["PreToolUse"][0]["matcher"] = "Bash|Read"


def _changed_command(h: dict[str, Any]) -> None:
    h["PreToolUse"][0]["hooks"][0]["command"] = "./check.sh --fix"


def _changed_timeout(h: dict[str, Any]) -> None:
    h["PreToolUse"][0]["hooks"][0]["timeout"] = 6


def _dropped_timeout(h: dict[str, Any]) -> None:
    del h["PreToolUse"][0]["hooks"][0]["timeout"]


def _swapped_hooks(h: dict[str, Any]) -> None:
    h["PreToolUse"][0]["hooks"].reverse()


def _swapped_groups(h: dict[str, Any]) -> None:
    h["PreToolUse"].reverse()


def _added_hook(h: dict[str, Any]) -> None:
    h["Stop"][0]["hooks"].append({"type": "command", "command": "true"})


@pytest.mark.parametrize(
    "edit",
    [
        _renamed_event,
        _changed_matcher,
        _changed_command,
        _changed_timeout,
        _dropped_timeout,
        _swapped_hooks,
        _swapped_groups,
        _added_hook,
    ],
)
def test_any_change_to_what_runs_changes_the_hash(edit: Any) -> None:
    edited = copy.deepcopy(HOOKS)
    edit(edited)
    assert sha(edited) != sha(HOOKS)


def test_the_same_hooks_in_another_source_hash_differently() -> None:
    local = config_of((".claude/settings.local.json", settings(HOOKS)))
    assert local.sha256 != sha(HOOKS)


def test_sources_combine_in_fixed_order_and_skip_those_without_hooks() -> None:
    config = config_of(
        (".claude/settings.json", settings(HOOKS)),
        (".claude/settings.local.json", json.dumps({"model": "x"})),
        (".pi/hooks.json", json.dumps({"Stop": HOOKS["Stop"]})),
    )
    assert config.sources == (".claude/settings.json", ".pi/hooks.json")
    assert config.as_json() == {
        ".claude/settings.json": HOOKS,
        ".pi/hooks.json": {"Stop": HOOKS["Stop"]},
    }


def test_pi_hooks_json_uses_its_hooks_key_when_it_has_one() -> None:
    wrapped = config_of((".pi/hooks.json", json.dumps({"hooks": HOOKS, "note": "x"})))
    bare = config_of((".pi/hooks.json", json.dumps(HOOKS)))
    assert wrapped.sha256 == bare.sha256


def test_claude_settings_without_hooks_key_contribute_nothing() -> None:
    assert config_of((".claude/settings.json", json.dumps({"PreToolUse": []}))).is_empty


@pytest.mark.parametrize("text", ['{"hooks": {}}', '{"hooks": null}', "{}", '{"model": "x"}'])
def test_no_hooks_is_nothing_to_approve(text: str) -> None:
    config = config_of((".claude/settings.json", text))
    assert config.is_empty
    assert config.sha256 is None
    assert config.as_json() == {}


def test_non_ascii_commands_hash_by_their_characters_not_their_escapes() -> None:
    hooks = {"Stop": [{"hooks": [{"type": "command", "command": "say 'fertig ✓ 🎉 — café'"}]}]}
    literal = json.dumps({"hooks": hooks}, ensure_ascii=False)
    escaped = json.dumps({"hooks": hooks}, ensure_ascii=True)
    assert "\\ud83c" in escaped
    a = config_of((".claude/settings.json", literal))
    b = config_of((".claude/settings.json", escaped))
    assert a.sha256 == b.sha256
    assert "fertig ✓ 🎉 — café".encode() in a.canonical
    ascii_only = {"Stop": [{"hooks": [{"type": "command", "command": "say 'fertig'"}]}]}
    assert sha(ascii_only) != a.sha256


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("5.0", b"5"),
        ("4.50", b"4.5"),
        ("1E30", b"1e+30"),
        ("1e21", b"1e+21"),
        ("1e20", b"100000000000000000000"),
        ("2e-3", b"0.002"),
        ("0.000001", b"0.000001"),
        ("1e-7", b"1e-7"),
        ("-0.0", b"0"),
        ("333333333.33333329", b"333333333.3333333"),
        ("0.000000000000000000000000001", b"1e-27"),
        # Beyond 2**53 a JavaScript reader holds a double; so do we.
        ("12345678901234567890", b"12345678901234567000"),
    ],
)
def test_numbers_are_canonicalised_per_jcs(text: str, canonical: bytes) -> None:
    assert canonical_bytes(loads_like_js(text)) == canonical


def test_a_timeout_of_5_and_5_point_0_is_the_same_config() -> None:
    as_int = '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "timeout": 5}]}]}}'
    as_float = as_int.replace("5}", "5.0}")
    assert as_float != as_int
    assert (
        config_of((".claude/settings.json", as_int)).sha256
        == config_of((".claude/settings.json", as_float)).sha256
    )


def test_keys_sort_by_utf16_code_units_not_code_points() -> None:
    # U+1F600 is D83D DE00 in UTF-16, before U+FFFF; code point order says the opposite.
    assert canonical_bytes({"\uffff": 1, "\U0001f600": 2}) == '{"\U0001f600":2,"\uffff":1}'.encode()


def test_invalid_json_names_the_file_line_and_column() -> None:
    with pytest.raises(ExtError) as caught:
        hooks_of(
            '{\n  "hooks": {\n    "Stop": [,]\n  }\n}', "/p/.claude/settings.json", whole_file=False
        )
    assert "/p/.claude/settings.json" in caught.value.message
    assert "line 3, column 14" in caught.value.message
    assert caught.value.fix and "line 3" in caught.value.fix


@pytest.mark.parametrize(
    "text", ['{"hooks": {"Stop": NaN}}', '{"hooks": {"a": 1e400}}', '{"hooks": {"a": "\\ud800"}}']
)
def test_values_json_cannot_carry_exactly_are_errors(text: str) -> None:
    with pytest.raises(ExtError, match=r"settings\.json"):
        hooks_of(text, "/p/.claude/settings.json", whole_file=False)


@pytest.mark.parametrize("text", ["[]", '"x"', '{"hooks": []}', '{"hooks": "echo hi"}'])
def test_hooks_that_are_not_an_object_are_errors(text: str) -> None:
    with pytest.raises(ExtError, match=r"hooks\.json"):
        hooks_of(text, "/p/.pi/hooks.json", whole_file=True)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**53) + 1, 2**53 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=12,
)
formats = st.fixed_dictionaries(
    {
        "indent": st.sampled_from([None, 0, 2, 4, "\t"]),
        "sort_keys": st.booleans(),
        "ensure_ascii": st.booleans(),
    }
)


@given(
    hooks=st.dictionaries(st.text(min_size=1, max_size=8), json_values, min_size=1, max_size=4),
    fmt=formats,
)
def test_any_formatting_of_any_hooks_hashes_the_same(
    hooks: dict[str, Any], fmt: dict[str, Any]
) -> None:
    plain = json.dumps({"hooks": hooks})
    other = json.dumps({"hooks": hooks}, **fmt)
    assert (
        config_of((".claude/settings.json", plain)).sha256
        == config_of((".claude/settings.json", other)).sha256
    )


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ('{"hooks": {"Stop": NaN}}', "NaN is not a JSON value"),
        ('{"hooks": {"a": -Infinity}}', "-Infinity is not a JSON value"),
        ('{"hooks": {"a": 1e400}}', "inf is not representable"),
    ],
)
def test_the_error_names_the_value_json_cannot_carry(text: str, named: str) -> None:
    with pytest.raises(ExtError) as caught:
        hooks_of(text, "/p/.claude/settings.json", whole_file=False)
    assert named in caught.value.message


def test_integers_past_2_to_the_53_read_as_javascript_reads_them() -> None:
    # JSON.parse("9007199254740993") is 9007199254740992 in JavaScript; JCS writes what JS holds.
    assert canonical_bytes(loads_like_js("9007199254740991")) == b"9007199254740991"
    assert canonical_bytes(loads_like_js("9007199254740993")) == b"9007199254740992"
    assert canonical_bytes(loads_like_js("-9007199254740993")) == b"-9007199254740992"


def test_the_readable_form_shows_characters_not_escapes() -> None:
    from installer.consent.canonical import pretty

    assert pretty({"b": "é", "a": 1}) == '{\n  "a": 1,\n  "b": "é"\n}'
