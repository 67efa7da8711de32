"""Skills of one name and project trust, judged by each real pi's loader in one Node start.

- A set's skill also in `~/.agents/skills` or a project's `.agents/skills`: ext's verdict
  (installer/sets/shared_skills.py) on which copy pi loads, against pi's.
- A project's `.pi/` resource, untrusted and trusted: pi 1.x loads it only once trusted (its
  trust store, asked by installer/host/loader.mjs); 0.73 either way. ext's own reading of
  the trust store (installer/host/trust.py) agrees with pi's.
- Two sets registered in one agent dir with a skill of one name: pi loads one and reports a
  collision, which is why ext refuses it in both modes (tests/fs/test_two_sets.py).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from installer.commands.install import Install, install
from installer.ground.context import Env, resolve
from installer.host.lines import line_of
from installer.host.loader import View, ask
from installer.host.pi import HostInfo
from installer.host.trust import project_trust
from installer.sets.resources import discover
from installer.sets.shared_skills import twins
from tests.conformance.layouts import skill
from tests.helpers import build_tree, yes

pytestmark = pytest.mark.conformance


def a_set(root: Path, name: str, skill_name: str = "foo") -> Path:
    return build_tree(
        root,
        {
            "extset.toml": f'[set]\nname = "{name}"\n',
            f"skills/{skill_name}/SKILL.md": skill(skill_name),
        },
    )


def installed(tmp: Path, name: str, root: Path, mode: str, env: Env, trust: bool | None) -> Path:
    agent = tmp / name
    agent.mkdir()
    if trust is not None:  # pi's own store, as `/trust` writes it: canonical paths
        (agent / "trust.json").write_text(json.dumps({os.path.realpath(tmp / "proj"): trust}))
    install(resolve(env, root, agent), Install(mode=mode), yes)
    return agent


def loads(view: View, name: str) -> list[str]:
    return [i.real for i in view.loaded if i.kind == "skill" and i.name == name]


def test_which_copy_of_a_skill_pi_loads_and_what_trust_gates(
    tmp_path: Path, pi_host: HostInfo, monkeypatch: pytest.MonkeyPatch
) -> None:
    line = line_of(pi_host.version, pi_host.package)
    home = Path(os.environ["HOME"])
    build_tree(home / ".agents" / "skills" / "foo", {"SKILL.md": skill("foo")})
    proj = build_tree(
        tmp_path / "proj",
        {".git/HEAD": "ref: refs/heads/main\n", ".pi/skills/bar/SKILL.md": skill("bar")},
    )
    nowhere = build_tree(tmp_path / "nowhere", {"README.md": "no .agents, no .pi here\n"})
    root = a_set(tmp_path / "set", "one")
    env = Env(environ=dict(os.environ), cwd=nowhere)
    # (agent dir, cwd, mode): the set's foo against ~/.agents/skills/foo, then the project's.
    cases = [
        (installed(tmp_path, "link", root, "link", env, None), nowhere, "link"),
        (installed(tmp_path, "register", root, "register", env, None), nowhere, "register"),
    ]
    build_tree(proj / ".agents" / "skills" / "foo", {"SKILL.md": skill("foo")})
    for mode in ("link", "register"):
        for trust in (None, True, False):
            agent = installed(tmp_path, f"{mode}-{trust}", root, mode, env, trust)
            cases.append((agent, proj, mode))
    both = [a_set(tmp_path / "both" / n, n, "baz") for n in ("first", "second")]
    two = build_tree(
        tmp_path / "two", {"settings.json": json.dumps({"packages": [str(b) for b in both]})}
    )

    views = ask(pi_host, [*((a, c) for a, c, _ in cases), (two, nowhere)], timeout=120)

    assert isinstance(views, tuple), views
    resources = discover(root)
    mine = os.path.realpath(root / "skills" / "foo" / "SKILL.md")
    for (agent, cwd, mode), view in zip(cases, views[: len(cases)], strict=True):
        trust = project_trust(line, agent, cwd, home)
        assert view.trust == trust, f"{agent.name}: pi's trust {view.trust}, ext's {trust}"
        [said] = twins(resources, mode, home, cwd, lambda t=trust: t) or [None]
        ext_says = mine if said is None or said.set_wins else os.path.realpath(said.shared.path)
        assert loads(view, "foo") == [ext_says], f"{agent.name} in {cwd.name}"
        collided = [d for d in view.diagnostics if d.message == 'name "foo" collision']
        assert collided and {os.path.realpath(d.winner or "") for d in collided} == {ext_says}
        project_bar = loads(view, "bar") != []
        assert project_bar == (cwd == proj and trust.trusted), agent.name
    untrusted = views[2]  # the project's resources with no saved decision
    assert (untrusted.trust is not None and untrusted.trust.trusted) == (not line.trust_gate)
    [pair] = views[len(cases) :]
    assert len(loads(pair, "baz")) == 1
    assert [d.message for d in pair.diagnostics] == ['name "baz" collision']
