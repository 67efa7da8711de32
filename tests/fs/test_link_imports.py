"""Link mode on a pi that resolves a linked extension's imports from the link (0.73): an import
the link cannot carry is refused at install, said by doctor, and its deep fix is not `npm`.

The pis here are fakes in npm's global layout (only a package.json: ext reads it, no Node
starts). That pi 0.73.1 really fails to load these layouts through a link, loads them
registered, and that 1.6.0 loads them both ways, is proven against the real pis in
tests/conformance/test_link_imports.py.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from installer.commands.install import Install, install
from installer.doctor import Finding, resolve_subject, run_checks
from installer.doctor.checks.failures import failure_fix
from installer.doctor.checks.host import load_findings
from installer.ground.context import Env, resolve
from installer.ground.errors import UsageError
from installer.host.lines import NEW_PACKAGE, OLD_PACKAGE
from installer.host.pi import LoadFailure, LoadReport, find_host
from installer.sets.link_imports import escapes
from tests.helpers import build_tree, set_links, yes

PKG = {"name": "some-pkg", "version": "1.0.0", "main": "index.js"}
LOST = {
    "extset.toml": '[set]\nname = "lost"\nmode = "link"\n',
    "lib/util.ts": 'export const hello = () => "hi";\n',
    "extensions/foo/index.ts": (
        'import { hello } from "../../lib/util";\nexport default function (pi) { hello(); }\n'
    ),
    "node_modules/some-pkg/package.json": json.dumps(PKG),
    "node_modules/some-pkg/index.js": "module.exports = { x: 1 };\n",
    "extensions/bar.ts": 'import { x } from "some-pkg";\nexport default function (pi) { x; }\n',
    "extensions/plain.ts": "export default function (pi) {}\n",
}


def fake_pi(tmp_path: Path, package: str, version: str) -> str:
    """A PATH whose `pi` is `package` at `version`, laid out as `npm install -g` does."""
    prefix = tmp_path / f"pi-{version}"
    pkg = prefix / "lib" / "node_modules" / package
    bin_rel = "dist/cli.js" if package == OLD_PACKAGE else "dist/bundle/cli.js"
    data = {"name": package, "version": version, "bin": {"pi": bin_rel}}
    build_tree(pkg, {"package.json": json.dumps(data), bin_rel: "#!/usr/bin/env node\n"})
    (pkg / bin_rel).chmod(0o755)
    (prefix / "bin").mkdir()
    os.symlink(pkg / bin_rel, prefix / "bin" / "pi")
    return str(prefix / "bin")


@pytest.fixture
def old_pi(tmp_path: Path) -> str:
    return fake_pi(tmp_path, OLD_PACKAGE, "0.73.1")


@pytest.fixture
def new_pi(tmp_path: Path) -> str:
    return fake_pi(tmp_path, NEW_PACKAGE, "1.6.0")


def run_install(tmp_path: Path, root: Path, agent: Path, path: str, **options: object) -> None:
    env = Env(environ={**os.environ, "PATH": path}, cwd=tmp_path)
    install(resolve(env, root, agent), Install(**options), yes)  # type: ignore[arg-type]


def agent_dir(tmp_path: Path, name: str = "agent") -> Path:
    path = tmp_path / name
    path.mkdir()
    return path


def imports_rows(env: Env, root: Path, agent: Path) -> list[Finding]:
    return [f for f in run_checks(resolve_subject(env, root, agent)) if f.id == "host.imports"]


def test_the_fakes_are_found_as_the_pis_they_stand_for(old_pi: str, new_pi: str) -> None:
    old, new = find_host("pi", old_pi), find_host("pi", new_pi)
    assert old is not None and (old.version, old.package) == ("0.73.1", OLD_PACKAGE)
    assert new is not None and (new.version, new.package) == ("1.6.0", NEW_PACKAGE)


def test_on_0_73_link_mode_refuses_imports_the_links_lose_naming_each_and_the_fix(
    tmp_path: Path, old_pi: str
) -> None:
    root = build_tree(tmp_path / "set", dict(LOST))
    agent = agent_dir(tmp_path)
    with pytest.raises(UsageError) as caught:
        run_install(tmp_path, root, agent, old_pi)
    err = caught.value
    assert err.exit_code == 2
    assert "link mode cannot install bar, foo for pi 0.73.1" in err.message
    assert 'extensions/foo/index.ts:1 imports "../../lib/util" (outside foo\'s folder)' in (
        err.message
    )
    assert 'extensions/bar.ts:1 imports "some-pkg" (in node_modules/, outside bar)' in err.message
    assert "plain" not in err.message
    assert "`ext install --mode register`" in (err.fix or "")
    assert "--skip bar,foo" in (err.fix or "")
    assert list(agent.iterdir()) == []  # nothing was changed


def test_on_0_73_register_mode_and_a_skip_of_the_lost_ones_install(
    tmp_path: Path, old_pi: str
) -> None:
    root = build_tree(tmp_path / "set", dict(LOST))
    skipped = agent_dir(tmp_path, "skipped")
    run_install(tmp_path, root, skipped, old_pi, skip=("foo", "bar"))
    assert set(set_links(skipped)) == {"extensions/plain.ts"}
    registered = agent_dir(tmp_path, "registered")
    run_install(tmp_path, root, registered, old_pi, mode="register")
    settings = json.loads((registered / "settings.json").read_text())
    assert settings["packages"] == [str(root)]
    env = Env(environ={**os.environ, "PATH": old_pi}, cwd=tmp_path)
    [row] = imports_rows(env, root, registered)
    assert row.level == "ok" and "no extension of the set is linked here" in row.message


def test_on_1_x_and_with_no_pi_found_the_same_set_links_without_a_word(
    tmp_path: Path, new_pi: str
) -> None:
    root = build_tree(tmp_path / "set", dict(LOST))
    for name, path in (("new", new_pi), ("none", str(agent_dir(tmp_path, "empty-path")))):
        agent = agent_dir(tmp_path, name)
        run_install(tmp_path, root, agent, path)
        assert {"extensions/foo", "extensions/bar.ts"} <= set(set_links(agent))


def test_imports_a_link_carries_are_not_refused(tmp_path: Path, old_pi: str) -> None:
    """Inside its folder, its own node_modules, types, builtins, pi's own modules, a package
    the agent dir's side also has: all resolve from the link as from the set."""
    own = {**PKG, "name": "own-pkg"}
    root = build_tree(
        tmp_path / "set",
        {
            "extset.toml": '[set]\nname = "kept"\n',
            "lib/types.ts": "export interface T { a: number }\n",
            "extensions/inner/index.ts": (
                'import { h } from "./sub/helper.js";\n'
                'import type { T } from "../../lib/types";\n'
                'import { readFileSync } from "node:fs";\nimport { EventEmitter } from "events";\n'
                'import { Type } from "typebox";\nimport { complete } from "@mariozechner/pi-ai";\n'
                'import { y } from "own-pkg";\nimport { z } from "shared-pkg";\n'
                "export default function (pi) { h; readFileSync; EventEmitter; Type; complete;"
                " y; z; const t: T = { a: 1 }; }\n"
            ),
            "extensions/inner/sub/helper.ts": "export const h = 1;\n",
            "extensions/inner/node_modules/own-pkg/package.json": json.dumps(own),
            "extensions/inner/node_modules/own-pkg/index.js": "module.exports = { y: 2 };\n",
            "node_modules/events/package.json": json.dumps({**PKG, "name": "events"}),
            "node_modules/typebox/package.json": json.dumps({**PKG, "name": "typebox"}),
            "node_modules/@mariozechner/pi-ai/package.json": json.dumps(PKG),
            "node_modules/shared-pkg/package.json": json.dumps({**PKG, "name": "shared-pkg"}),
        },
    )
    agent = agent_dir(tmp_path)
    build_tree(agent, {"node_modules/shared-pkg/package.json": json.dumps(PKG)})
    run_install(tmp_path, root, agent, old_pi)
    assert "extensions/inner" in set_links(agent)


