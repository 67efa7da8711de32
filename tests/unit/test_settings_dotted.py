"""Dotted settings names: split, look up, put, remove; and what a bad name says."""

from __future__ import annotations

import pytest

from installer.ground.errors import ExitCode, UsageError
from installer.settings.dotted import Lookup, flatten, lookup, put, remove, split


@pytest.mark.parametrize("name", [".a", "a.", "a..b", ""])
def test_a_name_with_an_empty_part_is_a_usage_error_with_the_fix(name: str) -> None:
    with pytest.raises(UsageError) as caught:
        split(name)
    assert caught.value.exit_code == ExitCode.USAGE
    assert caught.value.message == f'settings key "{name}" has an empty part'
    assert caught.value.fix == (
        'write nested keys as "parent.child", with no leading, trailing or double dot'
    )


def test_lookup_says_found_missing_or_which_prefix_blocks_the_key() -> None:
    data = {"a": {"b": "text", "n": None}, "top": 1}
    assert lookup(data, "a.n") == Lookup(found=True, value=None)
    assert lookup(data, "a.x") == Lookup(found=False)
    assert lookup(data, "a.b.c.d") == Lookup(found=False, blocked_at="a.b")
    assert lookup(data, "top.x") == Lookup(found=False, blocked_at="top")
    assert lookup(data, "a.b.c").found is False


def test_put_makes_parents_and_refuses_to_go_through_a_value() -> None:
    data: dict[str, object] = {"s": "text"}
    put(data, "x.y.z", 1)
    assert data == {"s": "text", "x": {"y": {"z": 1}}}
    with pytest.raises(TypeError, match=r"^s in s\.t is not an object$"):
        put(data, "s.t", 2)


def test_remove_deletes_only_the_leaf_and_flatten_names_every_leaf() -> None:
    data = {"a": {"b": 1, "c": 2}}
    remove(data, "a.b")
    assert data == {"a": {"c": 2}}
    assert flatten({"a": {"b": 1, "c": {}}, "d": [1]}) == {"a.b": 1, "a.c": {}, "d": [1]}
