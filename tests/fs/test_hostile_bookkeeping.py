"""Property: whatever stands where ext keeps its own files (a symlink out of the agent dir,
dangling or not, a FIFO, a folder where a file belongs, a read-only file or folder), no
writing command changes anything outside the agent dir, and no byte of the user's is lost."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from installer.commands.install import Install, install
from installer.commands.toggle import switch
from installer.commands.undo import Undo, undo
from installer.commands.uninstall import Uninstall, uninstall
from installer.consent import commands as consent
from installer.consent import legacy
from installer.ground.context import Context
from installer.ground.errors import ExtError
from tests.helpers import TOOLS_SET, build_tree, context, snapshot, yes

SEEDED = '[set]\nname = "tools"\n[settings.seed]\nquietStartup = true\n'
SIBLING = {
    "logs/01.jsonl": "one\n",
    "logs/02.jsonl": "two\n",
    "notes.txt": "the user's notes\n",
    "dir/keep.md": "keep\n",
}
USER = {
    "extensions/notify.ts": b"the user's own notify \x00\xff\n",
    "extensions/mine.ts": b"mine\n",
    "settings.json": b'{\r\n  "theme": "dark",\r\n  "n": 1e400\r\n}',
}


def plant(kind: str, path: Path, sibling: Path) -> None:
    """Put something ext did not make at path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "link-to-folder":
        path.symlink_to(sibling / "logs")
    elif kind == "link-to-file":
        path.symlink_to(sibling / "notes.txt")
    elif kind == "dangling-link":  # reads as "no file": a write through it lands outside
        path.symlink_to(sibling / "absent.json")
    elif kind == "read-only":  # a file at one of ext's own names is ext's: a folder is not
        path.mkdir()
        (path / "inside.txt").write_text("the user's, read-only\n")
        path.chmod(0o555)
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
        (path / "inside.txt").write_text("the user's\n")


def plantable(agent: Path, place: str) -> bool:
    """Whether place is free, below folders only: never through a link planted earlier (a
    folder made there would land outside the agent dir), nor below a file, a FIFO or a
    read-only folder planted earlier."""
    path = agent / place
    if os.path.lexists(path):
        return False
    for parent in path.relative_to(agent).parents:
        folder = agent / parent
        if os.path.islink(folder):
            return False
        if os.path.lexists(folder) and not (folder.is_dir() and os.access(folder, os.W_OK)):
            return False
    return True


PLACES = [
    ".extset",
    ".extset/journal",
    ".extset/state.json",
    ".extset/lock",
    ".extset/settings-lock.owner",
    "settings.json.lock",
    "extensions/.off",
    ".settings.json.99999999-0123abcd.tmp",
    "extensions/.notify.ts.99999999-0123abcd.ext-tmp",
    ".extset/agent",
    ".extset/sessions",
    ".extset/consent",
    ".extset/consent/project-approvals.json",
    "hooks",
    "hooks/project-approvals.json",
]
KINDS = ["link-to-folder", "link-to-file", "dangling-link", "fifo", "folder", "read-only"]
HOOKS = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify done"}]}]}}


def run_all(ctx: Callable[[], Context], project: Path) -> None:
    """Every writing command, each allowed to refuse (an ExtError), never to escape."""
    agent = ctx().agent_dir
    steps: list[Callable[[], object]] = [
        lambda: legacy.migrate(ctx()),
        lambda: consent.approve(agent, project, consent.describe_approval(agent, project)),
        lambda: install(ctx(), Install(), yes),
        lambda: switch(ctx(), ["notify"], False, False, False, yes),
        lambda: switch(ctx(), ["notify"], True, False, False, yes),
        lambda: install(ctx(), Install(dry_run=True), yes),
        lambda: uninstall(ctx(), Uninstall(), yes),
        lambda: consent.revoke(agent, project),
        lambda: undo(ctx(), Undo(), yes),
        lambda: undo(ctx(), Undo(), yes),
        lambda: undo(ctx(), Undo(), yes),
    ]
    for step in steps:
        with contextlib.suppress(ExtError):
            step()


def contents(root: Path) -> Counter[bytes]:
    """Every regular file's bytes under root (links not followed)."""
    found: Counter[bytes] = Counter()
    for dirpath, _, filenames in os.walk(root):
        for name in filenames:
            path = Path(dirpath, name)
            if path.is_file() and not path.is_symlink():
                found[path.read_bytes()] += 1
    return found


counter = itertools.count()


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.dictionaries(st.sampled_from(PLACES), st.sampled_from(KINDS), min_size=1, max_size=3))
def test_no_writing_command_reaches_outside_the_agent_dir(
    tmp_path: Path, planted: dict[str, str]
) -> None:
    base = tmp_path / f"case{next(counter)}"
    set_root = build_tree(base / "set", {**TOOLS_SET, "extset.toml": SEEDED})
    sibling = build_tree(base / "sibling", dict(SIBLING))
    project = build_tree(base / "proj", {".claude/settings.json": json.dumps(HOOKS)})
    agent = build_tree(base / "agent", dict(USER))
    for place, kind in planted.items():
        if plantable(agent, place):
            plant(kind, agent / place, sibling)
    outside = snapshot(sibling), snapshot(set_root), snapshot(project)
    theirs = contents(agent)  # the user's bytes, and what was planted

    run_all(lambda: context(set_root, agent), project)

    assert (snapshot(sibling), snapshot(set_root), snapshot(project)) == outside
    left = contents(agent)
    lost = [data for data, n in theirs.items() if left[data] < n and data != USER["settings.json"]]
    assert lost == [], planted
    settings = (agent / "settings.json").read_bytes()
    assert b'"theme": "dark"' in settings and b"1e400" in settings, planted


@pytest.mark.parametrize("kind", ["link-to-folder", "fifo"])
def test_a_planted_journal_is_refused_by_every_writing_command(tmp_path: Path, kind: str) -> None:
    set_root = build_tree(tmp_path / "set", dict(TOOLS_SET))
    sibling = build_tree(tmp_path / "sibling", dict(SIBLING))
    agent = build_tree(tmp_path / "agent", dict(USER))
    plant(kind, agent / ".extset/journal", sibling)
    with pytest.raises(ExtError, match=r"journal is a"):
        install(context(set_root, agent), Install(), yes)
    assert (agent / "extensions/notify.ts").read_bytes() == USER["extensions/notify.ts"]