def test_a_relative_import_beyond_a_folder_file_reached_from_the_entry_is_refused(
    tmp_path: Path, old_pi: str
) -> None:
    """What the entry's own imports reach is read too; a file nothing imports is not."""
    root = build_tree(
        tmp_path / "set",
        {
            "extset.toml": '[set]\nname = "deep"\n',
            "lib/log.ts": "export const log = 1;\n",
            "extensions/deep/index.ts": 'import { g } from "./go";\nexport default () => g;\n',
            "extensions/deep/go.ts": (
                'import { log } from "../../lib/log";\nexport const g = log;\n'
            ),
            "extensions/deep/unused.test.ts": 'import { x } from "../../nowhere/else";\nx;\n',
        },
    )
    with pytest.raises(UsageError) as caught:
        run_install(tmp_path, root, agent_dir(tmp_path), old_pi)
    assert 'extensions/deep/go.ts:1 imports "../../lib/log"' in caught.value.message
    assert "nowhere" not in caught.value.message


def test_a_no_op_install_reads_no_source_and_doctor_says_what_pi_0_73_loses(
    tmp_path: Path, old_pi: str, new_pi: str
) -> None:
    """Linked under 1.x, then pi 0.73 on PATH: the next install plans no link, so it does not
    refuse; the static doctor check names each loss and the fix before any --deep."""
    root = build_tree(tmp_path / "set", dict(LOST))
    agent = agent_dir(tmp_path)
    run_install(tmp_path, root, agent, new_pi)
    run_install(tmp_path, root, agent, old_pi)  # a no-op: nothing would be linked
    env = Env(environ={**os.environ, "PATH": old_pi}, cwd=tmp_path)
    found = imports_rows(env, root, agent)
    assert [f.level for f in found] == ["error", "error"]
    assert found[0].message.startswith('bar: extensions/bar.ts:1 imports "some-pkg"')
    assert "pi 0.73.1 resolves a linked extension's imports from its link" in found[0].message
    assert found[1].message.startswith("foo: extensions/foo/index.ts:1 imports")
    assert all("--mode register" in (f.fix or "") for f in found)
    env_new = Env(environ={**os.environ, "PATH": new_pi}, cwd=tmp_path)
    [fine] = [
        f for f in run_checks(resolve_subject(env_new, root, agent)) if f.id == "host.imports"
    ]
    assert fine.level == "ok" and "1.6.0 resolves" in fine.message


