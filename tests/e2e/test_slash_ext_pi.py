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


def test_ext_switched_off_in_settings_is_said_as_the_users_choice_with_its_fix(
    ext: Run, tmp_path: Path, pi_bin: Path
) -> None:
    """pi does not load /ext because the user switched it off: not an error whose fix
    (`ext install`) changes nothing, but the switch and how to undo it."""
    root = build_tree(tmp_path / "set", {"extset.toml": '[set]\nname = "plain"\n'})
    build_tree(root, {"extensions/hello.ts": "export default function () {}\n"})
    agent = tmp_path / "agent"
    common = ("--set", str(root), "--agent-dir", str(agent))
    ext(*common, "install", "--create", "--yes", check=True)
    settings = agent / "settings.json"
    data = json.loads(settings.read_text()) if settings.exists() else {}
    settings.write_text(json.dumps({**data, "extensions": ["-extensions/ext-command.ts"]}))
    found = rows(ext(*common, "--json", "doctor", "--deep", "--check", "command.pi"))
    row = found["command.pi"]
    assert row["level"] == "info", row
    assert row["message"].startswith("pi does not load ext's /ext: ")
    assert "switched off" in row["message"]
    assert row["fix"].startswith("switch it back on: `pi config`")
