"""Which live links of ours an install prunes though their target is still in the set: those
ext made for an item the set no longer has, where the host loads them (links/strays.py).

Session 49 pruned such a link when pi loads it; helper-31 found that the first rule took the
user's own links into the set too, and folders no host loads. What pi itself loads from a
dropped item's link is pinned in tests/conformance/test_dropped_items.py.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from installer.commands.install import Install, install
from tests.helpers import build_tree, context, yes

SET = {
    "extset.toml": '[set]\nname = "tools"\n',
    "extensions/keep.ts": "export default function () {}\n",
    "extensions/drop.ts": "export default function () {}\n",
    "extensions/box/index.ts": "export default function () {}\n",
    "skills/tidy/SKILL.md": "---\ndescription: Tidy.\n---\n",
    "prompts/ask.md": "Ask.\n",
    "lib/wip.ts": "export const wip = 1;\n",
    "lib/parts/a.ts": "export const a = 1;\n",
    "drafts/x.md": "x\n",
}
ALL = {"extensions": ["./extensions"], "skills": ["./skills"], "prompts": ["./prompts"]}


def dropped(root: Path, **keys: list[str]) -> None:
    """The set becomes a pi package whose manifest names what `keys` say (the rest: all)."""
    pi = {**ALL, **keys}
    (root / "package.json").write_text(json.dumps({"name": "tools", "pi": pi}))


def pruned(root: Path, agent: Path) -> list[str]:
    plan = install(context(root, agent), Install(dry_run=True), yes).plan
    return [a.path for a in plan.changes if a.action == "prune"]


@pytest.fixture
def installed(tmp_path: Path) -> tuple[Path, Path]:
    root = build_tree(tmp_path / "set", dict(SET))
    agent = build_tree(tmp_path / "agent", {"extensions": None})
    install(context(root, agent), Install(), yes)
    return root, agent


def test_an_item_the_manifest_drops_is_pruned_file_folder_and_skill(
    installed: tuple[Path, Path],
) -> None:
    root, agent = installed
    dropped(
        root,
        extensions=["./extensions/keep.ts"],
        skills=["!skills/tidy"],
        prompts=["./prompts/ask.md"],
    )
    assert pruned(root, agent) == ["extensions/box", "extensions/drop.ts", "skills/tidy"]


def test_the_user_s_own_links_into_the_set_stay(installed: tuple[Path, Path]) -> None:
    """helper-31: a link the user made to a file of the set that never was an item, and a
    folder no host loads, were pruned without a backup."""
    root, agent = installed
    (agent / "extensions/wip.ts").symlink_to(root / "lib/wip.ts")
    (agent / "extensions/parts").symlink_to(root / "lib/parts")  # no index.ts: pi skips it
    (agent / "prompts/drafts").symlink_to(root / "drafts")  # pi loads no folder of prompts/
    assert pruned(root, agent) == []


def test_a_dropped_folder_no_host_loads_any_more_is_pruned_only_while_it_loads(
    installed: tuple[Path, Path],
) -> None:
    root, agent = installed
    dropped(root, extensions=["./extensions/keep.ts", "./extensions/drop.ts"])
    os.unlink(root / "extensions/box/index.ts")  # no entry file: pi loads nothing there
    (root / "extensions/box/notes.md").write_text("notes\n")
    assert pruned(root, agent) == []


def test_backups_and_parked_forms_stay(installed: tuple[Path, Path]) -> None:
    root, agent = installed
    (agent / "extensions/drop.ts").rename(agent / "extensions/drop.ts.off")  # parked by hand
    (agent / "extensions/keep.ts.bak.20261129-101500").symlink_to(root / "extensions/keep.ts")
    dropped(root, extensions=["./extensions/keep.ts", "./extensions/box"])
    assert pruned(root, agent) == []


def test_a_set_kept_inside_the_agent_dir_has_its_dropped_items_pruned(tmp_path: Path) -> None:
    """helper-31: every link into the agent dir was taken for one to ext's own files."""
    agent = build_tree(tmp_path / "agent", {"extensions": None})
    root = build_tree(agent / "myset", dict(SET))
    install(context(root, agent), Install(), yes)
    dropped(root, extensions=["./extensions/keep.ts", "./extensions/box"])
    assert pruned(root, agent) == ["extensions/drop.ts"]


def test_a_dropped_item_whose_journal_is_gone_is_said_by_doctor_not_pruned(
    installed: tuple[Path, Path], tmp_path: Path
) -> None:
    """helper-33: once the journals of its link are trimmed, ext cannot tell its link from
    one the user made: no install prunes it, and doctor says that pi loads it, with the rm."""
    import shutil

    from installer.doctor import resolve_subject, run_checks
    from installer.ground.context import Env
    from installer.host.pi import HostInfo

    root, agent = installed
    shutil.rmtree(agent / ".extset" / "journal")
    dropped(root, extensions=["./extensions/keep.ts", "./extensions/box"])
    assert pruned(root, agent) == []

    env = Env(environ=dict(os.environ), cwd=tmp_path)
    pi = Path("/opt/pi/bin/pi")
    scope = "@earendil-works"
    host = HostInfo("pi", pi, pi, "1.6.0", f"{scope}/pi-coding-agent", scope, "package.json")
    found = run_checks(resolve_subject(env, root, agent, lambda _c, _p: host))
    [said] = [f for f in found if f.id == "items" and "drop.ts" in f.message]
    assert said.message == (
        f"extensions/drop.ts links into the set, to {root}/extensions/drop.ts, which is not an "
        "item; pi loads it"
    )
    assert said.fix == (
        f"if ext linked it for an item the set dropped: rm {agent}/extensions/drop.ts"
    )
