"""pi's own switches: matching as pi 0.73.1 does, pi config's edit, and merges that keep pi's
patterns byte for byte and in order. Pure; the shapes are pinned against the real `pi config`
in tests/e2e/test_pi_switches.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from installer.settings.packages import SetPackage
from installer.settings.switches import (
    loads_in_package,
    loads_local,
    local_switch,
    merge_filters,
    merged,
    package_switch,
    switch_entry,
    switch_local,
    switched,
)

ROOT = Path("/set")
OURS = SetPackage(ROOT, Path("/agent"), realpath=lambda p: p)
A = "extensions/a.ts"


@pytest.mark.parametrize(
    ("patterns", "want"),
    [
        ([], None),
        (["-extensions/a.ts"], (False, "-extensions/a.ts")),
        (["./-x"], None),
        (["-./extensions/a.ts"], (False, "-./extensions/a.ts")),
        (["+extensions/a.ts"], (True, "+extensions/a.ts")),
        (["!extensions/*"], (False, "!extensions/*")),
        (["!a.ts"], (False, "!a.ts")),  # pi also tries the bare file name
        (["!extensions/*", "+extensions/a.ts"], (True, "+extensions/a.ts")),
        (["+extensions/a.ts", "-extensions/a.ts"], (False, "-extensions/a.ts")),
        (["-/agent/extensions/a.ts"], (False, "-/agent/extensions/a.ts")),  # absolute
        (["-extensions/a"], None),  # exact paths only
    ],
)
def test_a_local_resource_is_switched_as_pi_does(patterns: list[str], want: object) -> None:
    assert local_switch(patterns, A, f"/agent/{A}") == want


def test_a_skill_matches_by_its_folder_too() -> None:
    skill = "skills/rev/SKILL.md"
    assert local_switch(["-skills/rev"], skill, f"/agent/{skill}") == (False, "-skills/rev")
    assert local_switch([f"-{skill}"], skill, f"/agent/{skill}") == (False, f"-{skill}")


@pytest.mark.parametrize(
    ("patterns", "on"),
    [
        ([], False),  # an empty list loads none
        (["-extensions/a.ts"], False),
        (["extensions/b.ts"], False),  # includes that miss it
        (["extensions/*.ts"], True),
        (["extensions/*.ts", "!extensions/a.ts"], False),
        (["!extensions/**", "+extensions/a.ts"], True),
        (["+extensions/a.ts", "-extensions/a.ts"], False),
        (["-extensions/b.ts"], True),
    ],
)
def test_a_package_filter_is_applied_as_pi_does(patterns: list[str], on: bool) -> None:
    got = package_switch(patterns, A, f"/set/{A}")
    assert (got[0] if got else True) is on


def test_switching_on_drops_every_minus_pattern_pi_reads_as_the_item() -> None:
    skill = "skills/rev/SKILL.md"
    assert switched(
        ["-skills/rev", "-./skills/rev/SKILL.md", "-skills/other"], skill, True, False
    ) == ["-skills/other"]
    assert switched(["!skills/*", "-skills/rev"], skill, True, False) == ["!skills/*", f"+{skill}"]


def test_switched_is_pi_configs_edit() -> None:
    # config-selector.js: drop every pattern naming the item, then append -path / +path.
    before = ["!extensions/x*", "+extensions/a.ts", "extensions/b.ts", "-extensions/a.ts"]
    assert switched(before, A, False, False) == [
        "!extensions/x*",
        "extensions/b.ts",
        "-extensions/a.ts",
    ]
    # On: the item's patterns go; `+path` only where the rest would still keep it off.
    assert switched(["-extensions/b.ts", "-extensions/a.ts"], A, True, True) == ["-extensions/b.ts"]
    assert switched(["!extensions/*", "-extensions/a.ts"], A, True, False) == [
        "!extensions/*",
        "+extensions/a.ts",
    ]


def test_merged_keeps_pi_patterns_byte_for_byte_and_in_their_place() -> None:
    pi = ["+extensions/z.ts", "-extensions/b.ts", "!extensions/old*", "-./extensions/c.ts"]
    assert merged(pi, ["-extensions/a.ts", "-extensions/b.ts"], []) == [*pi, "-extensions/a.ts"]
    # ext drops only its own earlier filter, and only when it no longer wants it
    assert merged(["-extensions/a.ts", *pi], [], ["-extensions/a.ts"]) == pi
    assert merged(pi, [], ["-extensions/z.ts"]) == pi  # `+z` is pi's, not ext's `-z`


def test_install_never_undoes_a_switch_made_in_pi_config() -> None:
    entry = {"source": "/set", "extensions": ["-extensions/b.ts", "+extensions/a.ts"]}
    settings = {"packages": ["npm:other", entry], "theme": "dark"}
    out = merge_filters(settings, OURS, ["-extensions/g/index.ts"])
    assert out["packages"][0] == "npm:other"
    assert out["packages"][1] == {
        "source": "/set",
        "extensions": ["-extensions/b.ts", "+extensions/a.ts", "-extensions/g/index.ts"],
    }
    assert merge_filters(settings, OURS, []) == settings  # nothing wanted: nothing changes


def test_filters_of_every_kind_go_to_their_own_array() -> None:
    out = merge_filters({"packages": ["/set"]}, OURS, ["-skills/rev/SKILL.md", "-prompts/p.md"])
    assert out["packages"] == [
        {"source": "/set", "skills": ["-skills/rev/SKILL.md"], "prompts": ["-prompts/p.md"]}
    ]


def test_switch_entry_and_switch_local_fold_back_as_pi_config_does() -> None:
    off = switch_entry({"packages": ["/set"]}, OURS, "extensions", A, False)
    assert off["packages"] == [{"source": "/set", "extensions": ["-extensions/a.ts"]}]
    on = switch_entry(off, OURS, "extensions", A, True)
    assert on["packages"] == ["/set"]
    top = switch_local(
        {"extensions": ["-extensions/b.ts", "-extensions/a.ts"]}, "extensions", A, True
    )
    assert top == {"extensions": ["-extensions/b.ts"]}
    assert switch_local({"extensions": ["-extensions/a.ts"]}, "extensions", A, True) == {}


@pytest.mark.parametrize(
    ("patterns", "local", "package"),
    [
        (None, True, True),  # no array: everything of the kind loads
        ([], True, False),  # `[]` in an entry loads none; at the top it overrides nothing
        ([f"-{A}"], False, False),
        ([f"-{A}", f"+{A}"], False, False),  # `-` wins over `+`, as pi reads it
        (["!extensions/*", f"+{A}"], True, True),
        (["!extensions/*"], False, False),
        (["extensions/b.ts"], True, False),  # a plain include only narrows a package
    ],
)
def test_whether_pi_loads_a_file_under_its_patterns(
    patterns: object, local: bool, package: bool
) -> None:
    assert loads_local(patterns, A, f"/agent/{A}") is local
    assert loads_in_package(patterns, A, f"/set/{A}") is package


def test_unswitch_local_drops_the_patterns_named_and_only_those() -> None:
    from installer.settings.switches import unswitch_local

    settings = {
        "theme": "dark",
        "extensions": ["-extensions/a.ts", "!extensions/*.js", "-extensions/ab.ts"],
        "skills": ["-skills/rev/SKILL.md"],
        "prompts": ["+prompts/p.md"],
    }
    gone = [("extensions", "-extensions/a.ts"), ("skills", "-skills/rev/SKILL.md")]

    out = unswitch_local(settings, gone)

    assert out == {
        "theme": "dark",
        "extensions": ["!extensions/*.js", "-extensions/ab.ts"],
        "prompts": ["+prompts/p.md"],
    }  # "skills" held only a pattern that goes: the key goes with it
    assert unswitch_local(settings, []) == settings


def test_a_pattern_names_a_place_or_a_file_below_it_never_by_a_glob() -> None:
    from installer.settings.switches import names_a_place

    places = ["extensions/a.ts", "skills/rev"]
    assert names_a_place("-extensions/a.ts", places)
    assert names_a_place("+skills/rev/SKILL.md", places)
    assert not names_a_place("-extensions/ab.ts", places)
    assert not names_a_place("!extensions/*.ts", places)
    assert not names_a_place("extensions/a.ts", places)  # no switch: a path pi loads
