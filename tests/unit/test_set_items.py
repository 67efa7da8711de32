"""The set model's pure parts over literal items (no disk): filters, places, refusals."""

from __future__ import annotations

import pytest

from installer.ground.errors import ExitCode, UsageError
from installer.sets.modes import refuse_unlinkable
from installer.sets.resources import Resource
from installer.settings.packages import tag, untag

SET = "/s"


def item(
    kind: str, filename: str, layout: str, declared: tuple[str, ...] = (), why: str = ""
) -> Resource:
    name = filename.rpartition(".")[0] if layout == "file" else filename
    return Resource(kind, name, filename, layout, f"{SET}/x/{filename}", "", (), declared, why)


@pytest.mark.parametrize(
    ("r", "dest", "filters"),
    [
        (item("extension", "a.ts", "file", ("src/a.ts",)), "extensions/a.ts", ("-src/a.ts",)),
        (
            item("extension", "tab", "dir", ("tools/tab/tab.ts", "tools/tab/more.ts")),
            "extensions/tab",
            ("-tools/tab/tab.ts", "-tools/tab/more.ts"),
        ),
        (
            item("skill", "one", "dir", ("sk/col/one/SKILL.md",)),
            "skills/one",
            ("skills:-sk/col/one/SKILL.md",),
        ),
        (
            item("skill", "solo.md", "file", ("sk/solo.md",)),
            "skills/solo.md",
            ("skills:-sk/solo.md",),
        ),
        (
            item("prompt", "fix.md", "file", ("cmds/sub/fix.md",)),
            "prompts/fix.md",
            ("prompts:-cmds/sub/fix.md",),
        ),
        (
            item("theme", "dusk.json", "file", ("look/dusk.json",)),
            "themes/dusk.json",
            ("themes:-look/dusk.json",),
        ),
        # an item built by hand, without what pi loads: the conventional place, and a filter
        # whose first folder names its kind needs no key
        (item("prompt", "fix.md", "file"), "prompts/fix.md", ("-prompts/fix.md",)),
    ],
)
def test_an_item_lands_by_its_name_and_is_filtered_by_what_pi_loads(
    r: Resource, dest: str, filters: tuple[str, ...]
) -> None:
    assert r.dest == dest
    assert r.filters == filters


def test_a_filter_carries_its_kind_only_where_its_path_does_not_say_it() -> None:
    assert tag("skills", "-skills/one/SKILL.md") == "-skills/one/SKILL.md"
    assert tag("skills", "-sk/one/SKILL.md") == "skills:-sk/one/SKILL.md"
    assert tag("extensions", "-skills/tool.ts") == "extensions:-skills/tool.ts"
    for f in ("-src/a.ts", "skills:-sk/one/SKILL.md", "extensions:-skills/tool.ts"):
        assert tag(*untag(f)) == f


def test_link_mode_refuses_naming_each_item_its_reason_and_the_fix() -> None:
    ok = item("extension", "a.ts", "file", ("src/a.ts",))
    out = item("extension", "b.ts", "file", ("../b.ts",), "it lies outside the set (/b.ts)")
    idx = item("prompt", "index.md", "file", ("p/index.md",), "some reason")
    refuse_unlinkable((ok,))  # nothing to refuse
    with pytest.raises(UsageError) as err:
        refuse_unlinkable((ok, out, idx))
    assert err.value.exit_code == ExitCode.USAGE
    assert "b: it lies outside the set (/b.ts)" in err.value.message
    assert "prompt:index: some reason" in err.value.message
    assert "a:" not in err.value.message
    assert err.value.fix and "--mode register" in err.value.fix
    assert "--skip b,prompt:index" in err.value.fix
