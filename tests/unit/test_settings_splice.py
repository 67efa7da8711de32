"""settings.json is edited as text: every byte ext did not mean to change stays as it was."""

from __future__ import annotations

import json
import shutil
import subprocess
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from installer.ground.errors import ExtError
from installer.settings import jsondoc
from installer.settings.seeds import apply_seeds
from installer.settings.splice import splice


def edit(text: str, change: Any) -> str:
    data = jsondoc.parse(text)
    new = change(json.loads(json.dumps(data)) if data else {})
    return splice(text, data, new, jsondoc.detect_format(text))


def seed(text: str, key: str, value: Any) -> str:
    data = jsondoc.parse(text)
    return splice(text, data, apply_seeds(data, {key: value}).settings, jsondoc.detect_format(text))


@pytest.mark.parametrize("number", ["1e400", "1.0000000000000000001", "1E2", "-0", "1.50", "2e-3"])
def test_numbers_are_kept_as_written(number: str) -> None:
    text = '{\n  "maxTokens": ' + number + "\n}\n"
    assert seed(text, "quietStartup", True) == (
        '{\n  "maxTokens": ' + number + ',\n  "quietStartup": true\n}\n'
    )


def test_crlf_escapes_and_no_final_newline_are_kept() -> None:
    text = '{\r\n\t"a": "caf\\u00e9 \\/ \\n",\r\n\t"b": {\r\n\t\t"c": 1E2\r\n\t}\r\n}'
    assert seed(text, "b.d", [1, {"e": 2}]) == (
        '{\r\n\t"a": "caf\\u00e9 \\/ \\n",\r\n\t"b": {\r\n\t\t"c": 1E2,\r\n'
        '\t\t"d": [\r\n\t\t\t1,\r\n\t\t\t{\r\n\t\t\t\t"e": 2\r\n\t\t\t}\r\n\t\t]\r\n\t}\r\n}'
    )


def test_a_changed_value_replaces_only_its_span() -> None:
    text = '{"a": 1e400, "b": [1, 2.50], "c": "x"}'
    assert edit(text, lambda d: {**d, "c": "y"}) == '{"a": 1e400, "b": [1, 2.50], "c": "y"}'


def test_removed_members_take_their_separator_with_them() -> None:
    text = '{\n  "a": 1E2,\n  "b": 2,\n  "c": 3,\n  "d": 4\n}\n'
    assert edit(text, lambda d: {"a": d["a"], "c": 3}) == '{\n  "a": 1E2,\n  "c": 3\n}\n'
    assert edit(text, lambda d: {"b": 2, "d": 4}) == '{\n  "b": 2,\n  "d": 4\n}\n'
    assert edit(text, lambda d: {}) == "{}\n"


def test_array_growth_keeps_the_items_it_had() -> None:
    text = '{\n  "packages": [\n    "a",\n    {"source": "b", "n": 1E2}\n  ]\n}'
    after = edit(text, lambda d: {"packages": [*d["packages"], "../set"]})
    assert (
        after
        == '{\n  "packages": [\n    "a",\n    {"source": "b", "n": 1E2},\n    "../set"\n  ]\n}'
    )
    assert edit(after, lambda d: {"packages": d["packages"][:2]}) == text


def test_an_empty_file_object_gets_pi_layout() -> None:
    assert seed("{}", "a", 1) == '{\n  "a": 1\n}'
    assert seed("{}\r\n", "a.b", 1) == '{\r\n  "a": {\r\n    "b": 1\r\n  }\r\n}\r\n'


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_refused_on_read(constant: str) -> None:
    with pytest.raises(ExtError) as err:
        jsondoc.parse('{\n  "a": "NaN",\n  "b": ' + constant + "\n}")
    assert f"{constant} is not JSON" in err.value.message
    assert "line 3, column 8" in err.value.message


# --- property: a seed that adds one key leaves every other byte as it was -----------------

NUMBERS = st.sampled_from(
    ["0", "-0", "1", "-12", "1.5", "1.0000000000000000001", "1e400", "-1e400", "1E2", "2e-5",
     "1.50E+3", "123456789012345678901234567890", "4.9e-330"]
)  # fmt: skip
STRINGS = st.lists(
    st.sampled_from(["a", "é", "\\u00e9", "\\n", '\\"', "\\\\", "\\/", "\\ud83d\\ude00", " ", "ﬀ"])
).map(lambda parts: '"' + "".join(parts) + '"')
SCALARS = NUMBERS | STRINGS | st.sampled_from(["true", "false", "null"])


@st.composite
def layouts(draw: st.DrawFn) -> tuple[str, str, str]:
    """(newline, one indent level, key separator)."""
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    indent = draw(st.sampled_from(["", "  ", "    ", "\t"]))
    return newline, indent, draw(st.sampled_from([": ", ":", " : "]))


def write(value: Any, lay: tuple[str, str, str], depth: int) -> str:
    newline, indent, key_sep = lay
    if isinstance(value, str):
        return value
    pad = newline + indent * (depth + 1) if indent else ""
    end = newline + indent * depth if indent else ""
    if isinstance(value, list):
        inner = ("," + (pad or " ")).join(write(v, lay, depth + 1) for v in value)
        return "[" + pad + inner + end + "]" if value else "[]"
    inner = ("," + (pad or " ")).join(
        f'"{k}"{key_sep}{write(v, lay, depth + 1)}' for k, v in value.items()
    )
    return "{" + pad + inner + end + "}" if value else "{}"


TREES = st.recursive(
    SCALARS,
    lambda kids: (
        st.lists(kids, max_size=3)
        | st.dictionaries(st.sampled_from(["a", "b", "k", "ß", "x y"]), kids, max_size=3)
    ),
    max_leaves=12,
)


@st.composite
def documents(draw: st.DrawFn) -> tuple[str, str]:
    """A settings text, and a dotted key that is not in it (possibly under an existing object)."""
    lay = draw(layouts())
    top = draw(st.dictionaries(st.sampled_from(["a", "b", "k", "ß"]), TREES, max_size=4))
    text = write(top, lay, 0) + draw(st.sampled_from(["", lay[0]]))
    data = jsondoc.parse(text)
    path: list[str] = []
    node: Any = data
    while isinstance(node, dict) and node and draw(st.booleans()):
        key = draw(st.sampled_from(sorted(node)))
        path.append(key)
        node = node[key]
    if not isinstance(node, dict):
        path.pop()
    return text, ".".join([*path, "new_key"])


def single_insertion(before: str, after: str) -> bool:
    """after is before with one run of characters inserted somewhere."""
    grown = len(after) - len(before)
    head = next(
        (i for i, (x, y) in enumerate(zip(before, after, strict=False)) if x != y), len(before)
    )
    return grown > 0 and after[:head] == before[:head] and after[head + grown :] == before[head:]


node_js = shutil.which("node")


@pytest.mark.skipif(node_js is None, reason="node is not installed")
@settings(max_examples=4, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(documents(), min_size=40, max_size=40), st.sampled_from([True, 7, "v", [1]]))
def test_a_seed_adds_one_member_and_node_parses_the_result(
    docs: list[tuple[str, str]], value: Any
) -> None:
    results = []
    for text, key in docs:
        after = seed(text, key, value)
        assert single_insertion(text, after), (text, after)
        expected = apply_seeds(jsondoc.parse(text), {key: value}).settings
        assert jsondoc.parse(after) == expected
        results.append(after)
    script = (
        "const texts = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "for (const t of texts) JSON.parse(t); console.log(texts.length);"
    )
    run = subprocess.run(
        [str(node_js), "-e", script],
        input=json.dumps(results),
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == str(len(results))
