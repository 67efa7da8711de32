"""set.dependencies against the real pi: an extension whose package.json names a package no
node_modules/ holds is one pi's own loader fails to load (`Cannot find module`), once the
package is installed it loads; and what pi gives every extension itself (typebox) is never
said missing, as pi loads it without a node_modules/ (each real pi)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.e2e.conftest import Run, loader_view
from tests.helpers import build_tree

pytestmark = [pytest.mark.e2e, pytest.mark.usefixtures("real_pi")]

CODE = (
    'import { Type } from "@sinclair/typebox";\n'
    'import tiny from "tinydep";\n'
    "export default function (pi) { void Type; void tiny; }\n"
)


def loaded_and_failed(agent: Path, cwd: Path, env: dict[str, str]) -> tuple[set[str], set[str]]:
    """Real paths of the extensions pi's own loader loads, and of those it failed to load."""
    view = loader_view(agent, cwd, env)
    failed = {f.real for f in view.failed if "tinydep" in f.error}
    return set(view.reals("extension")), failed


def test_a_missing_dependency_is_said_and_is_what_pi_fails_on(
    ext: Run, e2e_env: dict[str, str], tmp_path: Path
) -> None:
    deps = {"tinydep": "1.0.0", "@sinclair/typebox": "*"}
    set_root = build_tree(
        tmp_path / "set",
        {
            "extset.toml": '[set]\nname = "deps"\n',
            "extensions/cloned/package.json": json.dumps({"name": "cloned", "dependencies": deps}),
            "extensions/cloned/index.ts": CODE,
        },
    )
    agent = tmp_path / "agent"
    at = ("--set", str(set_root), "--agent-dir", str(agent))
    ext(*at, "install", "--create", "--yes", check=True)
    entry = os.path.realpath(set_root / "extensions/cloned/index.ts")

    said = json.loads(ext(*at, "--json", "doctor", "--check", "set.dependencies").stdout)
    (found,) = [f for f in said["checks"] if f["id"] == "set.dependencies"]
    assert found["level"] == "warn" and "needs tinydep, which" in found["message"]  # typebox: pi's
    loaded, failed = loaded_and_failed(agent, set_root, e2e_env)
    assert entry in failed and entry not in loaded

    build_tree(
        set_root / "extensions/cloned/node_modules/tinydep",
        {
            "package.json": '{"name": "tinydep", "main": "index.js"}',
            "index.js": "module.exports = 1;\n",
        },
    )
    said = json.loads(ext(*at, "--json", "doctor", "--check", "set.dependencies").stdout)
    (found,) = [f for f in said["checks"] if f["id"] == "set.dependencies"]
    assert found["level"] == "ok"
    loaded, failed = loaded_and_failed(agent, set_root, e2e_env)
    assert entry in loaded and not failed
