"""Retired and renamed keys: found, migrated without clobbering, removed only on request."""

from __future__ import annotations

from installer.settings.keys import find_renamed, find_retired, migrate, remove_retired

RETIRED = {
    "oldFlag": "pi ignores it since 0.60",
    "compaction.legacy": "replaced by compaction.mode",
}
RENAMED = {"queueMode": "steeringMode", "compaction.auto": "autoCompact"}


def test_find_retired_reports_present_keys_with_why() -> None:
    found = find_retired({"oldFlag": None, "compaction": {"legacy": 1}}, RETIRED)
    assert [(r.key, r.why, r.value) for r in found] == [
        ("oldFlag", "pi ignores it since 0.60", None),
        ("compaction.legacy", "replaced by compaction.mode", 1),
    ]


def test_find_retired_ignores_absent_and_blocked_keys() -> None:
    assert find_retired({"compaction": True}, RETIRED) == []


def test_find_renamed_says_whether_the_new_name_is_set() -> None:
    found = find_renamed({"queueMode": "all", "steeringMode": "one"}, RENAMED)
    assert [(r.old, r.new, r.value, r.new_present) for r in found] == [
        ("queueMode", "steeringMode", "all", True)
    ]


def test_migrate_moves_value_when_new_name_is_absent() -> None:
    settings = {"queueMode": "all", "theme": "dark"}
    result = migrate(settings, RENAMED)
    assert result.settings == {"theme": "dark", "steeringMode": "all"}
    assert [m.old for m in result.moved] == ["queueMode"]
    assert settings == {"queueMode": "all", "theme": "dark"}


def test_migrate_moves_falsy_values_too() -> None:
    result = migrate({"queueMode": None}, RENAMED)
    assert result.settings == {"steeringMode": None}


def test_migrate_dotted_old_name_leaves_its_parent() -> None:
    result = migrate({"compaction": {"auto": False, "keep": 1}}, RENAMED)
    assert result.settings == {"compaction": {"keep": 1}, "autoCompact": False}


def test_migrate_never_clobbers_a_set_new_name() -> None:
    settings = {"queueMode": "all", "steeringMode": "one"}
    result = migrate(settings, RENAMED)
    assert result.settings == settings
    assert [c.old for c in result.conflicts] == ["queueMode"]
    assert not result.changed


def test_migrate_reports_a_new_name_under_a_non_object() -> None:
    result = migrate({"x": 1, "a": 5}, {"x": "a.b"})
    assert result.settings == {"x": 1, "a": 5}
    assert [b.old for b in result.blocked] == ["x"]


def test_migrate_twice_is_a_no_op() -> None:
    once = migrate({"queueMode": "all"}, RENAMED)
    assert not migrate(once.settings, RENAMED).changed


def test_remove_retired_all_or_chosen() -> None:
    settings = {"oldFlag": 1, "compaction": {"legacy": 2, "keep": 3}, "theme": "x"}
    out, removed = remove_retired(settings, RETIRED)
    assert out == {"compaction": {"keep": 3}, "theme": "x"}
    assert [r.key for r in removed] == ["oldFlag", "compaction.legacy"]
    out, removed = remove_retired(settings, RETIRED, keys=["oldFlag"])
    assert out == {"compaction": {"legacy": 2, "keep": 3}, "theme": "x"}
    assert settings["oldFlag"] == 1
