"""A change spliced into settings.json follows the layout the file's own members already use."""

from __future__ import annotations

import json
from typing import Any

import pytest

from installer.settings import jsondoc
from installer.settings.splice import same, splice


def edit(text: str, new: Any) -> str:
    after = splice(text, jsondoc.parse(text), new, jsondoc.detect_format(text))
    assert jsondoc.parse(after) == new  # whatever the layout, the result reads back as `new`
    return after


CASES = {
    "an item changed in a list of the same length": (
        '{\n  "a": [1, 2E0, 3]\n}\n',
        {"a": [1, 2.0, 5]},
        '{\n  "a": [1, 2E0, 5]\n}\n',
    ),
    "compact text, no space after a comma": (
        '{"a":1,"b":[1,22]}',
        {"a": 2, "b": [1, 23]},
        '{"a":2,"b":[1,23]}',
    ),
    "an object becomes a list and a list an object": (
        '{\n  "a": {"k": 1},\n  "b": [1]\n}\n',
        {"a": [1, 2], "b": {"k": [1]}},
        '{\n  "a": [\n    1,\n    2\n  ],\n  "b": {\n    "k": [\n      1\n    ]\n  }\n}\n',
    ),
    "an empty object two levels down": (
        '{\n  "a": {\n    "b": {}\n  }\n}\n',
        {"a": {"b": {"c": 1}}},
        '{\n  "a": {\n    "b": {\n      "c": 1\n    }\n  }\n}\n',
    ),
    "two members into an empty object": (
        '{\n  "a": {}\n}\n',
        {"a": {"b": 1, "c": 2}},
        '{\n  "a": {\n    "b": 1,\n    "c": 2\n  }\n}\n',
    ),
    "a one-line object in an indented file": (
        '{\n  "a": {"b": 1}\n}\n',
        {"a": {"b": 1, "c": 2}},
        '{\n  "a": {"b": 1, "c": 2}\n}\n',
    ),
    "a one-member object in compact text": (
        '{"a":{"b":1}}',
        {"a": {"b": 1, "c": 2}},
        '{"a":{"b":1,"c":2}}',
    ),
    "the separator two siblings use": (
        '{\n  "a": {"b": 1,  "c": 2}\n}\n',
        {"a": {"b": 1, "c": 2, "d": 3}},
        '{\n  "a": {"b": 1,  "c": 2,  "d": 3}\n}\n',
    ),
    "the key separator the first member uses": (
        '{\n  "a" : 1\n}\n',
        {"a": 1, "b": 2},
        '{\n  "a" : 1,\n  "b" : 2\n}\n',
    ),
    "several members and nested values in compact text": (
        '{"a":1}',
        {"a": 1, "b": {"c": [1, 2]}, "d": 2},
        '{"a":1,"b":{"c":[1,2]},"d":2}',
    ),
    "blank lines between members": (
        '{\n  "a": 1,\n\n  "b": 2\n}\n',
        {"a": 1, "b": 2, "c": {"d": 1}},
        '{\n  "a": 1,\n\n  "b": 2,\n\n  "c": {\n    "d": 1\n  }\n}\n',
    ),
    "blank lines between items": (
        '{\n  "a": [\n    1,\n\n    2\n  ]\n}\n',
        {"a": [1, 2, {"d": 1}]},
        '{\n  "a": [\n    1,\n\n    2,\n\n    {\n      "d": 1\n    }\n  ]\n}\n',
    ),
    "an item put first": (
        '{\n  "a": [\n    "x"\n  ]\n}\n',
        {"a": ["z", "x"]},
        '{\n  "a": [\n    "z",\n    "x"\n  ]\n}\n',
    ),
    "a multi-line list emptied": (
        '{\n  "a": [\n    1,\n    2\n  ]\n}\n',
        {"a": []},
        '{\n  "a": []\n}\n',
    ),
    "a one-line list emptied": ('{\n  "a": [1, 2, 3]\n}\n', {"a": []}, '{\n  "a": []\n}\n'),
    "a text that starts with a blank line": (
        '\n  {"a": {}\n  }',
        {"a": {"b": 1}},
        '\n  {"a": {\n    "b": 1\n  }\n  }',
    ),
    "an object item whose keys come in another order": (
        '{\n  "a": [{"x": 1, "y": 2}, 1E2]\n}\n',
        {"a": [{"y": 2, "x": 1}, 100.0, 7]},
        '{\n  "a": [{"x": 1, "y": 2}, 1E2, 7]\n}\n',
    ),
    "a non-ASCII key and value in a file that writes them as they are": (
        '{\n  "a": 1\n}\n',
        {"a": 1, "é": "é"},
        '{\n  "a": 1,\n  "é": "é"\n}\n',
    ),
    "a non-ASCII key and value in a file that escapes them": (
        '{\n  "a": "\\u00e9"\n}\n',
        {"a": "é", "é": "é"},
        '{\n  "a": "\\u00e9",\n  "\\u00e9": "\\u00e9"\n}\n',
    ),
    "an integer becomes true, and another a float": (
        '{"a": 1, "b": 1}',
        {"a": True, "b": 1.0},
        '{"a": true, "b": 1.0}',
    ),
}


