"""Seeds go only into absent keys; a present key of any value is the user's choice."""

from __future__ import annotations

from typing import Any

import pytest

from installer.ground.errors import UsageError
from installer.settings.seeds import Blocked, apply_seeds


def test_absent_key_is_seeded() -> None:
    result = apply_seeds({"theme": "dark"}, {"quietStartup": True})
    assert result.settings == {"theme": "dark", "quietStartup": True}
    assert result.seeded == {"quietStartup": True}
    assert result.changed


@pytest.mark.parametrize("value", [False, None, "", {}, [], 0])
def test_present_key_is_kept_whatever_its_value(value: Any) -> None:
    result = apply_seeds({"quietStartup": value}, {"quietStartup": True})
    assert result.settings == {"quietStartup": value}
    assert result.kept == ("quietStartup",)
    assert not result.changed


def test_input_is_not_changed() -> None:
    settings: dict[str, Any] = {"compaction": {}}
    apply_seeds(settings, {"compaction.enabled": True})
    assert settings == {"compaction": {}}


def test_dotted_key_makes_missing_parents() -> None:
    result = apply_seeds({}, {"compaction.enabled": True})
    assert result.settings == {"compaction": {"enabled": True}}
    assert result.seeded == {"compaction.enabled": True}


def test_dotted_key_joins_an_existing_parent_and_keeps_its_keys() -> None:
    settings = {"compaction": {"reserveTokens": 100}}
    result = apply_seeds(settings, {"compaction.enabled": True})
    assert result.settings == {"compaction": {"reserveTokens": 100, "enabled": True}}


def test_dotted_key_present_false_is_kept() -> None:
    result = apply_seeds({"compaction": {"enabled": False}}, {"compaction.enabled": True})
    assert result.settings == {"compaction": {"enabled": False}}
    assert result.kept == ("compaction.enabled",)


def test_nested_table_means_the_same_as_dotted_names() -> None:
    result = apply_seeds(
        {"compaction": {"enabled": False}}, {"compaction": {"enabled": True, "keep": 3}}
    )
    assert result.settings == {"compaction": {"enabled": False, "keep": 3}}
    assert result.kept == ("compaction.enabled",)
    assert result.seeded == {"compaction.keep": 3}


@pytest.mark.parametrize("parent", [None, False, "x", [1], 3])
def test_parent_that_is_not_an_object_is_left_and_reported(parent: Any) -> None:
    result = apply_seeds({"compaction": parent}, {"compaction.enabled": True})
    assert result.settings == {"compaction": parent}
    assert result.blocked == (Blocked("compaction.enabled", "compaction", True),)
    assert not result.changed


def test_seeded_values_are_copies() -> None:
    seed = {"list": [1]}
    result = apply_seeds({}, seed)
    result.settings["list"].append(2)
    assert seed == {"list": [1]}


def test_empty_part_is_a_manifest_error() -> None:
    with pytest.raises(UsageError):
        apply_seeds({}, {"compaction..enabled": True})


def test_applying_twice_changes_nothing_the_second_time() -> None:
    first = apply_seeds({}, {"a.b": 1, "c": [2]})
    second = apply_seeds(first.settings, {"a.b": 1, "c": [2]})
    assert second.settings == first.settings
    assert not second.changed


def test_a_seed_deeper_than_a_read_accepts_is_refused() -> None:
    from installer.settings import jsondoc
    from installer.settings.splice import render

    fits = ".".join(["k"] * jsondoc.MAX_DEPTH)
    written = render(apply_seeds({}, {fits: True}).settings, jsondoc.NEW_FILE_FORMAT)
    assert jsondoc.parse(written)  # the deepest seed accepted is still readable
    with pytest.raises(UsageError) as err:
        apply_seeds({}, {fits + ".k": True})
    assert f"at most {jsondoc.MAX_DEPTH}" in err.value.message
    with pytest.raises(UsageError):
        apply_seeds({}, {fits: {"a": 1}})
