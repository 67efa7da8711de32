"""When install and uninstall plan ext's session recorder (the agent-side ext-sessions.ts)."""

from __future__ import annotations

from pathlib import Path

from installer.links.scan import AgentState, Entry
from installer.manifest import Guard, Manifest
from installer.recorder import (
    RECORDER,
    copy_path,
    plan_recorder,
    sha256,
    source_bytes,
    wants_recorder,
)
from installer.resources import Resource
from installer.state import SetRecord, State

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