@pytest.mark.parametrize(("text", "new", "expected"), CASES.values(), ids=CASES.keys())
def test_a_change_is_written_in_the_file_layout(text: str, new: Any, expected: str) -> None:
    assert edit(text, new) == expected


@pytest.mark.parametrize(
    ("text", "new"),
    [
        ('{\n  "a": {"x": 1E2}\n}\n', {"a": {"x": 100.0, "y": {"z": 1}}}),
        ('{"a": 1,\n "b": [1]}', {"a": 1, "b": [1, [2, 3]]}),
        ('{\n  "a": [1]\n}\n', {"a": [1, {"z": [2]}]}),
    ],
)
def test_a_nested_value_added_to_a_one_line_container_reads_back(text: str, new: Any) -> None:
    after = edit(text, new)
    assert after.startswith(text[: text.index("1")])


def test_a_long_list_of_equal_items_keeps_each_as_written() -> None:
    text = '{"a": [' + ", ".join(["1E2"] * 300) + "]}"
    after = edit(text, {"a": [100.0] * 300 + [7]})
    assert after == '{"a": [' + ", ".join(["1E2"] * 300) + ", 7]}"


def test_nan_is_not_spliced_in() -> None:
    with pytest.raises(ValueError, match="Out of range float"):
        splice('{"a": 1}', {"a": 1}, {"a": 1, "b": float("nan")}, jsondoc.NEW_FILE_FORMAT)


@pytest.mark.parametrize(
    ("a", "b", "equal"),
    [
        ({"a": [1, {"b": None}]}, {"a": [1, {"b": None}]}, True),
        ({"a": 1, "b": 2}, {"b": 2, "a": 1}, True),
        ([{"k": "v"}, [2]], [{"k": "v"}, [2]], True),
        ({"a": 1}, {"a": 1.0}, False),
        ([1], [True], False),
        ({"a": [1]}, {"a": [1, 1]}, False),
        ({"a": 1}, {"b": 1}, False),
        (1, "1", False),
    ],
)
def test_same_is_equality_as_json(a: Any, b: Any, equal: bool) -> None:
    assert same(a, b) is equal
    assert same(json.loads(json.dumps(a)), b) is equal


# Two long lists (one item a character) where one item is inserted and two removed: a diff that
# treats the frequent "X" as junk would rewrite a run of untouched items.
LONG_BEFORE = (
    "ymXy8ddbbmlXy4kafb0Xm591fdlt0cX8hiX9ut1i0u0vXrncixX7s2XXo3a3aaijr2rd5XgxXdzmy7u96ghmx9wgsn157"
    "j7gXXy7pcyflll1pcv4XX4y2qdbitf2Xx9r6oqyc0XzXi6XjXa589Xuhqtrcmua5xfXt40sX8kjhq1Xezu3XX64hifdkb0"
    "ejl3i9uc0oxsXf2qfkX"
)
LONG_AFTER = LONG_BEFORE[:3] + LONG_BEFORE[4:6] + "Z" + LONG_BEFORE[6:]
LONG_AFTER = LONG_AFTER.replace("Xezu3", "Xzu3")


def test_a_long_list_with_frequent_items_rewrites_only_what_changed() -> None:
    text = '{"a": [' + ", ".join(f"{ord(c)}E0" for c in LONG_BEFORE) + "]}"
    after = edit(text, {"a": [float(ord(c)) for c in LONG_AFTER]})
    assert len(LONG_BEFORE) >= 200
    assert after.count(".0") == 1  # only the inserted item is written anew
    assert '"a": [121E0, 109E0, 88E0, 56E0, 100E0, 90.0, 100E0,' in after
