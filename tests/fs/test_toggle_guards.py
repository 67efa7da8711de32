"""Guards on real folders: the session registry, refusals, --force, and ext's session recorder."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from installer.agent.recorder import RECORDER, copy_path, sha256, source_bytes, status
from installer.agent.sessions import (
    live_sessions,
    process_start,
    sessions_dir,
    write_session_record,
)
from installer.commands.install import Install, install
from installer.commands.toggle import Choice, checklist, switch, switch_both
from installer.commands.uninstall import Uninstall, uninstall
from installer.engine.result import PlanResult
from installer.ground.context import Context, Env, resolve
from installer.ground.errors import ExitCode, Refused
from installer.ground.state import load_state
from tests.fs.test_doctor_checks import doctor, only
from tests.helpers import build_tree, snapshot, yes

MANIFEST = """\
[set]
name = "tools"

[guards.alpha]
process = "--alpha-on"
reason = "alpha's tools are bound to the live session"

[guards.beta]
required_by = ["gamma"]
"""
SET = {
    "extset.toml": MANIFEST,
    "extensions/alpha.ts": "export default function alpha() {}\n",
    "extensions/beta.ts": "export default function beta() {}\n",
    "extensions/gamma/index.ts": "export default function gamma() {}\n",
}


@pytest.fixture
def set_root(tmp_path: Path) -> Path:
    return build_tree(tmp_path / "set", dict(SET))


@pytest.fixture
def ctx(set_root: Path, tmp_path: Path) -> Context:
    agent = tmp_path / "agent"
    agent.mkdir()
    env = Env(environ=dict(os.environ), cwd=tmp_path, stdin_tty=True, stderr_tty=True)
    context = resolve(env, set_root, agent)
    install(context, Install(), yes)
    return context


def off(ctx: Context, *names: str, force: bool = False, dry_run: bool = False) -> PlanResult:
    return switch(ctx, names, False, force, dry_run, yes)


def gone_pid() -> int:
    """A pid that was just used and is now free (its process ran and was reaped)."""
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


def record_file(agent: Path, pid: int, **fields: object) -> Path:
    path = sessions_dir(agent) / f"{pid}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"pid": pid, "argv": ["pi", "--alpha-on"], **fields}))
    return path


def test_a_live_session_with_the_flag_refuses_and_force_overrides(ctx: Context) -> None:
    write_session_record(ctx.agent_dir, ["pi", "--alpha-on", "x"])  # this test is the "host"
    tree = snapshot(ctx.agent_dir / "extensions")
    with pytest.raises(Refused) as err:
        off(ctx, "alpha")
    assert err.value.exit_code == ExitCode.REFUSED
    assert f"pid {os.getpid()}: --alpha-on x" in err.value.message
    assert "alpha's tools are bound to the live session" in err.value.message
    assert snapshot(ctx.agent_dir / "extensions") == tree
    result = switch(ctx, ["alpha"], False, True, False, yes)
    assert result.applied
    assert any(w.startswith("--force: disabling alpha") for w in result.plan.warnings)
    assert (ctx.agent_dir / "extensions/alpha.ts.off").is_symlink()


def test_a_session_without_the_flag_does_not_refuse(ctx: Context) -> None:
    write_session_record(ctx.agent_dir, ["pi", "--other"])
    assert off(ctx, "alpha").applied


def test_stale_records_are_ignored_and_cleaned(ctx: Context) -> None:
    start = process_start(os.getpid())
    assert start is not None and start.ticks is not None
    dead = record_file(ctx.agent_dir, gone_pid(), start_ticks=1)
    reused = record_file(ctx.agent_dir, os.getpid(), start_ticks=start.ticks + 1)
    broken = sessions_dir(ctx.agent_dir) / "999.json"
    broken.write_text("{not json")
    off(ctx, "alpha", dry_run=True)
    assert dead.exists() and reused.exists() and broken.exists()  # a dry run writes nothing
    assert off(ctx, "alpha").applied
    assert not dead.exists() and not reused.exists() and not broken.exists()


def test_the_registry_reads_back_what_launch_writes(ctx: Context) -> None:
    path = write_session_record(ctx.agent_dir, ["pi", "--alpha-on"])
    assert path == sessions_dir(ctx.agent_dir) / f"{os.getpid()}.json"
    (live,) = live_sessions(ctx.agent_dir)
    assert live.pid == os.getpid() and live.has_flag("--alpha-on") and live.writer == "launch"
    path.unlink()
    assert live_sessions(ctx.agent_dir) == []


def test_an_enabled_dependent_refuses_unless_it_goes_off_too(ctx: Context) -> None:
    with pytest.raises(Refused) as err:
        off(ctx, "beta")
    assert "refusing to disable beta: gamma is enabled and needs it" in err.value.message
    assert off(ctx, "beta", "gamma").applied


def test_a_refusal_in_json_names_each_item_kept_on_and_why_for_the_ext_command(
    ctx: Context,
) -> None:
    """`/ext` keeps exactly those on and applies the rest of its batch: it needs the names."""
    from click.testing import CliRunner

    from installer.cli.app import app

    write_session_record(ctx.agent_dir, ["pi", "--alpha-on"])
    tree = snapshot(ctx.agent_dir / "extensions")
    args = ["--set", str(ctx.set_root), "--agent-dir", str(ctx.agent_dir), "--json", "toggle"]
    result = CliRunner().invoke(app, [*args, "--off", "alpha", "--off", "beta", "--yes"])

    assert result.exit_code == ExitCode.REFUSED
    data = json.loads(result.stdout)
    assert data["error"].endswith("; nothing was written")
    assert [r["name"] for r in data["refused"]] == ["alpha", "beta"]
    alpha, beta = (r["why"] for r in data["refused"])
    assert f"a live session (pid {os.getpid()}: --alpha-on) was started with --alpha-on" in alpha
    assert alpha.endswith("(alpha's tools are bound to the live session)")
    assert beta == "gamma is enabled and needs it"
    assert snapshot(ctx.agent_dir / "extensions") == tree


def test_toggle_checks_the_guards_against_the_whole_picture(ctx: Context) -> None:
    def pick(labels: list[str]) -> Callable[[list[Choice], Any], list[str]]:
        return lambda choices, check: labels

    with pytest.raises(Refused):
        checklist(ctx, pick(["alpha", "gamma"]), False, yes)
    result = checklist(ctx, pick(["alpha"]), False, yes)
    assert sorted(a.path for a in result.plan.changes) == ["extensions/beta.ts", "extensions/gamma"]


def test_toggle_asks_the_guards_at_each_row_with_the_batch_as_it_stands(ctx: Context) -> None:
    answers: dict[str, str | None] = {}

    def switch_rows(choices: list[Choice], check: Any) -> list[str] | None:
        answers["beta off, gamma on"] = check(frozenset({"alpha", "gamma"}))
        answers["beta and gamma off"] = check(frozenset({"alpha"}))
        return None

    with pytest.raises(Refused):
        checklist(ctx, switch_rows, False, yes)
    assert "gamma is enabled and needs it" in (answers["beta off, gamma on"] or "")
    assert answers["beta and gamma off"] is None


def test_toggle_marks_guarded_items(ctx: Context) -> None:
    seen: list[list[Choice]] = []

    def look(choices: list[Choice], check: Any) -> list[str] | None:
        seen.append(choices)
        return None

    with pytest.raises(Refused):
        checklist(ctx, look, False, yes)
    marks = {c.label: c.title.endswith("[guarded]") for c in seen[0]}
    assert marks == {"alpha": True, "beta": True, "gamma": False}


def test_install_links_the_recorder_and_records_its_hash(ctx: Context) -> None:
    link = ctx.agent_dir / RECORDER
    digest = sha256(source_bytes())
    assert link.is_symlink() and os.readlink(link) == str(copy_path(ctx.agent_dir, digest))
    assert link.read_bytes() == source_bytes()
    record = load_state(ctx.agent_dir).for_root(ctx.set_root)
    assert record is not None
    assert record.extra["recorder"] == {"path": RECORDER, "sha256": digest}
    assert status(ctx.agent_dir) == "current"
    assert install(ctx, Install(), yes).plan.is_empty


def test_install_replaces_a_stale_recorder(ctx: Context) -> None:
    copy = Path(os.readlink(ctx.agent_dir / RECORDER))
    copy.write_text("// an older recorder\n")
    assert status(ctx.agent_dir) == "stale"
    result = install(ctx, Install(), yes)
    assert [(a.action, a.path) for a in result.plan.changes] == [("relink", RECORDER)]
    assert (ctx.agent_dir / RECORDER).read_bytes() == source_bytes()


def test_the_recorder_goes_with_the_last_process_guard_and_with_uninstall(
    ctx: Context, set_root: Path
) -> None:
    uninstall(ctx, Uninstall(), yes)
    assert not (ctx.agent_dir / RECORDER).is_symlink()
    install(ctx, Install(), yes)
    assert (ctx.agent_dir / RECORDER).is_symlink()
    (set_root / "extset.toml").write_text('[set]\nname = "tools"\n')
    plain = resolve(ctx.env, set_root, ctx.agent_dir)
    result = install(plain, Install(), yes)
    assert [(a.action, a.path) for a in result.plan.changes] == [("unlink", RECORDER)]
    assert status(ctx.agent_dir) == "missing"
    record = load_state(ctx.agent_dir).for_root(set_root)
    assert record is not None and "recorder" not in record.extra


# --- the recorder switched off in pi: `pi config` writes `-extensions/ext-sessions.ts` ---


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
    assert (err.value.fix or "").startswith("switch ext's session recorder back on in `pi config`")
    assert snapshot(ctx.agent_dir / "extensions") == tree
    forced = switch(ctx, ["alpha"], False, True, False, yes)
    assert forced.applied and any("--force" in w for w in forced.plan.warnings)


def test_a_recorder_left_where_the_agent_dir_was_before_it_moved_refuses_too(
    ctx: Context, tmp_path: Path
) -> None:
    """The recorder's link after `mv agent agent-b` leads nowhere, so pi loads no recorder and
    ext sees no session: taken for ext's own (to relink it) it was taken as seeing too, and a
    guarded disable went through; it is a blind spot, as a missing recorder is."""
    moved = ctx.agent_dir.rename(tmp_path / "agent-b")
    here = resolve(ctx.env, ctx.set_root, moved)
    assert not (moved / RECORDER).exists() and (moved / RECORDER).is_symlink()
    with pytest.raises(Refused) as err:
        switch(here, ["alpha"], False, False, False, yes)
    assert "before it moved" in err.value.message
    [finding] = only(doctor(tmp_path, here.set_root, moved), "recorder")
    assert (finding.level, finding.message) == (
        "warn",
        f"{RECORDER} leads to where the agent dir was before it moved: the process guards "
        "only see sessions started with `ext launch`",
    )
    assert (finding.fix or "").endswith("install")


def test_a_parked_recorder_refuses_too(ctx: Context) -> None:
    link = ctx.agent_dir / RECORDER
    link.rename(link.with_name(link.name + ".off"))
    with pytest.raises(Refused) as err:
        switch(ctx, ["alpha"], False, False, False, yes)
    assert "parked" in err.value.message
    assert (err.value.fix or "").startswith("put ext's session recorder back: `ext install`")


def test_doctor_reports_the_recorder_switched_off_in_pi_as_an_error(
    ctx: Context, tmp_path: Path
) -> None:
    pi_config_off(ctx.agent_dir, RECORDER)
    [finding] = only(doctor(tmp_path, ctx.set_root, ctx.agent_dir), "recorder")
    assert finding.level == "error"
    assert "-extensions/ext-sessions.ts" in finding.message and "pi config" in (finding.fix or "")


def test_a_session_record_is_written_when_its_folder_goes_between_two_steps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Review (helper-22): the last set's uninstall removes an empty sessions/ after its lock;
    an `ext launch` that had just made the folder then failed to write its record."""
    from installer.agent.sessions import sessions_dir
    from installer.ground import own

    agent = tmp_path / "agent"
    agent.mkdir()
    real = own.ensure_dir
    raced: list[Path] = []

    def ensure_then_lose(path: Path, *args: Any, **kw: Any) -> Any:
        made = real(path, *args, **kw)
        if path == sessions_dir(agent) and not raced:
            raced.append(path)
            os.rmdir(path)  # the uninstall's rmdir lands here
        return made

    monkeypatch.setattr(own, "ensure_dir", ensure_then_lose)
    written = write_session_record(agent, ["pi", "--print"])
    assert raced and json.loads(written.read_text())["argv"] == ["pi", "--print"]


