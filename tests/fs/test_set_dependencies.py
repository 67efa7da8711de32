"""An extension's npm dependencies that Node would not find: said by doctor before pi fails to
load it, and by adopt, whose copy leaves node_modules/ out."""

from __future__ import annotations

import json
from pathlib import Path

from installer.commands.adopt import adopt_items
from installer.ground.context import Env, resolve
from installer.sets.dependencies import missing
from tests.helpers import build_tree, yes

CODE = 'import tiny from "tinydep";\nexport default function (pi) {}\n'


def package(*names: str) -> str:
    return json.dumps({"name": "x", "dependencies": dict.fromkeys(names, "1.0.0")})


def test_a_dependency_counts_as_found_in_any_node_modules_on_the_way_up(tmp_path: Path) -> None:
    root = build_tree(
        tmp_path / "set",
        {
            "extensions/a/package.json": package("tinydep", "other"),
            "extensions/a/index.ts": CODE,
            "node_modules/other/index.js": "",  # the set's own, found from below
            "extensions/b/package.json": package("tinydep"),
            "extensions/b/index.ts": CODE,
            "extensions/b/node_modules/tinydep/index.js": "",
            "extensions/c.ts": CODE,  # no package.json of its own, nor the set's
        },
    )
    lost = missing(root / "extensions/a/index.ts", root)
    assert lost is not None and lost.names == ("tinydep",)
    # what pi gives every extension itself is never missing (a review: doctor said it was)
    given = ("@earendil-works/pi-coding-agent", "@sinclair/typebox", "typebox", "tinydep")
    (root / "extensions/a/package.json").write_text(package(*given))
    lost = missing(root / "extensions/a/index.ts", root)
    assert lost is not None and lost.names == ("tinydep",)
    assert lost.manifest == root / "extensions/a/package.json"
    assert missing(root / "extensions/b/index.ts", root) is None
    assert missing(root / "extensions/c.ts", root) is None
    (root / "package.json").write_text(package("leftpad"))  # the set's, for c
    lost = missing(root / "extensions/c.ts", root)
    assert lost is not None and lost.names == ("leftpad",)


def test_doctor_warns_with_the_install_to_run_and_adopt_says_it_too(tmp_path: Path) -> None:
    """A trial: adopting a folder extension with npm dependencies copied it without its
    node_modules/; pi then could not load it, and plain doctor said all was well."""
    from installer.doctor.registry import CHECKS
    from installer.doctor.subject import resolve_subject

    root = build_tree(tmp_path / "set", {"extset.toml": '[set]\nname = "mine"\n'})
    agent = build_tree(
        tmp_path / "agent",
        {
            "extensions/cloned/package.json": package("tinydep"),
            "extensions/cloned/index.ts": CODE,
            "extensions/cloned/node_modules/tinydep/index.js": "module.exports = 1;\n",
        },
    )
    ctx = resolve(Env(cwd=tmp_path), root, agent)
    result = adopt_items(ctx, ["cloned"], False, None, False, yes)
    assert result.applied
    (said,) = [n for n in result.notes if n.startswith("pi cannot load extensions/cloned")]
    assert said.endswith(f"cd {root}/extensions/cloned && npm install")
    check = next(c for c in CHECKS if c.id == "set.dependencies")
    subject = resolve_subject(Env(cwd=tmp_path), root, agent, host_finder=lambda _c, _p: None)
    (found,) = check.run(subject)
    assert found.level == "warn" and "needs tinydep" in found.message
    assert found.fix == f"cd {root}/extensions/cloned && npm install"
