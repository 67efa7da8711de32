"""What ext says when it refuses a settings file, and the layout it reads from one."""

from __future__ import annotations

import pytest

from installer.ground.errors import ExtError
from installer.settings import jsondoc


def refusal(text: str, name: str = "settings.json") -> ExtError:
    with pytest.raises(ExtError) as err:
        jsondoc.parse(text, name)
    return err.value


@pytest.mark.parametrize(
    "text",
    [
        '{\n  "a": 1,\n}',
        '{"a": {"k": 1, "k": 2}}',
        "{\n  []",
        '{"a": NaN}',
        '"a": 1',
        '{"a": ' + "[" * jsondoc.MAX_DEPTH + "]" * jsondoc.MAX_DEPTH + "}",
    ],
)
def test_a_refusal_names_the_file_it_read(text: str) -> None:
    err = refusal(text, "project/.pi/settings.json")
    assert err.message.startswith("project/.pi/settings.json: ")
    assert err.fix and err.fix.startswith("edit project/.pi/settings.json at line ")


def test_the_default_name_is_settings_json() -> None:
    with pytest.raises(ExtError) as err:
        jsondoc.parse("[]")
    assert err.value.message == (
        "settings.json: the top level is not an object at line 1, column 1; nothing was changed"
    )
    with pytest.raises(ExtError) as bad:
        jsondoc.decode(b'{"a": "\xff"}')
    assert bad.value.message == (
        "settings.json: invalid UTF-8 at line 1, column 8; nothing was changed"
    )


def test_a_blank_first_line_counts_in_the_position() -> None:
    assert "at line 4, column 1;" in refusal('\n{\n  "a": 1,\n}').message
    assert "at line 2, column 2;" in refusal("\n{,}").message


def test_the_top_level_is_found_after_leading_whitespace() -> None:
    assert "not an object at line 2, column 3;" in refusal("  \n  []").message


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("{1: 2}", "line 1, column 2"),  # a key that is not a string
        ('{"x": ["k": 1, "k": 2]}', "line 1, column 11"),  # a colon inside an array
        ('"a": 1', "line 1, column 4"),  # a member outside any object
        ("{}}", "line 1, column 3"),  # one closer too many
        ('{"a": {"b": 1}: 2}', "line 1, column 15"),
    ],
)
def test_malformed_structure_is_not_valid_json_at_its_first_error(text: str, where: str) -> None:
    err = refusal(text)
    assert "not valid JSON" in err.message
    assert f"at {where};" in err.message


def test_the_size_cap_is_ten_mib_and_text_of_exactly_that_size_is_read() -> None:
    filler = jsondoc.MAX_BYTES - len('{"a": ""}')
    assert len(jsondoc.parse('{"a": "' + "x" * filler + '"}')["a"]) == filler
    err = refusal('{"a": "' + "x" * (filler + 1) + '"}')
    assert err.message == "settings.json is larger than 10 MiB; refusing to read it"
    assert err.fix == "check settings.json: a settings file is a few kilobytes"


def test_a_new_file_is_laid_out_as_pi_writes_it() -> None:
    fmt = jsondoc.detect_format("")
    assert fmt == jsondoc.NEW_FILE_FORMAT
    assert jsondoc.dump({"quietStartup": True, "theme": "café"}, fmt) == (
        '{\n  "quietStartup": true,\n  "theme": "café"\n}\n'
    )


@pytest.mark.parametrize(("text", "ending"), [("{}", ""), ("{ }\n", "\n"), ("{}\r\n", "\r\n")])
def test_an_empty_object_keeps_its_final_newline_or_its_lack(text: str, ending: str) -> None:
    fmt = jsondoc.detect_format(text)
    assert jsondoc.dump({"a": 1}, fmt) == '{\n  "a": 1\n}'.replace("\n", ending or "\n") + ending


def test_a_multi_line_document_with_no_indented_member_gets_pi_indent() -> None:
    assert jsondoc.detect_format('{"a": {}\n}\n').indent == "  "
    assert jsondoc.detect_format('{"a": [],\n"b": 1}').indent == "  "
    assert jsondoc.detect_format('{"a": 1}\n').indent is None


@pytest.mark.parametrize(
    ("text", "escaped"),
    [
        ('{\n  "a": 1\n}\n', False),  # nothing to learn from: write characters as they are
        ('{\n  "a": "\\u00e9"\n}\n', True),
        ('{\n  "a": "\\u00e9",\n  "b": "\x7f"\n}\n', True),  # DEL is ASCII
        ('{\n  "a": "\\u00e9",\n  "b": "\x80"\n}\n', False),  # U+0080 is not
    ],
)
def test_non_ascii_is_escaped_only_where_the_file_already_escapes_it(
    text: str, escaped: bool
) -> None:
    data = {**jsondoc.parse(text), "c": "é"}
    written = jsondoc.dump(data, jsondoc.detect_format(text))
    assert ('"c": "\\u00e9"' in written) is escaped
    assert ('"c": "é"' in written) is not escaped


def test_nan_is_never_written() -> None:
    with pytest.raises(ValueError, match="Out of range float"):
        jsondoc.dump({"a": float("nan")})