def test_the_recorder_goes_with_the_last_set_that_needs_it(ctx: Context, tmp_path: Path) -> None:
    """helper-47: a set without process guards, installed while the recorder was there,
    claimed it; the uninstall of the set that needed it then left it loaded, and doctor said
    no set needed it."""
    plain = build_tree(
        tmp_path / "plain", {"extset.toml": '[set]\nname = "plain"\n', "prompts/p.md": "p\n"}
    )
    other = resolve(Env(environ=dict(os.environ), cwd=tmp_path), plain, ctx.agent_dir)
    install(other, Install(), yes)
    recorder = ctx.agent_dir / "extensions/ext-sessions.ts"
    assert recorder.is_symlink()

    uninstall(ctx, Uninstall(), yes)

    assert not os.path.lexists(recorder)
    assert (ctx.agent_dir / "extensions/ext-command.ts").is_symlink()  # /ext serves plain
    assert install(other, Install(), yes).plan.is_empty  # and nothing left to mend


@pytest.mark.parametrize("mode", ["link", "register"])
@pytest.mark.parametrize(
    ("selection", "refused"),
    [
        (Install(skip=("alpha",)), "alpha"),  # a live session was started with --alpha-on
        (Install(only=("beta", "gamma")), "alpha"),  # --only leaves alpha out
        (Install(skip=("beta",)), "beta"),  # gamma stays in and needs it
    ],
)
def test_install_leaving_out_what_a_guard_holds_is_refused_as_a_disable_is(
    ctx: Context, mode: str, selection: Install, refused: str
) -> None:
    """helper-73: --skip/--only take an installed item out (issue 31's one meaning), and so
    went round the guards `ext disable` keeps: a live session started with its flag lost it
    at its next /reload. The install refuses (exit 3) as disable does, and names the way to
    take it out anyway; what the selection leaves out unguarded, or already off, goes."""
    install(ctx, Install(mode=mode), yes)
    write_session_record(ctx.agent_dir, ["pi", "--alpha-on"])
    before = snapshot(ctx.agent_dir)
    with pytest.raises(Refused) as err:
        install(ctx, selection._replace(mode=mode), yes)
    assert err.value.exit_code == ExitCode.REFUSED
    assert err.value.message.startswith(f"refusing to leave out {refused}: ")
    assert err.value.fix is not None
    assert err.value.fix.endswith(f"switch it off anyway first (`ext disable --force {refused}`)")
    assert snapshot(ctx.agent_dir) == before
    off(ctx, refused, force=True)  # switched off by hand: the same selection then goes through
    assert not install(ctx, selection._replace(mode=mode), yes).changed  # off already: no-op


