"""Disable guards and the session registry's pure parts: refusals, --force, staleness."""

from __future__ import annotations

from pathlib import Path

import pytest

from installer.agent.guards import (
    blockers,
    dependents,
    enforce,
    guard_json,
    guarded,
    missing_requirements,
    needs_sessions,
)
from installer.agent.sessions import ProcessStart, SessionRecord, is_live, parse_etime
from installer.ground.errors import ExitCode, Refused
from installer.ground.manifest import Guard, Manifest

MANIFEST = Manifest(
    path=None,
    name="s",
    guards={
        "ssh": Guard("ssh", process="--ssh", reason="its tools run on the remote host"),
        "base": Guard("base", required_by=("ui",)),
    },
    requires={"report": ("base",), "ui": ("theme-kit",)},
)


def session(*argv: str, pid: int = 42) -> SessionRecord:
    return SessionRecord(pid, ("node", "/bin/pi", *argv), 100, 1.0, "test", Path("x"))


def test_dependents_come_from_required_by_and_requires() -> None:
    assert dependents(MANIFEST, "base") == ("ui", "report")
    assert dependents(MANIFEST, "theme-kit") == ("ui",)
    assert dependents(MANIFEST, "ssh") == ()
    assert guarded(MANIFEST, "ssh") and guarded(MANIFEST, "theme-kit")
    assert not guarded(MANIFEST, "report")


@pytest.mark.parametrize("argv", [("--ssh", "host"), ("--ssh=host",), ("-p", "x", "--ssh")])
def test_a_live_session_with_the_flag_refuses(argv: tuple[str, ...]) -> None:
    found = blockers(MANIFEST, ["ssh"], set(), [session(*argv)])
    assert len(found) == 1
    assert found[0].why.startswith("a live session (pid 42: ")
    with pytest.raises(Refused) as err:
        enforce(found, force=False)
    assert err.value.exit_code == ExitCode.REFUSED
    assert "refusing to disable ssh" in err.value.message
    assert "(its tools run on the remote host)" in err.value.message
    assert "--force" in (err.value.fix or "")


def test_sessions_without_the_flag_do_not_refuse() -> None:
    others = [session("--sshx"), session("--no-ssh"), session(), session("ssh")]
    assert blockers(MANIFEST, ["ssh"], set(), others) == []
    assert needs_sessions(MANIFEST, ["ssh"]) and not needs_sessions(MANIFEST, ["base"])


def test_argv0_is_not_a_flag() -> None:
    record = SessionRecord(1, ("--ssh",), None, None, "t", Path("x"))
    assert not record.has_flag("--ssh")


def test_an_enabled_dependent_refuses_one_going_off_with_it_does_not() -> None:
    found = blockers(MANIFEST, ["base"], {"ui", "report"}, [])
    # one refusal naming both (helper-44: one each, the manifest's reason under each)
    assert [b.why for b in found] == ["ui and report are enabled and need it"]
    assert [b.why for b in blockers(MANIFEST, ["base"], {"report"}, [])] == [
        "report is enabled and needs it"
    ]
    assert blockers(MANIFEST, ["base", "ui", "report"], set(), []) == []
    assert blockers(MANIFEST, ["base"], {"other"}, []) == []


def test_force_turns_refusals_into_warnings_that_name_the_risk() -> None:
    found = blockers(MANIFEST, ["ssh", "base"], {"ui"}, [session("--ssh")])
    warnings = enforce(found, force=True)
    assert len(warnings) == 2
    assert warnings[0].startswith("--force: disabling ssh although a live session")
    assert "loses it at its next /reload" in warnings[0]
    assert "ui may fail to load or misbehave without base" in warnings[1]
    assert enforce([], force=False) == ()


def test_enabling_what_needs_a_disabled_item_warns() -> None:
    assert missing_requirements(MANIFEST, ["report"], {"report"}, {"report", "base"}) == (
        "report requires base, which stays off: `ext enable base`",
    )
    assert missing_requirements(MANIFEST, ["report"], {"report", "base"}, {"base"}) == ()
    # a requirement the set does not have is not this command's business
    assert missing_requirements(MANIFEST, ["ui"], {"ui"}, {"ui"}) == ()


