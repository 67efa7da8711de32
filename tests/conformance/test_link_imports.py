"""Where a linked extension's imports resolve, asked of each real pi's own loader.

pi 0.73.1 hands jiti the link's path (`loadExtensionModule`, dist/core/extensions/loader.js;
jiti does not realpath it), so a relative import that leaves a linked folder, or one of a
linked file, and a package in the set's root node_modules are looked for from the agent
dir and not found; the same set registered as a package loads. pi 1.6.0 realpaths the
entry first (`canonicalizePath`) and loads it both ways. That is `PiLine.imports_from`;
ext's reading of the sources (installer/sets/link_imports.py) must name exactly what fails,
and `ext install` refuses link mode where, and only where, the pi found cannot load it.
A real file in the agent dir that re-exports the entry by its absolute path loads on both:
no link can carry the imports, a file could.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from installer.commands.install import Install, install
from installer.ground.context import Env, resolve
from installer.ground.errors import UsageError
from installer.host.lines import line_of
from installer.host.loader import Unavailable, View, ask
from installer.host.pi import HostInfo
from installer.sets.link_imports import escapes
from installer.sets.resources import discover
from tests.helpers import build_tree, yes
from tests.pis import RealPi

pytestmark = pytest.mark.conformance

PKG = {"name": "some-pkg", "version": "1.0.0", "main": "index.js"}
SET = {
    "extset.toml": '[set]\nname = "imports"\nmode = "link"\n',
    "lib/util.ts": 'export const hello = () => "hi";\n',
    "lib/types.ts": "export interface T { a: number }\n",
    "node_modules/some-pkg/package.json": json.dumps(PKG),
    "node_modules/some-pkg/index.js": "module.exports = { x: 1 };\n",
    # Out of its folder: lost through a link on 0.73.
    "extensions/foo/index.ts": (
        'import { hello } from "../../lib/util";\nexport default function (pi) { hello(); }\n'
    ),
    "extensions/rel.ts": (
        'import { hello } from "../lib/util";\nexport default function (pi) { hello(); }\n'
    ),
    # A package only in the set's root node_modules: lost too, file or folder.
    "extensions/bar.ts": 'import { x } from "some-pkg";\nexport default function (pi) { x; }\n',
    "extensions/baz/index.ts": 'import { x } from "some-pkg";\nexport default (pi) => x;\n',
    # Carried by the link: inside the folder, its own node_modules, a type-only import.
    "extensions/inner/index.ts": (
        'import { h } from "./sub/helper.js";\nimport { y } from "own-pkg";\n'
        'import type { T } from "../../lib/types";\n'
        "export default function (pi) { const t: T = { a: h + y }; }\n"
    ),
    "extensions/inner/sub/helper.ts": "export const h = 1;\n",
    "extensions/inner/node_modules/own-pkg/package.json": json.dumps({**PKG, "name": "own-pkg"}),
    "extensions/inner/node_modules/own-pkg/index.js": "module.exports = { y: 2 };\n",
}
LOST = {"foo", "rel", "bar", "baz"}


def _failed(view: View) -> dict[str, str]:
    """Item name -> pi's reason, for each extension pi failed to load."""
    return {_name(Path(f.real)): f.error for f in view.failed}


def _name(real: Path) -> str:
    return real.parent.name if real.name.startswith("index.") else real.stem


def test_each_pi_resolves_a_linked_extensions_imports_where_its_line_says(
    tmp_path: Path, pi_host: HostInfo, real_pi: RealPi
) -> None:
    real_pi_env = {**os.environ, "PATH": real_pi.path()}
    line = line_of(pi_host.version, pi_host.package)
    root = build_tree(tmp_path / "set", dict(SET))
    resources = [r for r in discover(root) if r.kind == "extension"]
    by_hand = tmp_path / "by-hand"  # links as ext makes them: one per item, folders whole
    for r in resources:
        build_tree(by_hand, {r.dest: Path(r.source)})
    # Not a link: a file of the agent dir's own that re-exports the set's entry. jiti then
    # resolves the entry's imports from its real place, on 0.73 too (ext makes no such file).
    stubs = tmp_path / "stubs"
    for r in resources:
        [entry] = r.entries()
        build_tree(stubs, {f"extensions/{r.name}.ts": f'export {{ default }} from "{entry}";\n'})
    registered = tmp_path / "registered"
    registered.mkdir()
    linked = tmp_path / "linked"
    linked.mkdir()
    env = Env(environ=real_pi_env, cwd=tmp_path)
    install(resolve(env, root, registered), Install(mode="register"), yes)
    refused = None
    try:
        install(resolve(env, root, linked), Install(mode="link"), yes)
    except UsageError as exc:
        refused = exc
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    jobs = [(by_hand, cwd), (registered, cwd), (linked, cwd), (stubs, cwd)]
    views = ask(pi_host, jobs, real_pi_env, 120.0)
    assert not isinstance(views, Unavailable), views.reason
    hand, reg, ext_linked, stubbed = views

    # What ext reads from the sources is what a link loses, on either pi.
    predicted = {
        r.name
        for r in resources
        if escapes(Path(os.path.realpath(r.source)), [Path(p) for p in r.entries()], by_hand)
    }
    assert predicted == LOST
    failed = _failed(hand)
    if line.imports_from == "link":
        assert set(failed) == LOST
        assert "Cannot find module '../../lib/util'" in failed["foo"]
        assert "Cannot find module 'some-pkg'" in failed["bar"]
        # jiti was handed the link, not its target: the require stack is the agent dir's.
        assert f"- {by_hand}/extensions/foo/index.ts" in failed["foo"]
        assert refused is not None and refused.exit_code == 2
        assert all(name in refused.message for name in LOST)
        assert ext_linked.reals("extension") == frozenset() and not ext_linked.failed
    else:
        assert failed == {}
        assert refused is None
        assert not ext_linked.failed
        assert {_name(Path(p)) for p in ext_linked.reals("extension")} >= LOST | {"inner"}
    assert "inner" in {_name(Path(p)) for p in hand.reals("extension")}
    # Registered, the set loads in place: every import resolves, on each pi.
    assert not reg.failed, reg.failed
    assert {_name(Path(p)) for p in reg.reals("extension")} >= LOST | {"inner"}
    assert not stubbed.failed and len(stubbed.reals("extension")) == len(resources)
