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
    assert "is reached through links more than 16 times" in caught.value.message
    assert caught.value.fix is not None and "remove the link dag/d" in caught.value.fix


@pytest.mark.parametrize("target", ["/", "/proc", "..", "../.."])
def test_a_link_to_a_folder_above_the_set_or_the_kernels_is_refused_at_once(
    tmp_path: Path, target: str
) -> None:
    build_tree(tmp_path / "set", {"prompts/p.md": "p"})
    os.symlink(target, tmp_path / "set/prompts/up")

    with pytest.raises(UsageError) as caught:
        folder_items(str(tmp_path / "set/prompts"), "prompts")

    assert "above the set or the kernel's" in caught.value.message
    assert caught.value.fix == (
        f"remove the link up, or leave it out with a line `up` in {tmp_path}/set/prompts/.ignore"
    )


def test_one_folder_linked_under_two_names_is_walked_as_pi_walks_it(tmp_path: Path) -> None:
    build_tree(tmp_path / "elsewhere/review", {"SKILL.md": "---\nname: r\ndescription: d\n---\n"})
    (tmp_path / "set/skills").mkdir(parents=True)
    for name in ("review", "also"):
        os.symlink(tmp_path / "elsewhere/review", tmp_path / "set/skills" / name)

    found = folder_items(str(tmp_path / "set/skills"), "skills")

    assert sorted(os.path.basename(f.path) for f in found) == ["also", "review"]
