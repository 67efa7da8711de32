"""ext's session recorder switched off in pi (`pi config` writes `-extensions/ext-sessions.ts`):
the process guards cannot know, so they refuse; doctor says so as an error."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from installer.commands.install import install
from installer.commands.toggle import switch
from installer.context import Context, Env, resolve
from installer.errors import ExitCode, Refused
from installer.recorder import RECORDER
from tests.fs.test_doctor_checks import doctor, only
from tests.fs.test_toggle_guards import SET
from tests.helpers import build_tree, snapshot, yes


@pytest.fixture
def ctx(tmp_path: Path) -> Context:
    set_root = build_tree(tmp_path / "set", dict(SET))
    agent = tmp_path / "agent"
    agent.mkdir()
    env = Env(environ=dict(os.environ), cwd=tmp_path, stdin_tty=True, stderr_tty=True)
    context = resolve(env, set_root, agent)
    install(context, [], [], False, yes)
    return context


def pi_config_off(agent: Path, path: str) -> None:
    """What `pi config` writes to switch off a resource of the agent dir (pinned in e2e)."""
    settings = agent / "settings.json"
    data = json.loads(settings.read_text()) if settings.exists() else {}
    data["extensions"] = [*data.get("extensions", []), f"-{path}"]
    settings.write_text(json.dumps(data, indent=2))


def test_a_guard_that_cannot_see_sessions_refuses(ctx: Context) -> None:
    assert (ctx.agent_dir / RECORDER).is_symlink()
    pi_config_off(ctx.agent_dir, RECORDER)
    tree = snapshot(ctx.agent_dir / "extensions")
    with pytest.raises(Refused) as err:
        switch(ctx, ["alpha"], False, False, False, yes)
    assert err.value.exit_code == ExitCode.REFUSED
    assert "ext cannot see pi's sessions" in err.value.message
    assert "-extensions/ext-sessions.ts" in err.value.message
    assert snapshot(ctx.agent_dir / "extensions") == tree
    forced = switch(ctx, ["alpha"], False, True, False, yes)
    assert forced.applied and any("--force" in w for w in forced.plan.warnings)


def test_a_parked_recorder_refuses_too(ctx: Context) -> None:
    link = ctx.agent_dir / RECORDER
    link.rename(link.with_name(link.name + ".off"))
    with pytest.raises(Refused) as err:
        switch(ctx, ["alpha"], False, False, False, yes)
    assert "parked" in err.value.message


def test_doctor_reports_the_recorder_switched_off_in_pi_as_an_error(
    ctx: Context, tmp_path: Path
) -> None:
    pi_config_off(ctx.agent_dir, RECORDER)
    [finding] = only(doctor(tmp_path, ctx.set_root, ctx.agent_dir), "recorder")
    assert finding.level == "error"
    assert "-extensions/ext-sessions.ts" in finding.message and "pi config" in (finding.fix or "")
