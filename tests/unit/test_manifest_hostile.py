"""Hostile manifests: every one is a usage error (exit 2) with a fix, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from installer.ground.errors import ExitCode, UsageError
from installer.ground.manifest import MAX_MANIFEST_BYTES, parse_manifest

PATH = Path("/set/extset.toml")


@pytest.mark.parametrize(
    "raw",
    [
        b"\xff\xfe[set]\n",  # not UTF-8
        b'[set]\nname = "\xc3\x28"\n',  # invalid continuation byte
        b"[set\n",  # invalid TOML
        b"a = " + b"[" * 5000 + b"]" * 5000,  # deep nesting
        b"x = 1\n" * (MAX_MANIFEST_BYTES // 6 + 1),  # over the size cap
        b'[set]\nmode = "copy"\n',  # unknown mode
        b"[set]\nname = 3\n",  # wrong type
        b"set = 1\n",  # a table that is not a table
        b'[guards.x]\nrequired_by = "y"\n',  # a list that is a string
        b"[updates]\ncheck = 'no'\n",
        b"[settings.seed]\nwhen = 1979-05-27\n",  # a TOML date has no JSON form
        b"[settings.seed]\nx = nan\n",
        b'[settings.seed]\n"a..b" = 1\n',  # an empty part in a dotted name
    ],
)
def test_bad_manifest_is_a_usage_error_with_a_fix(raw: bytes) -> None:
    with pytest.raises(UsageError) as caught:
        parse_manifest(raw, PATH)
    assert caught.value.exit_code == ExitCode.USAGE
    assert caught.value.fix
    assert str(PATH) in caught.value.message


def test_bad_toml_names_the_line() -> None:
    with pytest.raises(UsageError, match="line 3"):
        parse_manifest(b'[set]\nname = "a"\nmode = \n', PATH)


def test_unknown_keys_are_warnings_not_errors() -> None:
    manifest = parse_manifest(b'[set]\nnmae = "x"\n[extra]\n', PATH)
    assert any("'name'" in w for w in manifest.warnings)
    assert any("extra" in w for w in manifest.warnings)


@settings(max_examples=150)
@given(st.binary(max_size=400))
def test_any_bytes_parse_or_fail_cleanly(raw: bytes) -> None:
    try:
        parse_manifest(raw, PATH)
    except UsageError as exc:
        assert exc.fix


_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=8,
)


@settings(max_examples=150)
@given(
    st.dictionaries(
        st.sampled_from(
            ["set", "host", "target", "settings", "guards", "extensions", "updates", "x"]
        ),
        _VALUES,
        max_size=4,
    )
)
def test_any_toml_shape_validates_or_fails_cleanly(data: dict[str, object]) -> None:
    import tomlkit

    try:
        raw = tomlkit.dumps(_tomlable(data)).encode()
    except Exception:
        return
    try:
        parse_manifest(raw, PATH)
    except UsageError as exc:
        assert exc.fix


def _tomlable(value: object) -> object:
    if isinstance(value, dict):
        return {str(k): _tomlable(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_tomlable(v) for v in value if v is not None]
    return value
