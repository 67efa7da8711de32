"""What counts as a resource of a set: the same things pi would load, with plain names."""

from __future__ import annotations

from pathlib import Path

import pytest

from installer.ground.errors import ExitCode, ExtError, UsageError
from installer.sets.resources import discover
from tests.helpers import build_tree


def found(root: Path) -> list[tuple[str, str, str, str]]:
    return [(r.kind, r.name, r.filename, r.layout) for r in discover(root)]


def test_every_kind_and_layout_is_found_in_a_stable_order(tmp_path: Path) -> None:
    root = build_tree(
        tmp_path / "set",
        {
            "extensions/notify.ts": "",
            "extensions/timer.js": "",
            "extensions/gamma/index.ts": "",
            "extensions/delta/index.js": "",
            "extensions/pkg/package.json": '{"name": "pkg", "pi": {"extensions": ["./x.ts"]}}',
            "extensions/pkg/x.ts": "",
            "skills/review/SKILL.md": "",
            "prompts/fix.md": "",
            "themes/dark.json": "{}",
        },
    )
    assert found(root) == [
        ("extension", "delta", "delta", "dir"),
        ("extension", "gamma", "gamma", "dir"),
        ("extension", "notify", "notify.ts", "file"),
        ("extension", "pkg", "pkg", "dir"),
        ("extension", "timer", "timer.js", "file"),
        ("prompt", "fix", "fix.md", "file"),
        ("skill", "review", "review", "dir"),
        ("theme", "dark", "dark.json", "file"),
    ]
    assert all(Path(r.source).is_relative_to(root) for r in discover(root))


def test_what_pi_would_not_load_is_not_a_resource(tmp_path: Path) -> None:
    root = build_tree(
        tmp_path / "set",
        {
            "extensions/README.md": "",
            "extensions/.hidden.ts": "",
            "extensions/.off/parked.ts": "",
            "extensions/lib/util.ts": "",  # a folder without index.ts
            "extensions/tool/package.json": '{"name": "tool"}',  # no "pi" key
            "extensions/broken/package.json": "{not json",
            "extensions/notify.ts.off": "",
            "extensions/declared/package.json": '{"pi": {"extensions": ["./gone.ts"]}}',
            "extensions/declared/main.ts": "",  # declares a missing entry, has no index.ts
            "extensions/skills-only/package.json": '{"pi": {"skills": ["./s"]}}',
            "skills/notes/readme.md": "",  # a folder without SKILL.md
            "prompts/node_modules/dep.md": "",
            "prompts/.drafts/fix.md": "",
            "themes/dark.txt": "",
        },
    )
    assert found(root) == []


def test_a_set_without_resource_folders_has_no_resources(tmp_path: Path) -> None:
    assert found(build_tree(tmp_path / "set", {"extset.toml": ""})) == []


def test_a_link_inside_the_set_is_a_resource_resolved_to_its_target(tmp_path: Path) -> None:
    root = build_tree(tmp_path / "set", {"shared/notify.ts": "// n\n"})
    build_tree(root, {"extensions/notify.ts": root / "shared/notify.ts"})
    (r,) = discover(root)
    assert r.source == str(root / "extensions/notify.ts")
    assert r.real == str(root / "shared/notify.ts")


def test_a_set_reached_through_a_symlink_links_to_its_real_place(tmp_path: Path) -> None:
    real = build_tree(tmp_path / "real-set", {"extensions/notify.ts": ""})
    alias = build_tree(tmp_path, {"alias": real}) / "alias"
    (r,) = discover(alias)
    assert r.source == str(real / "extensions/notify.ts")


@pytest.mark.parametrize(
    "spec",
    [
        {"extensions/key.ts": "FILE"},
        {"extensions/secret": "DIR"},
        {"skills/review": "DIR"},
    ],
    ids=["file", "folder", "skill"],
)
def test_a_resource_that_leads_out_of_the_set_is_refused(
    tmp_path: Path, spec: dict[str, str]
) -> None:
    outside = build_tree(
        tmp_path / "outside",
        {"key.ts": "secret\n", "secret/index.ts": "secret\n", "secret/SKILL.md": "x\n"},
    )
    root = build_tree(tmp_path / "set", {"extset.toml": ""})
    ((rel, what),) = spec.items()
    build_tree(root, {rel: outside / ("key.ts" if what == "FILE" else "secret")})
    with pytest.raises(ExtError) as err:
        discover(root)
    assert err.value.exit_code == ExitCode.FAILED
    assert "leads out of the set" in err.value.message
    assert err.value.fix


@pytest.mark.parametrize(
    "spec",
    [
        {"extensions/notify.ts": "", "extensions/notify.js": ""},
        {"extensions/notify.ts": "", "extensions/notify/index.ts": ""},
        {"prompts/fix.md": "", "prompts/fix.md.md": "", "prompts/fix": ""},
    ],
    ids=["ts-js", "file-folder", "no-clash-across-suffixes"],
)
def test_two_resources_of_one_kind_and_name_are_a_usage_error(
    tmp_path: Path, spec: dict[str, str | bytes | Path | None]
) -> None:
    root = build_tree(tmp_path / "set", spec)
    if "prompts/fix.md.md" in spec:
        assert [r.name for r in discover(root)] == ["fix", "fix.md"]
        return
    with pytest.raises(UsageError) as err:
        discover(root)
    assert "two extensions are named 'notify'" in err.value.message
    assert err.value.fix == "rename or remove one of them in the set"


def test_the_same_name_in_two_kinds_is_fine(tmp_path: Path) -> None:
    root = build_tree(tmp_path / "set", {"extensions/review.ts": "", "skills/review/SKILL.md": ""})
    assert [r.label for r in discover(root)] == ["review", "skill:review"]


@pytest.mark.parametrize("name", ["-rf.ts", "a..b.ts", "tab\there.ts"])
def test_a_resource_with_a_name_that_is_not_plain_is_a_usage_error(
    tmp_path: Path, name: str
) -> None:
    root = build_tree(tmp_path / "set", {f"extensions/{name}": ""})
    with pytest.raises(UsageError):
        discover(root)


def test_the_labels_here_are_the_sets_ext_would_use_and_none_without_one(tmp_path: Path) -> None:
    """What shell completion offers: the items of the set found as every command finds it."""
    from installer.ground.context import Env
    from installer.sets.resources import labels_here

    root = build_tree(
        tmp_path / "set",
        {
            "extset.toml": '[set]\nname = "s"\n',
            "extensions/notify.ts": "",
            "extensions/git/index.ts": "",
            "skills/review/SKILL.md": "---\nname: review\ndescription: r\n---\n",
        },
    )
    assert labels_here(Env(environ={}, cwd=root / "extensions"), None) == [
        "git",
        "notify",
        "skill:review",
    ]
    assert labels_here(Env(environ={}, cwd=tmp_path), root) == ["git", "notify", "skill:review"]
    assert labels_here(Env(environ={}, cwd=tmp_path), tmp_path / "nowhere") == []
