"""Register mode: our package entry found as pi resolves paths, added once, removed alone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from installer.ground.errors import ExtError
from installer.settings.packages import (
    SetPackage,
    exclusion,
    exclusions_of,
    find_entries,
    register,
    set_exclusions,
    unregister,
    with_blocks,
    with_exclusions,
)

HOME = "/home/u"
AGENT = Path("/home/u/.pi/agent")
ROOT = Path("/home/u/.pi/agent/set")
OURS = SetPackage(ROOT, AGENT, home=HOME, realpath=lambda p: p)


def _with(*packages: Any) -> dict[str, Any]:
    return {"theme": "dark", "packages": list(packages)}


@pytest.mark.parametrize(
    ("root", "source"),
    [
        ("/home/u/.pi/agent/set", "/home/u/.pi/agent/set"),
        ("/home/u/.pi/agent/set", "./set"),
        ("/home/u/.pi/agent/set", "set"),
        ("/home/u/.pi/agent/set", "  ./set/  "),
        ("/home/u/.pi/x", "../x"),
        ("/home/u/x", "~/x"),
        ("/home/u/x", "~x"),
        ("/home/u", "~"),
        ("/srv/set", "/srv/other/../set"),
    ],
)
def test_local_sources_resolve_as_pi_does(root: str, source: str) -> None:
    ours = SetPackage(Path(root), AGENT, home=HOME, realpath=lambda p: p)
    for entry in (source, {"source": source, "extensions": ["-extensions/a.ts"]}):
        assert find_entries(_with("npm:other", entry), ours) == [1]


@pytest.mark.parametrize(
    "source",
    ["npm:set", "git:github.com/u/set", "https://example.invalid/set", "ssh://h/set", "../set"],
)
def test_other_sources_are_not_ours(source: str) -> None:
    assert find_entries(_with(source, {"source": source}), OURS) == []


def test_entries_match_on_the_real_folder() -> None:
    links = {"/home/u/link": "/home/u/.pi/agent/set"}
    ours = SetPackage(ROOT, AGENT, home=HOME, realpath=lambda p: links.get(p, p))
    assert find_entries(_with("~/link"), ours) == [0]


def test_register_adds_the_absolute_root_and_keeps_everything_else() -> None:
    change = register(_with("npm:other"), OURS)
    assert change.settings == {"theme": "dark", "packages": ["npm:other", str(ROOT)]}
    assert change.changed
    assert change.after == (str(ROOT),)


def test_register_makes_packages_when_missing() -> None:
    assert register({}, OURS).settings == {"packages": [str(ROOT)]}


@pytest.mark.parametrize(
    "entry", ["./set", str(ROOT), {"source": "set", "extensions": ["-extensions/a.ts"], "x": 1}]
)
def test_register_is_idempotent_across_forms(entry: Any) -> None:
    settings = _with("npm:other", entry)
    change = register(settings, OURS)
    assert change.settings == settings
    assert not change.changed
    assert not register(register({}, OURS).settings, OURS).changed


def test_register_refuses_packages_that_is_not_a_list() -> None:
    with pytest.raises(ExtError, match="not a list"):
        register({"packages": "npm:x"}, OURS)


def test_unregister_removes_only_ours() -> None:
    settings = _with("npm:other", "./set", {"source": "../elsewhere"}, 7, {"source": str(ROOT)})
    change = unregister(settings, OURS)
    assert change.settings == _with("npm:other", {"source": "../elsewhere"}, 7)
    assert change.before == ("./set", {"source": str(ROOT)})
    assert change.changed


def test_unregister_without_our_entry_changes_nothing() -> None:
    settings = _with("npm:other")
    change = unregister(settings, OURS)
    assert change.settings == settings
    assert not change.changed


def test_exclusion_patterns_for_files_and_folders() -> None:
    assert exclusion("foo.ts", "file") == "-extensions/foo.ts"
    assert exclusion("bar", "dir") == "-extensions/bar/index.ts"
    assert exclusion("bar/", "dir") == "-extensions/bar/index.ts"


def test_exclusions_turn_the_string_into_an_object() -> None:
    wanted = [exclusion("foo.ts", "file"), exclusion("bar", "dir")]
    change = set_exclusions(_with("npm:other", "./set"), OURS, wanted)
    assert change.settings["packages"] == [
        "npm:other",
        {"source": "./set", "extensions": ["-extensions/foo.ts", "-extensions/bar/index.ts"]},
    ]
    assert change.before == ("./set",)


def test_exclusions_register_the_set_when_absent() -> None:
    change = set_exclusions({}, OURS, ["-extensions/foo.ts"])
    assert change.settings == {
        "packages": [{"source": str(ROOT), "extensions": ["-extensions/foo.ts"]}]
    }
    assert change.before == ()


def test_last_exclusion_gone_folds_back_to_the_string() -> None:
    entry = {"source": "./set", "extensions": ["-extensions/foo.ts"]}
    change = set_exclusions(_with(entry), OURS, [])
    assert change.settings["packages"] == ["./set"]


def test_fold_back_keeps_other_keys_and_never_leaves_an_empty_list() -> None:
    entry = {"source": "./set", "extensions": ["-extensions/foo.ts"], "skills": []}
    assert with_exclusions(entry, []) == {"source": "./set", "skills": []}


def test_user_patterns_are_kept_beside_ours() -> None:
    entry = {"source": "./set", "extensions": ["extensions/*.ts", "-extensions/old.ts"]}
    assert with_exclusions(entry, ["-extensions/new.ts"]) == {
        "source": "./set",
        "extensions": ["extensions/*.ts", "-extensions/new.ts"],
    }
    assert with_exclusions(entry, []) == {"source": "./set", "extensions": ["extensions/*.ts"]}


def test_same_exclusions_in_another_order_change_nothing() -> None:
    entry = {"source": "./set", "extensions": ["-extensions/a.ts", "-extensions/b/index.ts"]}
    settings = _with(entry)
    change = set_exclusions(settings, OURS, ["-extensions/b/index.ts", "-extensions/a.ts"])
    assert not change.changed
    assert change.settings == settings


def test_filter_that_is_not_a_list_is_refused() -> None:
    with pytest.raises(ExtError, match="not a list"):
        with_exclusions({"source": "./set", "extensions": "x"}, ["-extensions/a.ts"])


def test_every_kind_gets_its_own_exact_filters() -> None:
    wanted = ["-src/a.ts", "-skills/x/SKILL.md", "prompts:-cmds/p.md", "themes:-t.json"]
    entry = with_exclusions("./set", wanted)
    assert entry == {
        "source": "./set",
        "extensions": ["-src/a.ts"],
        "skills": ["-skills/x/SKILL.md"],
        "prompts": ["-cmds/p.md"],
        "themes": ["-t.json"],
    }
    assert sorted(exclusions_of(entry)) == sorted(wanted)
    assert with_exclusions(entry, []) == "./set"


def test_other_patterns_of_a_kind_are_kept_and_ours_replaced() -> None:
    entry = {"source": "./set", "skills": ["!drafts/**", "-skills/old/SKILL.md"]}
    assert with_exclusions(entry, ["skills:-skills/new/SKILL.md"]) == {
        "source": "./set",
        "skills": ["!drafts/**", "-skills/new/SKILL.md"],
    }
    assert with_exclusions(entry, []) == {"source": "./set", "skills": ["!drafts/**"]}


def test_kinds_a_manifest_leaves_out_are_blocked_only_in_the_object_form() -> None:
    def entry_after(entry: Any) -> Any:
        return with_blocks(_with(entry), OURS, ("skills",))["packages"][0]

    filtered = {"source": "./set", "extensions": ["-src/a.ts"]}
    assert entry_after(filtered) == {**filtered, "skills": []}
    assert entry_after({**filtered, "skills": []}) == {**filtered, "skills": []}
    assert entry_after({"source": "./set", "skills": []}) == "./set"  # nothing else: folds
    assert entry_after("./set") == "./set"
    assert with_blocks(_with("npm:other"), OURS, ("skills",)) == _with("npm:other")
