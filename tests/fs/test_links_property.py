"""Properties of install/uninstall over random agent dirs: idempotent, nothing lost, clean undo."""

from __future__ import annotations

import itertools
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from installer.commands.install import Install, install
from installer.commands.uninstall import Uninstall, uninstall
from installer.links.scan import scan, seen
from installer.sets.resources import discover
from tests.helpers import build_tree, context, snapshot, yes

STAMP = "20261129-101500"
KIND_DIRS = ("extensions", "skills", "prompts", "themes")

# name -> (file of the set that makes it, destination, disabled form, what a link points at)
CANDIDATES = {
    "a": ("extensions/a.ts", "extensions/a.ts", "extensions/a.ts.off", "extensions/a.ts"),
    "b": ("extensions/b.js", "extensions/b.js", "extensions/b.js.off", "extensions/b.js"),
    "gamma": (
        "extensions/gamma/index.ts",
        "extensions/gamma",
        "extensions/.off/gamma",
        "extensions/gamma",
    ),
    "review": ("skills/review/SKILL.md", "skills/review", "skills/.off/review", "skills/review"),
    "fix": ("prompts/fix.md", "prompts/fix.md", "prompts/fix.md.off", "prompts/fix.md"),
    "dark": ("themes/dark.json", "themes/dark.json", "themes/dark.json.off", "themes/dark.json"),
}
SLOTS = (
    *((name, path) for name, (_, dest, off, _) in CANDIDATES.items() for path in (dest, off)),
    ("mine", "extensions/mine.ts"),
    ("mine", "skills/notes"),
)
SLOT_KINDS = (
    "none",
    "file",
    "dir",
    "foreign-file",
    "foreign-dir",
    "foreign-dangling",
    "ours",
    "ours-wrong",
    "ours-stale",
    "moved",
)
TAKEN = (f"extensions/a.ts.bak.{STAMP}", f"extensions/.bak/gamma.bak.{STAMP}")


@dataclass(frozen=True)
class Scenario:
    present: frozenset[str]  # candidates the set has (the others were removed from it)
    skip: frozenset[str]
    slots: dict[str, str]  # agent path -> what is there before the run
    taken: tuple[bool, bool]  # whether each of TAKEN already exists


@st.composite
def scenarios(draw: st.DrawFn) -> Scenario:
    present = draw(st.frozensets(st.sampled_from(sorted(CANDIDATES)), min_size=1))
    skip = draw(st.frozensets(st.sampled_from(sorted(present))))
    slots = draw(st.fixed_dictionaries({p: st.sampled_from(SLOT_KINDS) for _, p in SLOTS}))
    taken = draw(st.tuples(st.booleans(), st.booleans()))
    return Scenario(present, skip, slots, taken)


_examples = itertools.count()


def build(base: Path, sc: Scenario) -> tuple[Path, Path, Path, Path]:
    """The set, the agent dir as the scenario says, a folder outside both, and the old root."""
    set_root = base / "set"
    spec: dict[str, str | bytes | Path | None] = {
        "extset.toml": '[set]\nname = "tools"\n',
        "README.md": "not a resource\n",
    }
    spec.update({CANDIDATES[n][0]: f"// {n}\n" for n in sc.present})
    build_tree(set_root, spec)
    outside = build_tree(base / "outside", {"keep.txt": "outside\n"})
    old_root = base / "old-set"  # where the set lived before: gone, but in the state record
    agent = base / "agent"
    agent.mkdir()
    tree: dict[str, str | bytes | Path | None] = {}
    by_path = {path: name for name, path in SLOTS}
    for path, kind in sc.slots.items():
        tree.update(_slot(kind, path, by_path[path], set_root, old_root, outside))
    if sc.taken[0]:
        tree[TAKEN[0]] = "an older backup\n"
    if sc.taken[1]:
        tree[f"{TAKEN[1]}/index.ts"] = "an older backup\n"
    build_tree(agent, tree)
    record = {"version": 1, "sets": [{"root": str(old_root), "name": "tools", "mode": "link"}]}
    build_tree(agent, {".extset/state.json": json.dumps(record)})
    return set_root, agent, outside, old_root


def _slot(
    kind: str, path: str, name: str, set_root: Path, old_root: Path, outside: Path
) -> dict[str, str | bytes | Path | None]:
    """The build_tree entries that put `kind` at path."""
    tag = path.replace("/", "_")
    source = CANDIDATES[name][3] if name in CANDIDATES else f"extensions/{name}.ts"
    links = {
        "foreign-dangling": outside / f"gone-{tag}",
        "ours": set_root / source,
        "ours-wrong": set_root / "README.md",
        "ours-stale": set_root / f"gone/{tag}",
        "moved": old_root / source,
    }
    if kind == "file":
        return {path: f"file at {path}\n"}
    if kind == "dir":
        return {f"{path}/index.ts": f"dir at {path}\n"}
    if kind == "foreign-file":
        return {path: build_tree(outside, {tag: f"theirs {path}\n"}) / tag}
    if kind == "foreign-dir":
        build_tree(outside, {f"{tag}.d/index.ts": f"theirs {path}\n"})
        return {path: outside / f"{tag}.d"}
    return {path: links[kind]} if kind in links else {}