@pytest.mark.parametrize(
    "selection",
    [
        Install(skip=("gamma",)),  # unguarded
        Install(skip=("beta", "gamma")),  # beta with the one that needs it (helper-74)
        Install(only=("alpha",)),  # the same, by --only
    ],
)
def test_install_leaving_out_an_unguarded_item_or_what_needs_it_too_is_not_refused(
    ctx: Context, selection: Install
) -> None:
    write_session_record(ctx.agent_dir, ["pi", "--other"])
    result = install(ctx, selection, yes)
    assert result.applied
    assert not (ctx.agent_dir / "extensions/gamma").exists()


@pytest.mark.parametrize(
    ("switch_style", "mode"), [("rename", "link"), ("pi", "link"), ("rename", "register")]
)
def test_install_linking_an_item_beside_one_it_requires_switched_off_warns(
    set_root: Path, tmp_path: Path, switch_style: str, mode: str
) -> None:
    """helper-87: gamma left out by --skip, beta then switched off, and an install that linked
    gamma again said nothing of beta (enable says it, and doctor); helper-88: nor in register
    mode, when the entry loads gamma again."""
    manifest = set_root / "extset.toml"
    manifest.write_text(
        MANIFEST.replace(
            'name = "tools"', f'name = "tools"\nswitch = "{switch_style}"\nmode = "{mode}"'
        )
    )
    agent = tmp_path / "agent"
    agent.mkdir()
    env = Env(environ=dict(os.environ), cwd=tmp_path, stdin_tty=True, stderr_tty=True)
    ctx = resolve(env, set_root, agent)
    assert install(ctx, Install(skip=("gamma",)), yes).applied
    assert off(ctx, "beta").applied
    result = install(ctx, Install(), yes)
    assert result.applied
    assert "gamma requires beta, which stays off: `ext enable beta`" in result.plan.warnings
    again = install(ctx, Install(), yes)  # gamma is in place now: no news, so no word again
    assert not [w for w in again.plan.warnings if "requires" in w]


