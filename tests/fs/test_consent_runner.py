"""`ext consent` and `ext doctor` say whether pi honours the approvals: project-hooks, and where."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from installer.cli.app import app
from installer.consent import commands
from installer.consent.runner import find_runner
from tests.helpers import build_tree

HOOKS = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify done"}]}]}}
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def agent(tmp_path: Path) -> Path:
    path = tmp_path / "agent"
    (path / "extensions").mkdir(parents=True)
    return path


@pytest.fixture
def proj(tmp_path: Path, agent: Path) -> Path:
    proj = build_tree(tmp_path / "shop", {".claude/settings.json": json.dumps(HOOKS)})
    commands.approve(agent, proj, commands.describe_approval(agent, proj))
    return proj


def ext(agent: Path, *args: str) -> tuple[int, str]:
    done = CliRunner().invoke(
        app, ["--set", str(REPO), "--agent-dir", str(agent), *args], env={"NO_COLOR": "1"}
    )
    return done.exit_code, done.output


def doctor_row(agent: Path) -> dict[str, str]:
    _, output = ext(agent, "--json", "doctor", "--check", "consent.runner")
    [row] = [c for c in json.loads(output)["checks"] if c["id"] == "consent.runner"]
    return dict(row)


def test_not_installed_the_approvals_are_said_to_run_nowhere(agent: Path, proj: Path) -> None:
    code, output = ext(agent, "consent", "check", str(proj))
    assert code == 0
    assert "pi runs no project hooks" in output and "not installed" in output
    assert f"not installed in {agent}." in " ".join(output.split()), output  # which dir: named
    row = doctor_row(agent)
    assert row["level"] == "warn" and "1 approved project" in row["message"]
    assert "ext install" in row["fix"]


def test_approving_says_whether_pi_will_run_what_was_approved(agent: Path, tmp_path: Path) -> None:
    shop = build_tree(tmp_path / "other", {".claude/settings.json": json.dumps(HOOKS)})
    code, output = ext(agent, "consent", "approve", str(shop), "--yes")
    assert code == 0
    assert "Approved 1 hook in" in output
    assert "pi runs no project hooks" in output and "not installed" in output
    (agent / "extensions" / "project-hooks").symlink_to(REPO / "extensions" / "project-hooks")
    (shop / ".claude/settings.json").write_text(json.dumps({**HOOKS, "model": "m"}))
    _, data = ext(agent, "--json", "consent", "approve", str(shop), "--yes")
    assert json.loads(data)["runner"]["state"] == "enabled"
    _, output = ext(agent, "consent", "approve", str(shop), "--yes")
    assert "Already approved" in output and "project-hooks extension is enabled" in output


def test_linked_and_enabled_it_names_the_projects_it_would_run(agent: Path, proj: Path) -> None:
    (agent / "extensions" / "project-hooks").symlink_to(REPO / "extensions" / "project-hooks")
    code, output = ext(agent, "consent", "list")
    assert code == 0
    assert "the project-hooks extension is enabled" in output
    assert f"Hooks that would run in pi: {proj}" in output
    _, data = ext(agent, "--json", "consent", "list")
    assert json.loads(data)["runner"]["state"] == "enabled"
    row = doctor_row(agent)
    assert row["level"] == "ok" and str(proj) in row["message"]

    (proj / ".claude/settings.json").write_text(json.dumps({"hooks": {"Stop": []}}))
    _, output = ext(agent, "consent", "list")
    assert "No approved project's hooks would run" in output


def test_parked_it_is_disabled_and_the_fix_enables_it(agent: Path, proj: Path) -> None:
    (agent / "extensions" / ".off").mkdir()
    (agent / "extensions" / ".off" / "project-hooks").symlink_to(
        REPO / "extensions" / "project-hooks"
    )
    assert find_runner(agent).state == "disabled"
    row = doctor_row(agent)
    assert row["level"] == "warn" and row["fix"] == "ext enable project-hooks"


def test_registered_as_a_package_it_counts_unless_filtered_out(agent: Path, tmp_path: Path) -> None:
    (agent / "settings.json").write_text(json.dumps({"packages": [str(REPO)]}))
    assert find_runner(agent).state == "enabled"
    filtered = {"source": str(REPO), "extensions": ["-extensions/project-hooks/index.ts"]}
    (agent / "settings.json").write_text(json.dumps({"packages": [filtered]}))
    assert find_runner(agent).state == "disabled"
    (agent / "settings.json").write_text(json.dumps({"packages": [str(tmp_path)]}))
    assert find_runner(agent).state == "not-installed"


@pytest.mark.parametrize(
    "filters",
    [[], ["extensions/notify.ts"], ["!extensions/project-hooks/**"]],
    ids=["none", "only-another", "glob-out"],
)
def test_a_package_filter_that_leaves_it_out_is_disabled(agent: Path, filters: list[str]) -> None:
    # pi 0.73.1's loader loads no project-hooks from each of these entries
    entry = {"source": str(REPO), "extensions": filters}
    (agent / "settings.json").write_text(json.dumps({"packages": [entry]}))
    assert find_runner(agent).state == "disabled"


def test_linked_but_switched_off_in_pi_config_it_is_disabled(agent: Path, proj: Path) -> None:
    (agent / "extensions" / "project-hooks").symlink_to(REPO / "extensions" / "project-hooks")
    off = {"extensions": ["-extensions/project-hooks/index.ts"]}  # as `pi config` writes it
    (agent / "settings.json").write_text(json.dumps(off))

    runner = find_runner(agent)

    assert runner.state == "disabled" and "-extensions/project-hooks/index.ts" in str(runner.where)
    assert doctor_row(agent)["level"] == "warn"


@pytest.mark.parametrize("spoil", ["fifo", "dev-zero"])
def test_a_settings_json_that_is_a_fifo_or_dev_zero_is_read_as_no_settings_at_once(
    tmp_path: Path, spoil: str
) -> None:
    """A trial: `ext doctor` and `ext consent list` hung on an agent dir whose settings.json
    was a FIFO, and read /dev/zero until memory ran out: where pi would load project-hooks
    from (and pi's self-update command) read settings.json with no type or size check."""
    import threading

    from installer.consent.runner import find_runner
    from installer.updates.hostmethod import self_update_argv

    agent = tmp_path / "agent"
    agent.mkdir()
    if spoil == "fifo":
        os.mkfifo(agent / "settings.json")
    else:
        (agent / "settings.json").symlink_to("/dev/zero")
    found: list[object] = []

    def read() -> None:
        found.append(find_runner(agent).state)
        found.append(self_update_argv({"PI_CODING_AGENT_DIR": str(agent), "HOME": str(tmp_path)}))

    reader = threading.Thread(target=read, daemon=True)  # a hang must fail, not stop the suite
    reader.start()
    reader.join(30)
    assert found == ["not-installed", None]
