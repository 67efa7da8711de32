"""A seed is refused when key parts plus the value's nesting pass what a read of settings accepts.

Every object or array in the value is one level, scalars none, and only the deepest branch counts:
settings.json at exactly MAX_DEPTH levels is still readable, one more is not.
"""

from __future__ import annotations

from typing import Any

import pytest

from installer.ground.errors import UsageError
from installer.settings import jsondoc
from installer.settings.seeds import apply_seeds
from installer.settings.splice import render


def _key(parts: int) -> str:
    return ".".join(["k"] * parts)


def _deep_list(levels: int) -> Any:
    value: Any = []
    for _ in range(levels - 1):
        value = [value]
    return value


def _readable(settings: dict[str, Any]) -> bool:
    return bool(jsondoc.parse(render(settings, jsondoc.NEW_FILE_FORMAT)))


@pytest.mark.parametrize(
    ("parts", "value"),
    [
        (jsondoc.MAX_DEPTH - 1, {}),
        (jsondoc.MAX_DEPTH - 1, []),
        (jsondoc.MAX_DEPTH - 1, [1, "x", None]),
        (jsondoc.MAX_DEPTH - 2, [{}]),
        (jsondoc.MAX_DEPTH - 2, [[], 1]),
        (jsondoc.MAX_DEPTH - 3, [1, [[]], []]),
    ],
)
def test_a_value_that_fills_the_last_levels_is_seeded_and_readable(parts: int, value: Any) -> None:
    result = apply_seeds({}, {_key(parts): value})
    assert result.seeded == {_key(parts): value}
    assert _readable(result.settings)


@pytest.mark.parametrize(
    ("parts", "value"),
    [
        (jsondoc.MAX_DEPTH - 1, [[]]),
        (jsondoc.MAX_DEPTH - 1, [{}]),
        (jsondoc.MAX_DEPTH - 1, [1, []]),
        (jsondoc.MAX_DEPTH - 2, [1, [[]], []]),
        (jsondoc.MAX_DEPTH - 2, [[{}]]),
        (jsondoc.MAX_DEPTH, {}),
        (jsondoc.MAX_DEPTH, []),
    ],
)
def test_a_value_one_level_too_deep_is_refused(parts: int, value: Any) -> None:
    with pytest.raises(UsageError) as err:
        apply_seeds({}, {_key(parts): value})
    assert f"nests {jsondoc.MAX_DEPTH + 1} levels deep" in err.value.message


def test_the_refusal_names_the_key_the_depth_and_a_fix() -> None:
    value = _deep_list(jsondoc.MAX_DEPTH + 1)
    with pytest.raises(UsageError) as err:
        apply_seeds({}, {"compaction.list": value})
    depth = 2 + jsondoc.MAX_DEPTH + 1
    assert err.value.message == (
        f"[settings.seed] compaction.list nests {depth} levels deep in settings.json; "
        f"ext reads at most {jsondoc.MAX_DEPTH}"
    )
    assert err.value.fix == (
        f"use a key with fewer dotted parts (at most {jsondoc.MAX_DEPTH} levels with the value)"
    )


def test_a_long_key_is_shown_cut_to_sixty_characters() -> None:
    key = _key(jsondoc.MAX_DEPTH + 1)
    with pytest.raises(UsageError) as err:
        apply_seeds({}, {key: True})
    assert err.value.message.startswith(f"[settings.seed] {key[:60]}… nests ")


def test_a_key_just_under_sixty_characters_is_shown_whole() -> None:
    key = "a" * 59
    with pytest.raises(UsageError) as err:
        apply_seeds({}, {key: _deep_list(jsondoc.MAX_DEPTH)})
    assert err.value.message.startswith(f"[settings.seed] {key} nests ")


def test_objects_inside_an_array_count_their_own_nesting() -> None:
    parts = jsondoc.MAX_DEPTH - 4  # the array, the object, "a"'s two arrays: 4 more levels
    assert apply_seeds({}, {_key(parts): [{"a": [[]]}]}).changed
    with pytest.raises(UsageError):
        apply_seeds({}, {_key(parts + 1): [{"a": [[]]}]})


def test_a_seeded_value_shares_nothing_with_the_manifest_at_any_depth() -> None:
    seed = {"list": [[1], {"a": [2]}]}
    result = apply_seeds({}, seed)
    result.settings["list"][0].append(9)
    result.settings["list"][1]["a"].append(9)
    assert seed == {"list": [[1], {"a": [2]}]}


def test_a_key_of_sixty_characters_is_shown_whole() -> None:
    key = "a" * 60
    with pytest.raises(UsageError) as err:
        apply_seeds({}, {key: _deep_list(jsondoc.MAX_DEPTH)})
    assert err.value.message.startswith(f"[settings.seed] {key} nests ")


def test_a_key_of_sixty_one_characters_is_cut() -> None:
    key = "a" * 61
    with pytest.raises(UsageError) as err:
        apply_seeds({}, {key: _deep_list(jsondoc.MAX_DEPTH)})
    assert err.value.message.startswith(f"[settings.seed] {key[:60]}… nests ")
