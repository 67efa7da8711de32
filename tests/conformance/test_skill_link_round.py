"""A link inside a skill folder that leads back up (`skills/loopy/up -> ..`), judged by each
real pi's loader: pi stops at a skill's folder and loads it once, so ext links it for pi
without a word, and says it only to the agents that follow links while they look for
SKILL.md files (installer/hosts/install.py `_round`; OpenCode hung on one, helper-28)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from installer.commands.install import Install, install
from installer.ground.context import Env, resolve
from installer.host.loader import ask
from installer.host.pi import HostInfo
from tests.conformance.layouts import manifest, skill
from tests.helpers import build_tree, yes

pytestmark = pytest.mark.conformance


def test_pi_loads_a_skill_whose_folder_links_back_up_once(
    tmp_path: Path, pi_host: HostInfo
) -> None:
    root = build_tree(
        tmp_path / "set",
        {"extset.toml": manifest("round"), "skills/loopy/SKILL.md": skill("loopy")},
    )
    (root / "skills/loopy/up").symlink_to("..")
    agent = tmp_path / "agent"
    agent.mkdir()
    done = install(
        resolve(Env(environ=dict(os.environ), cwd=tmp_path), root, agent), Install(), yes
    )
    assert not any("link back" in w for w in done.plan.warnings)

    views = ask(pi_host, [(agent, tmp_path)], timeout=120)

    assert isinstance(views, tuple), views
    [view] = views
    loaded = [i.real for i in view.loaded if i.kind == "skill"]
    assert loaded == [os.path.realpath(root / "skills/loopy/SKILL.md")], loaded
    assert not view.failed
