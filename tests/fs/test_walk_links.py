"""A set's folders linked so that pi's walk would never end, or take seconds: refused at once.

helper-57: folders each linking the next three times over (3^40 paths) held `ext list`,
`install` and `doctor` past a minute at 775 MB; a link to `/` or `/proc` walked the disk until
the depth guard stopped it seconds later."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from installer.ground.errors import UsageError
from installer.sets.pirules import folder_items
from tests.helpers import build_tree


def test_folders_linked_to_the_next_three_times_over_are_refused_at_once(tmp_path: Path) -> None:
    base = tmp_path / "set/skills/dag"
    for i in range(41):
        (base / f"d{i}").mkdir(parents=True)
        for k in "abc":
            os.symlink(f"../d{i + 1}", base / f"d{i}" / k)
    (base / "d41").mkdir()
    started = time.monotonic()

    with pytest.raises(UsageError) as caught:
        folder_items(str(tmp_path / "set/skills"), "skills")

    assert time.monotonic() - started < 5
    assert "more than 10,000 folders are reached through links" in caught.value.message
    assert caught.value.fix is not None and "leave it out with a line `dag/d0/" in caught.value.fix


@pytest.mark.parametrize("target", ["/", "/proc", "..", "../.."])
def test_a_link_to_a_folder_above_the_set_or_the_kernels_is_refused_at_once(
    tmp_path: Path, target: str
) -> None:
    build_tree(tmp_path / "set", {"prompts/p.md": "p"})
    os.symlink(target, tmp_path / "set/prompts/up")

    with pytest.raises(UsageError) as caught:
        folder_items(str(tmp_path / "set/prompts"), "prompts")

    said = "into the kernel's" if target == "/proc" else "is a link back to"
    assert said in caught.value.message
    assert caught.value.fix == (
        f"remove the link {tmp_path}/set/prompts/up, or leave it out with a line `up` in "
        f"{tmp_path}/set/prompts/.ignore"
    )


def test_one_folder_linked_under_two_names_is_walked_as_pi_walks_it(tmp_path: Path) -> None:
    build_tree(tmp_path / "elsewhere/review", {"SKILL.md": "---\nname: r\ndescription: d\n---\n"})
    (tmp_path / "set/skills").mkdir(parents=True)
    for name in ("review", "also"):
        os.symlink(tmp_path / "elsewhere/review", tmp_path / "set/skills" / name)

    found = folder_items(str(tmp_path / "set/skills"), "skills")

    assert sorted(os.path.basename(f.path) for f in found) == ["also", "review"]


def test_many_skill_groups_linking_one_shared_folder_are_walked_as_pi_walks_them(
    tmp_path: Path,
) -> None:
    """helper-59: 17 skill groups, each with `shared -> ../../shared`, were refused ("reached
    through links more than 16 times"): a folder many links lead to is no loop."""
    build_tree(tmp_path / "set/shared", {"template.txt": "t"})
    for i in range(40):
        build_tree(tmp_path / f"set/skills/g{i}/s", {"SKILL.md": f"---\nname: g{i}\n---\n"})
        os.symlink("../../shared", tmp_path / f"set/skills/g{i}/shared")

    found = folder_items(str(tmp_path / "set/skills"), "skills")

    assert len(found) == 40


def test_the_ignore_line_a_refusal_gives_is_the_one_that_skips_the_link(tmp_path: Path) -> None:
    """helper-59: for a loop reached through another link, the line named the link's own
    place outside the set, which an ignore file of the walk never matches."""
    build_tree(tmp_path / "elsewhere/sk/inner", {"x.md": "x"})
    os.symlink(tmp_path / "elsewhere", tmp_path / "elsewhere/sk/inner/up")
    (tmp_path / "set/skills").mkdir(parents=True)
    os.symlink(tmp_path / "elsewhere/sk", tmp_path / "set/skills/vendor")

    with pytest.raises(UsageError) as caught:
        folder_items(str(tmp_path / "set/skills"), "skills")

    assert caught.value.fix is not None and "a line `vendor/inner/up` in" in caught.value.fix
    (tmp_path / "set/skills/.ignore").write_text("vendor/inner/up\n")
    assert folder_items(str(tmp_path / "set/skills"), "skills") == []


def test_a_loop_through_a_folder_outside_the_set_is_refused_as_a_loop(tmp_path: Path) -> None:
    """helper-61: skills/a -> a folder outside, whose back -> skills: the walk went round
    40 links deep and then said two skills had one name."""
    build_tree(tmp_path / "set/skills/g1/real", {"SKILL.md": "---\nname: real\n---\n"})
    (tmp_path / "out").mkdir()
    os.symlink(tmp_path / "out", tmp_path / "set/skills/a")
    os.symlink(tmp_path / "set/skills", tmp_path / "out/back")

    with pytest.raises(UsageError) as caught:
        folder_items(str(tmp_path / "set/skills"), "skills")

    assert "a/back is a link back to" in caught.value.message and "a loop" in caught.value.message


def test_a_refusal_met_out_of_the_set_names_the_sets_own_link(tmp_path: Path) -> None:
    """helper-82: `skills/col/usr -> /usr` was walked into, and the fix said to remove
    /usr/bin/X11 or to write /usr/.ignore: a system link, a system folder. It names the link
    of the set's that leads there; the ignore line skips the loop alone, as before."""
    build_tree(tmp_path / "set/skills/col/real", {"SKILL.md": "---\nname: real\n---\n"})
    build_tree(tmp_path / "sys/bin", {"tool": ""})
    os.symlink(tmp_path / "sys/bin", tmp_path / "sys/bin/X11")  # a loop of the system's
    os.symlink(tmp_path / "sys", tmp_path / "set/skills/col/usr")

    with pytest.raises(UsageError) as caught:
        folder_items(str(tmp_path / "set/skills"), "skills")

    skills = tmp_path / "set/skills"
    assert caught.value.message == (
        f"{skills}: col/usr/bin/X11 is a link back to {tmp_path}/sys/bin, a loop"
    )
    assert caught.value.fix == (
        f"remove the link {skills}/col/usr (to {tmp_path}/sys), or leave it out with a line "
        f"`col/usr/bin/X11` in {skills}/.ignore"
    )


@pytest.mark.parametrize("name", ["#up", "g1/[k]", "!x", "sp "])
def test_the_ignore_line_of_a_refusal_matches_a_name_an_ignore_file_reads_otherwise(
    tmp_path: Path, name: str
) -> None:
    """helper-61: `#up` was read as a comment, `g1/[k]` as a class: pasted, nothing changed."""
    build_tree(tmp_path / "set/skills/g1/real", {"SKILL.md": "---\nname: real\n---\n"})
    os.symlink("/", tmp_path / "set/skills" / name)

    with pytest.raises(UsageError) as caught:
        folder_items(str(tmp_path / "set/skills"), "skills")

    fix = caught.value.fix or ""
    line = fix.split("a line `", 1)[1].split("` in ", 1)[0]
    (tmp_path / "set/skills/.ignore").write_text(line + "\n")
    assert [
        os.path.basename(f.path) for f in folder_items(str(tmp_path / "set/skills"), "skills")
    ] == ["real"]
