"""settings.json text: strict parsing with line and column, and the layout kept on dump."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from installer.ground.errors import ExtError
from installer.settings import jsondoc
from installer.settings.diff import render_diff

LAYOUTS = {
    "4-space": '{\n    "a": 1,\n    "b": [\n        "x",\n        {}\n    ],\n'
    '    "c": {\n        "d": null\n    }\n}\n',
    "2-space, no final newline": '{\n  "packages": [\n    "../pkg"\n  ],\n  "z": true\n}',
    "tabs": '{\n\t"a": "é",\n\t"b": {\n\t\t"c": []\n\t}\n}\n',
    "compact": '{"a":1,"b":[1,2]}',
    "one line with spaces": '{"a": 1, "b": [1, 2]}\n',
    "crlf": '{\r\n  "a": 1\r\n}\r\n',
    "ascii escapes": '{\n  "a": "caf\\u00e9"\n}\n',
}


@pytest.mark.parametrize("text", LAYOUTS.values(), ids=LAYOUTS.keys())
def test_unchanged_document_round_trips_byte_identical(text: str) -> None:
    assert jsondoc.dump(jsondoc.parse(text), jsondoc.detect_format(text)) == text


def test_key_order_is_kept() -> None:
    text = '{\n  "z": 1,\n  "a": 2,\n  "m": 3\n}\n'
    data = jsondoc.parse(text)
    data["b"] = 4
    assert jsondoc.dump(data, jsondoc.detect_format(text)) == (
        '{\n  "z": 1,\n  "a": 2,\n  "m": 3,\n  "b": 4\n}\n'
    )


def test_blank_text_is_an_empty_object() -> None:
    assert jsondoc.parse("") == {}
    assert jsondoc.parse(" \n") == {}


@pytest.mark.parametrize(
    ("text", "where", "what"),
    [
        ('{\n  "a": 1,\n  "b": 2,\n}\n', "line 4, column 1", "a comma before the closing"),
        ('{\n  // mine\n  "a": 1\n}', "line 2, column 3", "a comment, which JSON does not allow"),
        ('{"a": [1, /* x */ 2]}', "line 1, column 11", "(pi reads JSON only)"),
        ('{\n  "a": 1\n  "b": 2\n}', "line 3, column 3", "not valid JSON"),
        ('{\n  "a": 1,\n  "a": 2\n}', "line 3, column 3", 'duplicate key "a"'),
        ('{"x": {"k": 1, "k": 2}}', "line 1, column 16", 'duplicate key "k"'),
        ('{"ab": 1, "a\\u0062": 2}', "line 1, column 11", 'duplicate key "ab"'),
        ("[]", "line 1, column 1", "top level is not an object"),
    ],
)
def test_refusals_name_line_and_column(text: str, where: str, what: str) -> None:
    with pytest.raises(ExtError) as err:
        jsondoc.parse(text, "settings.json")
    assert what in err.value.message
    assert where in err.value.message
    assert err.value.fix and where in err.value.fix


def test_same_key_in_different_objects_is_fine() -> None:
    assert jsondoc.parse('{"a": {"k": 1}, "b": {"k": 2}, "k": [{"k": 3}]}')["k"] == [{"k": 3}]


def test_brackets_and_colons_inside_strings_do_not_count() -> None:
    text = '{"a": "{{{[[[", "b": "\\"x\\": 1", "x\\"": ":"}'
    assert jsondoc.parse(text)["a"] == "{{{[[["


def test_nesting_deeper_than_the_cap_is_refused() -> None:
    ok = "[" * (jsondoc.MAX_DEPTH - 1) + "]" * (jsondoc.MAX_DEPTH - 1)
    assert jsondoc.parse('{"a": ' + ok + "}")
    deep = '{"a": ' + "[" * 100_000 + "]" * 100_000 + "}"
    with pytest.raises(ExtError, match="nesting deeper"):
        jsondoc.parse(deep)


def test_text_over_the_size_cap_is_refused() -> None:
    with pytest.raises(ExtError, match="larger than"):
        jsondoc.parse('{"a": "' + "x" * jsondoc.MAX_BYTES + '"}')


def test_invalid_utf8_is_refused_with_its_position() -> None:
    with pytest.raises(ExtError, match="line 2, column 9"):
        jsondoc.decode(b'{\n  "a": "\xff"\n}')


def test_diff_shows_the_change_and_the_missing_newline() -> None:
    diff = render_diff('{\n  "a": 1\n}', '{\n  "a": 1,\n  "b": 2\n}\n', "settings.json")
    assert "--- a/settings.json" in diff
    assert '-  "a": 1\n' in diff
    assert '+  "b": 2\n' in diff
    assert "\\ No newline at end of file" in diff


def test_diff_of_a_new_file_and_of_no_change() -> None:
    assert render_diff(None, "{}\n", "s.json").startswith("--- /dev/null\n+++ b/s.json")
    assert render_diff("{}\n", "{}\n", "s.json") == ""


@pytest.mark.parametrize(
    "text",
    [
        '{"theme": "dark", "dark": 1}',  # a value that equals a later key is no duplicate
        '{"a": ["b"], "b": 2}',
        '{"a": {"a": 1}}',  # the same key at another depth
        '[{"k": 1}, {"k": 2}]',  # the same key in sibling objects
    ],
)
def test_keys_are_duplicates_only_within_one_object(text: str) -> None:
    jsondoc.parse(text if text.startswith("{") else f'{{"x": {text}}}')


_SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
_TOML = st.datetimes() | st.dates() | st.times()  # a manifest's seeds may carry TOML's
_DATA = st.recursive(
    _SCALARS | _TOML,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


def _containers(value: object) -> list[int]:
    if isinstance(value, dict):
        return [id(value), *(i for v in value.values() for i in _containers(v))]
    if isinstance(value, list):
        return [id(value), *(i for v in value for i in _containers(v))]
    return []


@given(_DATA)
def test_clone_is_a_deep_copy_sharing_no_container(value: object) -> None:
    import copy

    copied = jsondoc.clone(value)
    assert copied == copy.deepcopy(value)
    assert set(_containers(copied)).isdisjoint(_containers(value))


def test_a_byte_order_mark_is_refused_with_the_command_that_removes_it(tmp_path: Path) -> None:
    """A trial (helper-30): the refusal named line 1, column 1, a character no editor shows;
    pi 1.x reads past it, pi 0.73 refuses it, and ext edits no such file. The fix, pasted,
    leaves the file as it was but for the mark."""
    import subprocess

    path = tmp_path / "my settings.json"
    path.write_bytes(b'\xef\xbb\xbf{\n  "a": 1\n}\n')
    with pytest.raises(ExtError) as err:
        jsondoc.parse(path.read_text(encoding="utf-8"), str(path))
    assert err.value.message.startswith(f"{path} starts with a byte-order mark (U+FEFF)")
    command = (err.value.fix or "").removeprefix("remove it: ").partition(", or save")[0]
    subprocess.run(["bash", "-c", command], check=True)  # pasted into a shell
    assert path.read_bytes() == b'{\n  "a": 1\n}\n'
