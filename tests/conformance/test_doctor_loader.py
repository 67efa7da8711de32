"""`ext doctor --deep`'s loader check against the real pi: one Node start, every kind of finding."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from installer.commands.install import Install, install
from installer.doctor import resolve_subject, run_checks
from installer.ground.context import Env, resolve
from installer.host.pi import HostInfo
from tests.conformance.layouts import skill
from tests.helpers import build_tree, yes

pytestmark = pytest.mark.conformance

FLAG_V = 'export default function (pi) { pi.registerFlag("v", { type: "boolean" }); }\n'


def test_doctor_deep_names_each_difference_with_pis_reason_and_a_fix(
    tmp_path: Path, pi_host: HostInfo
) -> None:
    root = build_tree(
        tmp_path / "set",
        {
            "extset.toml": '[set]\nname = "d"\n',
            "extensions/one.ts": FLAG_V,
            "extensions/two.ts": FLAG_V,
            "extensions/fetch/package.json": json.dumps(
                {
                    "name": "fetch",
                    "dependencies": {"left-pad": "^1"},
                    "pi": {"extensions": ["./main.ts"]},
                }
            ),
            "extensions/fetch/main.ts": (
                'import pad from "left-pad";\nexport default function (pi) { pad("a", 2); }\n'
            ),
            "skills/plain/SKILL.md": "---\nname: plain\n---\nno description\n",
            "skills/good/SKILL.md": skill("good"),
        },
    )
    agent = tmp_path / "agent"
    agent.mkdir()
    env = Env(environ={**os.environ, "PATH": f"{pi_host.path.parent}:{os.environ['PATH']}"})
    install(resolve(env, root, agent), Install(mode="link"), yes)
    found = run_checks(resolve_subject(env, root, agent), ["loader"], deep=True)
    rows = sorted((f.level, f.message, f.fix) for f in found)
    real = os.path.realpath(root)
    assert rows == [
        (
            "error",
            f"ext says skill:plain is enabled, pi does not load {real}/skills/plain/SKILL.md: "
            "description is required",
            "fix the file as pi says, or `ext disable skill:plain`",
        ),
        (
            "error",
            f"fetch: pi could not load {real}/extensions/fetch/main.ts: "
            "Cannot find module 'left-pad'",
            f"cd {real}/extensions/fetch && npm install",
        ),
        (
            "warn",
            "flag --v is registered by both one and two: a conflict, not a load failure; "
            "pi loads both and uses one's",
            "rename the flag in one of them, or `ext disable` the one you do not need",
        ),
    ]


def test_each_failure_and_conflict_is_said_once_in_a_deep_doctor_with_its_fix(
    tmp_path: Path, pi_host: HostInfo
) -> None:
    """host.load (pi itself, offline) and loader (pi's SDK) both see them; one says each.

    pi prints a conflict as a failed load; it is not one (both stay loaded), and neither check
    may call it one. A missing npm module's fix is the install to run in the set, whichever
    check says it.
    """
    root = build_tree(
        tmp_path / "set",
        {
            "extset.toml": '[set]\nname = "d"\n',
            "extensions/bad.ts": 'export default function () { throw new Error("boom"); }\n',
            "extensions/good.ts": "export default function () {}\n",
            "extensions/one.ts": FLAG_V,
            "extensions/two.ts": FLAG_V,
            "extensions/fetch/package.json": json.dumps(
                {
                    "name": "fetch",
                    "dependencies": {"left-pad": "^1"},
                    "pi": {"extensions": ["./main.ts"]},
                }
            ),
            # Used, or the TypeScript transpiler drops the import and nothing fails.
            "extensions/fetch/main.ts": (
                'import pad from "left-pad";\nexport default function () { pad("a", 2); }\n'
            ),
        },
    )
    agent = tmp_path / "agent"
    agent.mkdir()
    env = Env(environ={**os.environ, "PATH": f"{pi_host.path.parent}:{os.environ['PATH']}"})
    install(resolve(env, root, agent), Install(mode="link"), yes)
    found = run_checks(resolve_subject(env, root, agent), ["host.load", "loader"], deep=True)
    rows = [(f.id, f.level, f.message.split(": ")[0], f.fix) for f in found]
    real = os.path.realpath(root)
    assert sorted(rows) == [
        ("host.load", "error", "bad", "fix the extension, or `ext disable bad` until it loads"),
        ("host.load", "error", "fetch", f"cd {real}/extensions/fetch && npm install"),
        (
            "host.load",
            "warn",
            "flag --v is registered by both one and two",
            "rename the flag in one of them, or `ext disable` the one you do not need",
        ),
        ("loader", "ok", "pi's loader loads what ext says of the set", None),
    ]
    assert next(f for f in found if f.message.startswith("bad")).message.endswith(
        "/extensions/bad.ts: boom"
    )
    assert found[-1].message.endswith(
        "(2 extensions failed to load, 1 tool or flag conflict: see host.load)"
    )


@pytest.mark.parametrize("mode", ["link", "register"])
def test_an_agent_dir_in_the_sets_folder_is_not_the_set_to_pis_loader(
    tmp_path: Path, pi_host: HostInfo, mode: str
) -> None:
    """`ext install --agent-dir ./try` from the set's folder: pi's own loader loads ext's /ext
    copy from try/.extset, inside the set's folder; doctor --deep said `pi loads
    try/.extset/agent/ext-command-….ts from the set; ext does not know it`."""
    root = build_tree(
        tmp_path / "set", {"extset.toml": '[set]\nname = "d"\n', "extensions/one.ts": FLAG_V}
    )
    agent = root / "try"
    agent.mkdir()
    env = Env(environ={**os.environ, "PATH": f"{pi_host.path.parent}:{os.environ['PATH']}"})
    install(resolve(env, root, agent), Install(mode=mode), yes)
    found = run_checks(resolve_subject(env, root, agent), ["loader", "items"], deep=True)
    assert [(f.level, f.message) for f in found if f.level != "ok"] == []
    assert {f.id for f in found} == {"loader", "items"}


def test_a_theme_ext_add_makes_with_todays_pi_found_loads_in_each_pi(
    tmp_path: Path, pi_host: HostInfo
) -> None:
    """helper-81: `ext add dusk --kind theme` with pi 1.6 found copied its dark theme, whose
    colours are `okhsl(…)`; pi 0.73 then failed to load it (`Variable reference not found`).
    Made with today's pi found, the theme loads in each pi, with no diagnostic."""
    from installer.commands.add import add_item
    from installer.host.loader import Unavailable, ask
    from installer.host.pi import find_host
    from tests.pis import today

    pi = today().require()
    made_with = find_host(str(pi.bin), pi.path())
    root = build_tree(tmp_path / "set", {"extset.toml": '[set]\nname = "t"\n'})
    add_item(root, "dusk", "theme", False, False, yes, made_with)
    agent = build_tree(tmp_path / "agent", {"themes": None})
    (agent / "themes" / "dusk.json").symlink_to(root / "themes" / "dusk.json")

    views = ask(pi_host, [(agent, tmp_path)])
    assert not isinstance(views, Unavailable), views
    (view,) = views
    assert view.reals("theme") == {str(root / "themes" / "dusk.json")}, view
    assert [d for d in view.diagnostics if d.kind == "theme"] == [], view.diagnostics
