"""An item the set stops naming while its file stays (a pi package's manifest edited), judged
by each real pi's loader: pi still loads it through the link an install made, so ext lists it
stale, and the next install prunes it; then ext's list and pi's loader agree again.

Session 49 found `ext list` silent about it and `ext install` keeping it (`nothing to do`),
while pi loaded it: the link engine pruned a link of ours only once its target was gone.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from installer.commands.install import Install, install
from installer.ground.context import Env, resolve
from installer.host.loader import Kind, View, ask
from installer.host.pi import HostInfo
from installer.links.states import items
from tests.conformance.layouts import extension, manifest, package_json, prompt, skill
from tests.helpers import build_tree, yes

pytestmark = pytest.mark.conformance

KINDS: dict[str, Kind] = {"extensions": "extension", "skills": "skill", "prompts": "prompt"}


def pi_manifest(names: dict[str, list[str]]) -> str:
    return package_json(
        "dropping", {key: [f"./{key}/{n}" for n in ns] for key, ns in names.items()}
    )


def loaded(view: View) -> set[tuple[str, str]]:
    """(kind, real path) of every item pi's loader loaded, ext's own /ext aside."""
    return {
        (kind, os.path.realpath(real))
        for kind in KINDS.values()
        for real in view.reals(kind)
        if "/.extset/" not in real
    }


def enabled(env: Env, root: Path, agent: Path) -> set[tuple[str, str]]:
    """(kind, real path) of every file ext lists as enabled: what it says pi loads."""
    _, found = items(resolve(env, root, agent))
    return {
        (i.resource.kind, os.path.realpath(f))
        for i in found
        if i.state == "enabled"
        for f in i.resource.loads
    }


def test_an_item_the_manifest_drops_is_listed_stale_and_pruned(
    tmp_path: Path, pi_host: HostInfo
) -> None:
    both = {"extensions": ["a.ts", "b.ts"], "skills": ["s1", "s2"], "prompts": ["p1.md", "p2.md"]}
    root = build_tree(
        tmp_path / "set",
        {
            "extset.toml": manifest("dropping"),
            "package.json": pi_manifest(both),
            "extensions/a.ts": extension("a"),
            "extensions/b.ts": extension("b"),
            "skills/s1/SKILL.md": skill("s1"),
            "skills/s2/SKILL.md": skill("s2"),
            "prompts/p1.md": prompt("p1"),
            "prompts/p2.md": prompt("p2"),
        },
    )
    env = Env(environ=dict(os.environ), cwd=tmp_path)
    before, after = tmp_path / "before", tmp_path / "after"
    for agent in (before, after):
        agent.mkdir()
        install(resolve(env, root, agent), Install(), yes)
    kept = {"extensions": ["a.ts"], "skills": ["s1"], "prompts": ["p1.md"]}
    (root / "package.json").write_text(pi_manifest(kept))
    dropped = {"extensions/b.ts", "skills/s2", "prompts/p2.md"}

    _, stale = items(resolve(env, root, before))
    assert {i.path for i in stale if i.state == "stale"} == dropped
    done = install(resolve(env, root, after), Install(), yes)
    assert {a.path for a in done.plan.actions if a.action == "prune"} == dropped

    views = ask(pi_host, [(before, tmp_path), (after, tmp_path)], timeout=120)
    assert isinstance(views, tuple), views
    still, now = (loaded(v) for v in views)
    # pi loads what the manifest dropped as long as its link is there ...
    dropped_real = {
        (KINDS[rel.partition("/")[0]], os.path.realpath(root / rel / "SKILL.md"))
        if rel.startswith("skills/")
        else (KINDS[rel.partition("/")[0]], os.path.realpath(root / rel))
        for rel in dropped
    }
    assert dropped_real <= still, json.dumps(sorted(still))
    assert enabled(env, root, before) == still - dropped_real
    # ... and after the install, ext's list and pi's loader are one.
    assert not dropped_real & now
    assert enabled(env, root, after) == now
