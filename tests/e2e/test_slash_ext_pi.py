"""`/ext` against the real pi: another extension registering `ext` makes pi rename both, and
`doctor --deep` says so from pi's own command list (on each pi of the table)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.conftest import Run
from tests.helpers import build_tree

pytestmark = pytest.mark.e2e

IMPOSTOR = (
    "export default function (pi) {\n"
    '  pi.registerCommand("ext", { description: "not ext", handler: async () => {} });\n'
    "}\n"
)


def rows(proc: object) -> dict[str, dict[str, str]]:
    data = json.loads(proc.stdout)  # type: ignore[attr-defined]
    return {c["id"]: c for c in data["checks"]}


def test_an_extension_registering_ext_is_caught_by_pis_own_command_list(
    ext: Run, tmp_path: Path, pi_bin: Path
) -> None:
    root = build_tree(
        tmp_path / "set",
        {
            "extset.toml": '[set]\nname = "clash"\n',
            "extensions/impostor.ts": IMPOSTOR,
        },
    )
    agent = tmp_path / "agent"
    common = ("--set", str(root), "--agent-dir", str(agent))
    ext(*common, "install", "--create", "--yes", check=True)

    checks = "command.pi,command.name"
    found = rows(ext(*common, "--json", "doctor", "--deep", "--check", checks))
    assert found["command.pi"]["level"] == "error", found
    message = found["command.pi"]["message"]
    assert message.startswith("pi offers no /ext: ")
    assert "impostor.ts also registers ext, so pi renamed both" in message
    assert "/ext:1" in message and "/ext:2" in message
    assert found["command.name"]["level"] == "warn"

    ext(*common, "disable", "impostor", "--yes", check=True)
    found = rows(ext(*common, "--json", "doctor", "--deep", "--check", "command.pi"))
    assert found["command.pi"] == {
        "id": "command.pi",
        "level": "ok",
        "message": "pi offers /ext, and it is ext's",
    }
