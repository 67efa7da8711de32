"""Undo of ext's settings write, key by key: what ext changed goes back, the rest stays.

A key ext did not change is never touched; a key someone put back already is no conflict; an
object ext changed inside is merged inside; a key changed again since is a conflict whose
message shows all three values and whose fix is a concrete edit.
"""

from __future__ import annotations

import pytest

from installer.ground.errors import ExtError
from installer.settings.merge import MISSING, Conflict, revert_text


def test_a_value_ext_changed_goes_back_to_the_old_value() -> None:
    result = revert_text('{"theme": "dark"}', '{"theme": "light"}', '{"theme": "light", "x": 1}')
    assert result.text == '{"theme": "dark", "x": 1}'
    assert result.conflicts == ()


def test_a_key_ext_added_and_someone_removed_is_no_conflict() -> None:
    result = revert_text('{"x": 1}', '{"x": 1, "q": true}', '{"x": 1, "y": 2}')
    assert result.text == '{"x": 1, "y": 2}'
    assert result.conflicts == ()


def test_a_file_already_back_to_its_old_bytes_is_left_as_it_is() -> None:
    before = '{\n  "x": 1\n}\n'
    assert revert_text(before, '{\n  "x": 2\n}\n', before).text == before


def test_a_file_that_was_there_stays_a_file_when_it_ends_empty() -> None:
    assert revert_text("{}", '{"a": 1}', '{"a": 1}\n').text == "{}\n"


def test_a_key_ext_added_into_an_existing_object_goes_and_the_objects_other_keys_stay() -> None:
    before = '{"c": {"x": 1}}'
    after = '{"c": {"x": 1, "e": true}}'
    now = '{"c": {"x": 1, "e": true, "m": 2}}'
    assert revert_text(before, after, now).text == '{"c": {"x": 1, "m": 2}}'


def test_an_object_that_was_there_empty_stays_when_ext_keys_leave_it() -> None:
    result = revert_text('{"c": {}}', '{"c": {"e": 1}}', '{"c": {"e": 1}, "z": 1}')
    assert result.text == '{"c": {}, "z": 1}'


def test_a_changed_key_deep_inside_is_named_by_its_whole_path() -> None:
    before = '{"a": {"b": {"c": 1}}}'
    after = '{"a": {"b": {"c": 2}}}'
    result = revert_text(before, after, '{"a": {"b": {"c": 3}}}')
    assert result.text is None
    assert [c.key for c in result.conflicts] == ["a.b.c"]


def test_an_object_ext_wrote_over_a_scalar_and_someone_added_to_is_a_conflict() -> None:
    result = revert_text('{"c": 1}', '{"c": {"e": true}}', '{"c": {"e": true, "m": 1}}')
    assert result.text is None
    assert result.conflicts == (Conflict("c", 1, {"e": True}, {"e": True, "m": 1}),)


def test_a_deleted_file_is_a_conflict_of_the_whole_file() -> None:
    result = revert_text('{"x": 1}', '{"x": 2}', None)
    assert result.text is None
    assert [c.key for c in result.conflicts] == ["(the whole file)"]
    assert result.conflicts[0].now is MISSING


def test_a_deleted_file_is_described_as_a_file_that_was_there() -> None:
    (conflict,) = revert_text('{"x": 1}', '{"x": 2}', None).conflicts
    assert "absent before" not in conflict.describe()
    assert "wrote absent" not in conflict.describe()
    assert "(the whole file)" not in conflict.fix()
    assert conflict.describe() == "settings.json was deleted after ext's run changed it"
    assert conflict.fix() == "write settings.json again (`{}` will do), then run `ext undo` again"


def test_every_conflicting_key_is_reported_in_order() -> None:
    result = revert_text('{"a": 1, "b": 1}', '{"a": 2, "b": 2, "c": 2}', '{"a": 3, "b": 2, "c": 3}')
    assert result.text is None
    assert [c.key for c in result.conflicts] == ["a", "c"]


def test_a_key_that_was_there_gets_a_fix_that_sets_it_back() -> None:
    result = revert_text('{"n": 1}', '{"n": 2}', '{"n": 3}')
    (conflict,) = result.conflicts
    assert conflict.describe() == '"n" is 3 now; ext wrote 2, it was 1 before'
    assert conflict.fix() == 'set "n" to 1 yourself (or to 2)'


def test_a_key_ext_removed_and_someone_set_again_shows_it_as_absent() -> None:
    result = revert_text('{"n": 1}', "{}", '{"n": 3}')
    (conflict,) = result.conflicts
    assert conflict.wrote is MISSING
    assert conflict.describe() == '"n" is 3 now; ext wrote absent, it was 1 before'


def test_values_are_shown_as_ascii_json() -> None:
    conflict = Conflict("t", "caf\u00e9", MISSING, None)
    assert conflict.describe() == '"t" is null now; ext wrote absent, it was "caf\\u00e9" before'


def test_a_value_up_to_eighty_characters_is_shown_whole_and_a_longer_one_cut() -> None:
    whole = "x" * 78  # 80 characters with its quotes
    longer = "x" * 79
    assert Conflict("k", whole, 1, 2).fix() == f'set "k" to "{whole}" yourself (or to 1)'
    cut = '"' + "x" * 76 + "..."
    assert Conflict("k", longer, 1, 2).fix() == f'set "k" to {cut} yourself (or to 1)'


def test_a_broken_file_is_refused_by_name() -> None:
    with pytest.raises(ExtError) as err:
        revert_text('{"x": 1}', '{"x": 2}', '{"x": ')
    assert err.value.message.startswith("settings.json: not valid JSON")


@pytest.mark.parametrize("broken", ["before", "after"])
def test_a_broken_recorded_text_is_refused_by_name(broken: str) -> None:
    texts = {"before": '{"x": 1}', "after": '{"x": 2}', "now": '{"x": 3}'}
    texts[broken] = '{"x": '
    with pytest.raises(ExtError) as err:
        revert_text(texts["before"], texts["after"], texts["now"])
    assert err.value.message.startswith("settings.json: not valid JSON")


def test_a_file_ext_deleted_and_someone_wrote_again_gets_the_old_keys_back() -> None:
    now = '{\n  "y": 2\n}\n'
    assert revert_text('{"x": 1}', None, now).text == '{\n  "y": 2,\n  "x": 1\n}\n'


def test_an_object_ext_wrote_and_someone_replaced_by_a_value_is_a_conflict() -> None:
    result = revert_text("{}", '{"c": {"e": true}}', '{"c": false}')
    assert result.conflicts == (Conflict("c", MISSING, {"e": True}, False),)
