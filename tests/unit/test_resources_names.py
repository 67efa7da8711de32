"""What a user reads when a name is refused, and how a name picks items of the set."""

from __future__ import annotations

import pytest

from installer.ground.errors import UsageError
from installer.sets.resources import Resource, check_name, resolve_name, select

NOTIFY = Resource("extension", "notify", "notify.ts", "file", "/s/extensions/notify.ts")
REVIEW = Resource("skill", "review", "review", "dir", "/s/skills/review")
NOTES = Resource("prompt", "review", "review.md", "file", "/s/prompts/review.md")
ALL = (NOTIFY, REVIEW, NOTES)


def refusal(name: str, what: str = "name") -> str:
    with pytest.raises(UsageError) as err:
        check_name(name, what)
    assert err.value.fix == "use a plain name like 'notify'"
    return err.value.message


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("", "is empty or a dot name"),
        (".", "is empty or a dot name"),
        ("..", "is empty or a dot name"),
        ("a/b", "contains '/', '\\', '..' or NUL"),
        ("a\\b", "contains '/', '\\', '..' or NUL"),
        ("a..b", "contains '/', '\\', '..' or NUL"),
        ("nul\0", "contains '/', '\\', '..' or NUL"),
        ("-rf", "starts with '-'"),
        ("tab\there", "contains a control character"),
        ("bell\x07", "contains a control character"),
        ("us\x1f", "contains a control character"),
        ("del\x7f", "contains a control character"),
    ],
)
def test_a_refused_name_says_what_is_wrong_with_it(name: str, problem: str) -> None:
    assert refusal(name) == f"name {name!r} {problem}"


def test_a_refusal_names_what_the_name_was_for() -> None:
    assert (
        refusal("a/b", "extension name") == "extension name 'a/b' contains '/', '\\', '..' or NUL"
    )


def test_a_c1_control_character_is_named_by_its_code_point() -> None:
    assert refusal("a\x85b") == (
        "name 'a\\x85b' contains the control character U+0085, which can rewrite what a "
        "terminal shows"
    )


@pytest.mark.parametrize(
    "code", [0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069]
)
def test_every_bidi_control_is_refused_as_one(code: int) -> None:
    name = f"evil{chr(code)}txt"
    assert refusal(name) == (
        f"name {name!r} contains the bidi control U+{code:04X}, which reorders how the name "
        "is shown"
    )


@pytest.mark.parametrize("code", [0x200B, 0x200D, 0xFEFF, 0x00AD])
def test_an_invisible_character_is_refused_as_hiding_a_difference(code: int) -> None:
    name = f"note{chr(code)}"
    assert refusal(name) == (
        f"name {name!r} contains the invisible character U+{code:04X}, which hides a "
        "difference between names"
    )


@pytest.mark.parametrize("name", ["a-b", "a.b.c", "x-", "notify.ts", "in between", "ünï"])
def test_a_plain_name_comes_back_as_it_is(name: str) -> None:
    assert check_name(name, "extension name") == name


def test_an_unknown_name_says_the_set_has_no_such_item() -> None:
    with pytest.raises(UsageError) as err:
        resolve_name(ALL, "notfy")
    assert err.value.message == "the set has no item named 'notfy'"
    assert err.value.fix == "did you mean 'notify'?"


HELPER = Resource("skill", "helper", "helper", "dir", "/s/skills/helper")
JAPAN = Resource("prompt", "日本", "日本.md", "file", "/s/prompts/日本.md")


@pytest.mark.parametrize(
    ("name", "meant"),
    [
        ("skill:nosuch", None),  # was skill:helper: the shared `skill:` made them alike
        ("prompt:zzz", None),  # was prompt:日本
        ("nosuch", None),
        ("skill:helpr", "skill:helper"),
        ("helpr", "skill:helper"),
        ("prompt:reviw", "prompt:review"),
        ("skill:notfy", None),  # notify is an extension: the kind given is kept
        ("skills:review", "skill:review"),  # helper-76: a mistyped kind, the name right
        ("Prompt:reviw", "prompt:review"),
    ],
)
def test_a_near_name_is_offered_only_when_the_name_itself_is_near(
    name: str, meant: str | None
) -> None:
    """helper-75: `ext disable skill:nosuch --yes` offered `ext disable skill:helper --yes`,
    a command that switches off an item never named, without asking."""
    with pytest.raises(UsageError) as err:
        resolve_name((*ALL, HELPER, JAPAN), name)
    listed = "run `ext list` to see the names"
    assert err.value.fix == (f"did you mean {meant!r}?" if meant else listed)


def test_a_name_shared_by_two_kinds_means_both_unless_the_kind_is_given() -> None:
    assert resolve_name(ALL, "review") == [REVIEW, NOTES]
    assert resolve_name(ALL, "prompt:review") == [NOTES]
    assert resolve_name(ALL, "review.md") == [NOTES]


def test_a_kind_prefix_is_checked_on_the_bare_name_only() -> None:
    with pytest.raises(UsageError) as err:
        resolve_name(ALL, "skill:../review")
    assert err.value.message == "name '../review' contains '/', '\\', '..' or NUL"


def test_only_and_skip_take_every_item_a_name_means() -> None:
    assert select(ALL, ["review"], []) == (REVIEW, NOTES)
    assert select(ALL, [], ["review"]) == (NOTIFY,)
    assert select(ALL, [], ["skill:review"]) == (NOTIFY, NOTES)


def test_an_unknown_name_in_skip_refuses_even_when_only_is_given() -> None:
    with pytest.raises(UsageError):
        select(ALL, ["notify"], ["nothing-like-it"])


def test_a_space_is_no_control_character() -> None:
    # A name with a space goes on to the next check: here the C1 control it also carries.
    assert refusal("a b\x85") == (
        "name 'a b\\x85' contains the control character U+0085, which can rewrite what a "
        "terminal shows"
    )


def test_a_short_name_half_like_an_item_still_gets_a_suggestion() -> None:
    with pytest.raises(UsageError) as err:
        resolve_name(ALL, "ny")
    assert err.value.fix == "did you mean 'notify'?"


def test_a_name_of_another_kind_does_not_hide_the_names_after_it() -> None:
    assert select(ALL, ["prompt:review", "notify"], []) == (NOTIFY, NOTES)
    assert select(ALL, [], ["prompt:review", "notify"]) == (REVIEW,)


def test_a_name_with_a_colon_is_named_whole_and_after_its_kind() -> None:
    """helper-80: a label was split at its last colon, so a prompt `a:b.md` (pi loads it) could
    not be named at all: `a:b` read as kind `a`, `prompt:a:b` as kind `prompt:a`."""
    colon = Resource("prompt", "a:b", "a:b.md", "file", "/s/prompts/a:b.md")
    assert resolve_name((*ALL, colon), "a:b") == [colon]
    assert resolve_name((*ALL, colon), "prompt:a:b") == [colon]


def test_a_byte_that_is_not_text_is_said_as_a_byte_as_the_screen_shows_it() -> None:
    """helper-92: a file `a\\xffb.ts` was refused as holding "the invisible character U+DCFF"
    (Python's stand-in for the byte) and named `'a\\udcffb'` beside its path's `a\\xffb`."""
    with pytest.raises(UsageError) as refused:
        check_name("a\udcffb", "extension name")
    assert refused.value.message == (
        "extension name 'a\\xffb' holds the byte 0xFF, which is not UTF-8 text"
    )