def test_the_deep_fix_for_a_module_the_link_lost_names_register_mode_not_npm(
    tmp_path: Path,
) -> None:
    root = build_tree(tmp_path / "set", dict(LOST))
    agent = build_tree(tmp_path / "agent", {"extensions/bar.ts": root / "extensions/bar.ts"})
    real, link = root / "extensions" / "bar.ts", str(agent / "extensions" / "bar.ts")
    reason = f"Failed to load extension: Cannot find module 'some-pkg'\nRequire stack:\n- {link}"
    fix = failure_fix(real, reason, "bar", link, str(root))
    assert "npm install" not in fix
    assert "from its link in the agent dir" in fix and "`ext install --mode register`" in fix
    assert str(root / "node_modules" / "some-pkg") in fix
    # Looked for from the real file (1.x, or register mode), the module really is missing
    # there: the require stack names the set's file, and npm is the fix.
    in_place = f"Failed to load extension: Cannot find module 'left-pad'\nRequire stack:\n- {real}"
    assert failure_fix(real, in_place, "bar", str(real), str(root)).startswith("cd ")
    assert failure_fix(real, in_place, "bar", link, str(root)).startswith("cd ")
    no_stack = "Failed to load extension: Cannot find module 'some-pkg'"
    assert "--mode register" in failure_fix(real, no_stack, "bar", link, str(root))
    assert "npm install" in failure_fix(real, no_stack, "bar", str(real), str(root))


def test_host_load_reads_pis_require_stack_for_the_fix(tmp_path: Path) -> None:
    """`pi -p` prints the require stack under the reason; host.load hands both to the fix."""
    root = build_tree(tmp_path / "set", dict(LOST))
    links = {f"extensions/{n}": root / "extensions" / n for n in ("foo", "bar.ts")}
    agent = build_tree(tmp_path / "agent", dict(links))
    link = agent / "extensions" / "foo" / "index.ts"
    failure = LoadFailure(
        link,
        "Failed to load extension: Cannot find module '../../lib/util'",
        f"Require stack:\n- {link}",
    )
    report = LoadReport((failure,), False, True, 1, "")
    [found] = load_findings(report, {str(root / "extensions/foo/index.ts"): "foo"}, "pi", str(root))
    assert found.level == "error" and found.message.startswith("foo: ")
    fix = found.fix or ""
    assert "--mode register" in fix and str(root / "lib" / "util.ts") in fix
    # A stack naming the set's own file (1.x realpaths the entry): not the link's loss.
    real = root / "extensions" / "bar.ts"
    seen_real = LoadFailure(
        agent / "extensions" / "bar.ts",
        "Failed to load extension: Cannot find module 'some-pkg'",
        f"Require stack:\n- {real}",
    )
    report = LoadReport((seen_real,), False, True, 1, "")
    [found] = load_findings(report, {str(real): "bar"}, "pi", str(root))
    assert (found.fix or "").startswith(f"cd {root} && npm install")


def test_every_import_form_is_read_even_past_a_comment(tmp_path: Path) -> None:
    """The quick pass that skips files importing nothing a link can lose misses no form."""
    forms = {
        "a.ts": 'import { u } from /* why */ "../../lib/util";\nexport default () => u;\n',
        "b.ts": 'export * from "../../lib/util";\n',
        "c.js": 'const u = require(\n  "../../lib/util");\nmodule.exports = () => u;\n',
        "d.ts": "export default async () => (await import(`../../lib/util`)).hello;\n",
        "e.ts": 'import "../../lib/util";\nexport default () => 1;\n',
        "f.ts": 'import { x } from // the shared one\n  "some-pkg";\nexport default () => x;\n',
    }
    spec: dict[str, str | bytes | Path | None] = {k: v for k, v in LOST.items() if "/" in k}
    spec |= {f"extensions/many/{name}": text for name, text in forms.items()}
    root = build_tree(tmp_path / "set", spec)
    folder = root / "extensions" / "many"
    found = escapes(folder, sorted(folder.iterdir()), tmp_path / "agent" / "extensions")
    assert sorted(e.file.name for e in found) == sorted(forms)