def test_a_refusal_says_an_item_this_run_switches_on_as_such(ctx: Context) -> None:
    """helper-87: `toggle --on gamma --off beta`, gamma off until then, said "gamma is
    enabled and needs it"."""
    assert off(ctx, "gamma").applied
    with pytest.raises(Refused) as err:
        switch_both(ctx, ("gamma",), ("beta",), False, yes)
    assert "refusing to disable beta: gamma is switched on by this run and needs it" in (
        err.value.message
    )


def test_a_dependency_s_refusal_names_the_choice_not_a_process_to_stop(ctx: Context) -> None:
    """helper-88: `toggle --on gamma --off beta` and an install leaving beta out beside gamma
    were told to "stop what needs it first"; the install's other way, `ext disable --force`,
    made the state the guard refuses."""
    assert off(ctx, "gamma").applied
    with pytest.raises(Refused) as err:
        switch_both(ctx, ("gamma",), ("beta",), False, yes)
    assert err.value.fix == "keep beta on, or leave gamma off, or pass --force to disable it anyway"
    assert switch_both(ctx, ("gamma",), (), False, yes).applied
    with pytest.raises(Refused) as err:
        install(ctx, Install(skip=("beta",)), yes)
    assert err.value.fix == (
        "keep beta in (`ext install`), or leave gamma out too (`ext install --skip beta,gamma`), "
        "or switch it off anyway first (`ext disable --force beta`)"
    )
    with pytest.raises(Refused) as err:  # helper-89: the fix kept neither --only nor --mode
        install(ctx, Install(only=("gamma",), mode="register"), yes)
    assert err.value.fix is not None
    assert err.value.fix == (
        "keep beta in (`ext install --only gamma,beta --mode register`), or switch it off anyway "
        "first (`ext disable --force beta`)"
    )
