"""Undo of a settings write merges: ext's keys go back, what changed since stays."""

from __future__ import annotations

from installer.settings.merge import revert_text

BEFORE = '{\n  "theme": "dark",\n  "n": 1E2\n}\n'
AFTER = (
    '{\n  "theme": "dark",\n  "n": 1E2,\n  "quietStartup": true,\n  "c": {\n    "e": true\n  }\n}\n'
)


def test_untouched_file_gets_its_old_bytes_back() -> None:
    assert revert_text(BEFORE, AFTER, AFTER).text == BEFORE


def test_keys_added_since_are_kept_and_ext_keys_go() -> None:
    now = AFTER.replace('"theme": "dark"', '"theme": "light"').replace(
        "\n}\n", ',\n  "lastChangelogVersion": "0.73.1"\n}\n'
    )
    assert revert_text(BEFORE, AFTER, now).text == (
        '{\n  "theme": "light",\n  "n": 1E2,\n  "lastChangelogVersion": "0.73.1"\n}\n'
    )


def test_a_parent_ext_made_stays_while_it_holds_someone_elses_key() -> None:
    now = AFTER.replace('"e": true', '"e": true,\n    "mine": 1')
    assert revert_text(BEFORE, AFTER, now).text == (
        '{\n  "theme": "dark",\n  "n": 1E2,\n  "c": {\n    "mine": 1\n  }\n}\n'
    )


def test_a_key_ext_removed_comes_back() -> None:
    now = '{\n  "n": 1E2,\n  "x": 1\n}\n'
    assert revert_text(BEFORE, '{\n  "n": 1E2\n}\n', now).text == (
        '{\n  "n": 1E2,\n  "x": 1,\n  "theme": "dark"\n}\n'
    )


def test_a_file_ext_made_goes_when_only_ext_keys_are_left() -> None:
    assert revert_text(None, '{"a": 1}', '{"a": 1}\n').text is None
    assert revert_text(None, '{"a": 1}', '{"a": 1, "b": 2}').text == '{"b": 2}'


def test_a_key_changed_again_is_a_conflict_with_a_concrete_fix() -> None:
    result = revert_text(BEFORE, AFTER, AFTER.replace('"e": true', '"e": false'))
    assert result.text is None
    (conflict,) = result.conflicts
    assert conflict.key == "c.e"
    assert conflict.describe() == '"c.e" is false now; ext wrote true, it was absent before'
    assert conflict.fix() == 'remove "c.e" from settings.json yourself (or set it to true)'
