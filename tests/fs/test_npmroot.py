"""Where npm put a pi, one rule for the update check and the drift and Node fixes."""

from __future__ import annotations

from pathlib import Path

import pytest

from installer.host.npmroot import is_global, npm_command
from tests.helpers import build_tree

PKG = "@earendil-works/pi-coding-agent"
CLI = f"node_modules/{PKG}/dist/bundle/cli.js"


@pytest.mark.parametrize(
    ("tree", "folder", "command"),
    [
        # a prefix of one's own (npm_config_prefix): no npm beside it, no package.json
        ({f"lib/{CLI}": ""}, "lib", f"npm install -g {PKG}@1.6.0"),
        # `npm --prefix ~/code/lib install …`: a folder that happens to be called lib
        ({f"lib/{CLI}": "", "lib/package.json": "{}"}, "lib", "npm --prefix {} install {}"),
        # scripts/setup's .cache/pi-1.6.0
        (
            {f"pi-1.6.0/{CLI}": "", "pi-1.6.0/package.json": "{}"},
            "pi-1.6.0",
            "npm --prefix {} install {}",
        ),
    ],
    ids=["own prefix", "a project called lib", "a local install"],
)
def test_the_fix_and_the_update_check_agree_on_where_pi_is(
    tmp_path: Path, tree: dict[str, str], folder: str, command: str
) -> None:
    build_tree(tmp_path, dict(tree))
    cli = tmp_path / folder / CLI
    said = npm_command("install", f"{PKG}@1.6.0", cli, PKG)
    assert said == command.format(tmp_path / folder, f"{PKG}@1.6.0")
    assert is_global(tmp_path / folder) == said.startswith("npm install -g ")
