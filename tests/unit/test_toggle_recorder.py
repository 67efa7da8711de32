"""When install and uninstall plan ext's agent-side files: the session recorder and /ext."""

from __future__ import annotations

from pathlib import Path

from installer.agent.recorder import (
    COMMAND,
    RECORDER,
    copy_path,
    plan_agent_files,
    plan_recorder,
    sha256,
    source_bytes,
    wants_recorder,
)
from installer.ground.manifest import Guard, Manifest
from installer.ground.state import SetRecord, State
from installer.links.scan import AgentState, Entry
from installer.sets.resources import Resource

AGENT = Path("/nowhere/agent")
ROOT = Path("/nowhere/set")
COPY = copy_path(AGENT, sha256(source_bytes()))


def agent(e: Entry | None = None) -> AgentState:
    """An agent dir holding `e` (or nothing) at the recorder's name."""
    return AgentState(AGENT, {RECORDER: e} if e is not None else {}, {})


def ours(real: Path, exists: bool = True) -> Entry:
    return Entry("link", str(real), str(real), exists, owner="foreign")


def test_only_a_process_guard_wants_the_recorder() -> None:
    assert wants_recorder(Manifest(None, "s", guards={"a": Guard("a", process="--a")}))
    assert not wants_recorder(Manifest(None, "s", guards={"a": Guard("a", required_by=("b",))}))
    assert not wants_recorder(Manifest(None, "s"))


def test_install_links_the_recorder_to_a_content_addressed_copy() -> None:
    plan = plan_recorder(AGENT, agent(), State(), ROOT, wanted=True)
    assert [(a.action, a.path, a.target) for a in plan.actions] == [("link", RECORDER, str(COPY))]
    assert plan.content == source_bytes() and plan.copy == COPY
    assert COPY.name == f"ext-sessions-{sha256(source_bytes())[:12]}.ts"


def test_an_older_recorder_is_relinked() -> None:
    old = AGENT / ".extset" / "agent" / "ext-sessions-000000000000.ts"
    plan = plan_recorder(AGENT, agent(e=ours(old)), State(), ROOT, wanted=True)
    assert [(a.action, a.target) for a in plan.actions] == [("relink", str(COPY))]


def test_not_wanted_any_more_it_is_removed_unless_another_set_needs_it() -> None:
    gone = plan_recorder(AGENT, agent(e=ours(COPY)), State(), ROOT, wanted=False)
    assert [(a.action, a.path) for a in gone.actions] == [("unlink", RECORDER)]
    other = SetRecord("/other", "o", "link", "0", {"recorder": {"sha256": "x"}})
    kept = plan_recorder(AGENT, agent(e=ours(COPY)), State((other,)), ROOT, wanted=False)
    assert [a.action for a in kept.actions] == ["relink"]  # the copy is not on disk here
    assert plan_recorder(AGENT, agent(), State(), ROOT, wanted=False).actions == ()


def test_something_else_at_its_name_is_left_alone_with_a_warning() -> None:
    foreign = Entry("link", "/elsewhere.ts", "/elsewhere.ts", True, owner="foreign")
    plan = plan_recorder(AGENT, agent(e=foreign), State(), ROOT, wanted=True)
    assert plan.actions == () and "not ext's session recorder" in plan.warnings[0]
    real = plan_recorder(AGENT, agent(e=Entry("file")), State(), ROOT, wanted=True)
    assert real.actions == () and real.warnings
    assert plan_recorder(AGENT, agent(e=foreign), State(), ROOT, wanted=False).actions == ()
    clash = Resource("extension", "ext-sessions", "ext-sessions.ts", "file", str(ROOT / "x"))
    plan = plan_recorder(AGENT, agent(), State(), ROOT, wanted=True, resources=[clash])
    assert plan.actions == () and plan.warnings


# ---- ext's /ext command: the same engine, for every set ------------------------------------------

CMD_COPY = copy_path(AGENT, sha256(source_bytes(COMMAND)), COMMAND)


def test_every_install_plans_ext_command_and_only_a_process_guard_adds_the_recorder() -> None:
    plain = plan_agent_files(AGENT, agent(), State(), ROOT, Manifest(None, "s"))
    assert [(a.action, a.path, a.target) for a in plain.actions] == [
        ("link", COMMAND.dest, str(CMD_COPY))
    ]
    assert CMD_COPY.name == f"ext-command-{sha256(source_bytes(COMMAND))[:12]}.ts"
    guarded = Manifest(None, "s", guards={"a": Guard("a", process="--a")})
    both = plan_agent_files(AGENT, agent(), State(), ROOT, guarded)
    assert [a.path for a in both.actions] == [RECORDER, COMMAND.dest]


def test_uninstall_removes_ext_command_unless_another_set_installed_it_too() -> None:
    here = AgentState(AGENT, {COMMAND.dest: ours(CMD_COPY)}, {})
    gone = plan_agent_files(AGENT, here, State(), ROOT, None)
    assert [(a.action, a.path) for a in gone.actions] == [("unlink", COMMAND.dest)]
    other = SetRecord("/other", "o", "link", "0", {"command": {"sha256": "x"}})
    kept = plan_agent_files(AGENT, here, State((other,)), ROOT, None)
    assert [a.action for a in kept.actions] == ["relink"]  # the copy is not on disk here


def test_something_else_at_ext_commands_name_is_left_alone_with_a_warning() -> None:
    foreign = Entry("link", "/elsewhere.ts", "/elsewhere.ts", True, owner="foreign")
    here = AgentState(AGENT, {COMMAND.dest: foreign}, {})
    plan = plan_agent_files(AGENT, here, State(), ROOT, Manifest(None, "s"))
    assert plan.actions == ()
    assert plan.warnings == (
        f"{COMMAND.dest} is taken by something that is not ext's /ext command; "
        "/ext will not be available inside pi",
    )


def test_a_copy_of_ours_parked_by_hand_goes_when_the_recorder_is_linked_or_removed() -> None:
    """`mv ext-sessions.ts ext-sessions.ts.off`: doctor reads the parked copy as the recorder
    switched off, so the install that puts it back (doctor's fix) takes the parked one out."""
    parked = AgentState(AGENT, {f"{RECORDER}.off": ours(COPY)}, {})
    back = plan_recorder(AGENT, parked, State(), ROOT, wanted=True)
    assert [(a.action, a.path) for a in back.actions] == [
        ("unlink", f"{RECORDER}.off"),
        ("link", RECORDER),
    ]
    gone = plan_recorder(AGENT, parked, State(), ROOT, wanted=False)
    assert [(a.action, a.path) for a in gone.actions] == [("unlink", f"{RECORDER}.off")]
    users = AgentState(AGENT, {f"{RECORDER}.off": Entry("file")}, {})  # not ours: kept
    assert [a.action for a in plan_recorder(AGENT, users, State(), ROOT, True).actions] == ["link"]
