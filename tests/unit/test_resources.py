"""Resource names and destinations: plain names only, and where each kind goes."""

from __future__ import annotations

import pytest

from installer.ground.errors import ExitCode, UsageError
from installer.sets.resources import Resource, check_name, resolve_name

NOTIFY = Resource("extension", "notify", "notify.ts", "file", "/s/extensions/notify.ts")
GAMMA = Resource("extension", "gamma", "gamma", "dir", "/s/extensions/gamma")
REVIEW = Resource("skill", "review", "review", "dir", "/s/skills/review")
FIX = Resource("prompt", "fix", "fix.md", "file", "/s/prompts/fix.md")
DARK = Resource("theme", "dark", "dark.json", "file", "/s/themes/dark.json")
ALL = (NOTIFY, GAMMA, REVIEW, FIX, DARK)


@pytest.mark.parametrize(
    ("r", "dest", "disabled"),
    [
        (NOTIFY, "extensions/notify.ts", "extensions/notify.ts.off"),
        (GAMMA, "extensions/gamma", "extensions/.off/gamma"),
        (REVIEW, "skills/review", "skills/.off/review"),
        (FIX, "prompts/fix.md", "prompts/fix.md.off"),
        (DARK, "themes/dark.json", "themes/dark.json.off"),
    ],
)
def test_destinations_files_beside_folders_parked_in_dot_off(
    r: Resource, dest: str, disabled: str
) -> None:
    assert (r.dest, r.disabled_dest) == (dest, disabled)


def test_labels_name_extensions_bare_and_other_kinds_with_their_kind() -> None:
    assert [r.label for r in ALL] == ["notify", "gamma", "skill:review", "prompt:fix", "theme:dark"]


@pytest.mark.parametrize(
    "name", ["notify", "git-checkpoint", "a.b", "x_1", "ünïcode", "my ext", "L" * 200, "日" * 66]
)
def test_plain_names_pass(name: str) -> None:
    assert check_name(name) == name


@pytest.mark.parametrize(
    "name",
    [
        *("", ".", "..", "a/b", "../x", "a\\b", "a..b", "nul\0", "-rf", "tab\there", "del\x7f"),
        # helper-38: `--only a,b` named a and b, `--only ' x'` named x; neither could be named
        *("a,b", " x", "y ", "\u00a0nbsp"),
        # helper-38: linked, but no `.off` nor backup name fits in 255 bytes
        "L" * 201,
        "日" * 67,
    ],
)
def test_names_that_could_address_anything_else_are_refused(name: str) -> None:
    with pytest.raises(UsageError) as err:
        check_name(name)
    assert err.value.exit_code == ExitCode.USAGE
    assert err.value.fix == "use a plain name like 'notify'"


def test_resolve_name_by_name_file_name_or_kind_prefix() -> None:
    assert resolve_name(ALL, "notify") == [NOTIFY]
    assert resolve_name(ALL, "notify.ts") == [NOTIFY]
    assert resolve_name(ALL, "skill:review") == [REVIEW]
    assert resolve_name(ALL, "fix.md") == [FIX]


def test_an_unknown_name_with_nothing_close_points_at_ext_list() -> None:
    with pytest.raises(UsageError) as err:
        resolve_name(ALL, "zzzzzz")
    assert err.value.fix == "run `ext list` to see the names"


def test_the_closest_match_keeps_the_kind_prefix() -> None:
    with pytest.raises(UsageError) as err:
        resolve_name(ALL, "skill:reveiw")
    assert err.value.fix == "did you mean 'skill:review'?"