def test_enabling_what_a_guard_s_required_by_names_warns_of_its_requirement() -> None:
    """helper-86: `[guards.base] required_by = ["ui"]`: ui switched on beside base off was
    unsaid (only `requires` was read)."""
    known = {"ui", "base", "theme-kit"}
    assert missing_requirements(MANIFEST, ["ui"], {"ui"}, known) == (
        "ui requires theme-kit, which stays off: `ext enable theme-kit`",
        "ui requires base, which stays off: `ext enable base`",
    )
    assert missing_requirements(MANIFEST, ["ui"], {"ui", "base", "theme-kit"}, known) == ()


def record(ticks: int | None, started: float | None) -> SessionRecord:
    return SessionRecord(7, ("pi",), ticks, started, "t", Path("x"))


def test_a_record_is_live_only_while_its_process_is_the_recorded_one() -> None:
    assert not is_live(record(100, 5.0), None)  # the pid is gone
    assert is_live(record(100, 5.0), ProcessStart(100, 5.0))
    assert not is_live(record(100, 5.0), ProcessStart(101, 5.0))  # the pid was reused
    assert is_live(record(None, 1000.0), ProcessStart(None, 1003.0))
    assert not is_live(record(None, 1000.0), ProcessStart(None, 1100.0))
    assert is_live(record(None, None), ProcessStart(None, None))  # cannot prove it stale


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("00:05", 5), ("01:02", 62), ("1:00:00", 3600), ("2-03:04:05", 2 * 86400 + 11045)],
)
def test_ps_elapsed_time(text: str, seconds: int) -> None:
    assert parse_etime(f"  {text}\n") == seconds


@pytest.mark.parametrize("text", ["", "5", "a:b", "1:2:3:4"])
def test_ps_elapsed_time_garbage(text: str) -> None:
    assert parse_etime(text) is None


def test_list_json_carries_each_guard_so_that_ext_inside_pi_can_check_its_own_flags() -> None:
    assert guard_json(MANIFEST, "ssh") == {
        "required_by": [],
        "process": "--ssh",
        "reason": "its tools run on the remote host",
    }
    assert guard_json(MANIFEST, "base") == {"required_by": ["ui", "report"]}
    assert guard_json(MANIFEST, "theme-kit") == {"required_by": ["ui"]}
    assert guard_json(MANIFEST, "report") is None


def test_a_dependent_this_run_switches_on_is_said_as_such() -> None:
    """helper-87: `toggle --on top --off base`, top off until then: "top is enabled"."""
    said = [b.why for b in blockers(MANIFEST, ["base"], {"report"}, [], switched_on={"report"})]
    assert said == ["report is switched on by this run and needs it"]
    said = [b.why for b in blockers(MANIFEST, ["base"], {"ui", "report"}, [], {"report"})]
    assert said == ["ui is enabled and report is switched on by this run; both need it"]


def test_a_requirement_the_install_leaves_out_is_said_so() -> None:
    """helper-88: `ext install --skip base` said base "stays off"."""
    assert missing_requirements(MANIFEST, ["report"], {"report"}, {"report", "base"}, {"base"}) == (
        "report requires base, which this install leaves out: `ext enable base`",
    )


def test_a_refusal_s_fix_takes_in_every_item_that_needs_it_and_every_item_refused() -> None:
    """helper-90: with top3 needing top needing base, the fix to disable base named top alone
    (its command then refused for top3); with two refused, it named the first alone."""
    chain = Manifest(
        None, "s", requires={"top": ("base",), "top3": ("top",), "top2": ("base",), "ui": ("fold",)}
    )
    on = {"top", "top2", "top3", "ui"}
    (one,) = blockers(chain, ["base"], on, [])
    assert one.why == "top and top2 are enabled and need it"  # what needs it itself
    assert one.fix == "keep base on, or switch top, top2 and top3 off too"
    both = blockers(chain, ["fold", "base"], on, [])
    assert {b.fix for b in both} == {
        "keep fold and base on, or switch ui, top, top2 and top3 off too"
    }