def items(agent: Path, roots: tuple[Path, ...]) -> dict[str, tuple[object, bool]]:
    """Each entry of the resource folders and their .off/.bak: (its content, whether it is ours)."""
    out: dict[str, tuple[object, bool]] = {}
    for kind in KIND_DIRS:
        for sub in (kind, f"{kind}/.off", f"{kind}/.bak"):
            folder = agent / sub
            if folder.is_symlink() or not folder.is_dir():
                continue
            for name in sorted(os.listdir(folder)):
                path = folder / name
                if sub == kind and name in (".off", ".bak") and not path.is_symlink():
                    continue
                out[f"{sub}/{name}"] = (_content(path), _ours(path, roots))
    return out


def _content(path: Path) -> object:
    if path.is_symlink():
        return ("link", os.readlink(path))
    if path.is_dir():
        return ("dir", tuple(sorted(snapshot(path).items())))
    return ("file", path.read_bytes())


def _ours(path: Path, roots: tuple[Path, ...]) -> bool:
    if not path.is_symlink():
        return False
    real = os.path.realpath(path)
    return any(real == str(r) or real.startswith(f"{r}{os.sep}") for r in roots)


def _backup_of(original: str, candidate: str) -> bool:
    folder, _, name = original.rpartition("/")
    kind = folder.split("/")[0]
    pattern = rf"{kind}/(\.bak/)?{re.escape(name)}\.bak\.{STAMP}(-\d+)?"
    return re.fullmatch(pattern, candidate) is not None


def assert_nothing_lost(before: dict[str, object], after: dict[str, object]) -> None:
    """Every non-ours entry is where it was, or in a backup of its name with the same content."""
    remaining = dict(after)
    for path, content in before.items():
        if remaining.get(path) == content:
            del remaining[path]
            continue
        moved = [q for q, c in remaining.items() if c == content and _backup_of(path, q)]
        assert moved, f"{path} was lost: {content!r}"
        del remaining[moved[0]]
    assert not remaining, f"entries that came from nowhere: {sorted(remaining)}"


def _examples_dirs(tmp_path: Path) -> Iterator[Path]:
    while True:
        base = tmp_path / f"ex{next(_examples)}"
        base.mkdir()
        yield base


def not_ours(found: dict[str, tuple[object, bool]]) -> dict[str, object]:
    return {p: c for p, (c, ours) in found.items() if not ours}


@settings(
    max_examples=50,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(sc=scenarios())
def test_install_is_idempotent_loses_nothing_and_uninstall_leaves_only_what_was_there(
    tmp_path: Path, sc: Scenario
) -> None:
    base = next(_examples_dirs(tmp_path))
    set_root, agent, outside, old_root = build(base, sc)
    ext_own = (agent / ".extset" / "agent").resolve()  # /ext's copy: ext's, as the set's links are
    roots = (set_root.resolve(), old_root, ext_own)
    set_before, outside_before = snapshot(set_root), snapshot(outside)
    before = not_ours(items(agent, roots))

    skip = sorted(sc.skip)
    dry = install(context(set_root, agent), Install(skip=tuple(skip), dry_run=True), yes)
    real = install(context(set_root, agent), Install(skip=tuple(skip)), yes)
    assert dry.plan.actions == real.plan.actions, "--dry-run showed other steps than the run took"

    after = items(agent, roots)
    assert_nothing_lost(before, not_ours(after))
    for name in sc.present - sc.skip:
        _, dest, off, source = CANDIDATES[name]
        want = str(set_root.resolve() / source)
        assert want in (os.path.realpath(agent / dest), os.path.realpath(agent / off)), name

    again = install(context(set_root, agent), Install(skip=tuple(skip)), yes)
    assert again.plan.is_empty, [a.to_json() for a in again.plan.changes]

    uninstall(context(set_root, agent), Uninstall(), yes)
    left = items(agent, roots)
    assert not [p for p, (_, ours) in left.items() if ours], "uninstall left links of ours"
    assert not_ours(left) == not_ours(after)
    assert snapshot(set_root) == set_before
    assert snapshot(outside) == outside_before


@settings(
    max_examples=50,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(sc=scenarios())
def test_what_the_set_scan_saw_spares_stats_but_changes_nothing(
    tmp_path: Path, sc: Scenario
) -> None:
    """scan(known=seen(resources)) skips the lstat of links into the set, with the same result."""
    base = next(_examples_dirs(tmp_path))
    set_root, agent, _, old_root = build(base, sc)
    resources = discover(set_root)
    assert scan(agent, set_root, [old_root], seen(resources)) == scan(agent, set_root, [old_root])
