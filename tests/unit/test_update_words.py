"""One wording for "up to date" in `ext update --check` and doctor, and pi called pi."""

from __future__ import annotations

from installer.render.updates import lines
from installer.updates.check import Report
from installer.updates.findings import doctor_findings
from installer.updates.method import InstallMethod
from installer.updates.results import CheckResult

PACKAGE = "@earendil-works/pi-coding-agent"
SHA = "0123456789abcdef0123456789abcdef01234567"


def _report(*results: CheckResult) -> Report:
    return Report(results, InstallMethod("pipx", "pipx", "pipx upgrade extset"), 0.0)


def test_update_check_and_doctor_say_up_to_date_the_same_way() -> None:
    report = _report(
        CheckResult("host", "1.6.0", "1.6.0", None, "up-to-date", label=PACKAGE),
        CheckResult("set", SHA, SHA, None, "up-to-date", method="git", label="the set"),
    )
    said = lines(report)
    assert said == [f"{PACKAGE} is up to date (1.6.0)", "the set is up to date (0123456789ab)"]
    found = {f.id: f.message for f in doctor_findings(report)}
    assert found["update.host"] == said[0]
    assert found["update.set"] == said[1]
    assert not any("up-to-date" in m for m in found.values())


def test_doctor_calls_pi_pi_when_it_was_not_checked() -> None:
    found = {f.id: f.message for f in doctor_findings(_report())}
    assert found["update.host"] == "pi: not checked yet"
    assert not any("the host" in m for m in found.values())


def test_what_is_out_beyond_the_tested_range_is_said_by_both() -> None:
    """A trial (helper-40): with pi 0.73.1 at the old package's last release, the check's text
    said only 'up to date', dropping 'pi moved …; 1.6.0 is out, outside the tested range …'
    that doctor and --json had (and the README's sample shows)."""
    beyond = (
        f"pi moved to {PACKAGE} (it needs Node >=22.19.0); 1.6.0 is out, outside the tested "
        "range (~0.73.0): check its changelog before widening [host] tested"
    )
    old = "@mariozechner/pi-coding-agent"
    report = _report(CheckResult("host", "0.73.1", "0.73.1", None, "up-to-date", beyond, label=old))

    [said] = lines(report)

    assert said == f"{old} is up to date (0.73.1); {beyond}"
    assert {f.id: f.message for f in doctor_findings(report)}["update.host"] == said


def test_the_notice_is_said_a_line_at_a_time() -> None:
    """A trial (helper-40): the notice's two lines were one line with a newline in it, which
    the screen's escape showed as `\\n`."""
    import io

    import pytest

    from installer.cli.options import Globals
    from installer.cli.run import notice
    from installer.render.ui import Output
    from installer.updates.notice import SILENCE, Notice

    item = CheckResult("host", "1.6.0", "1.6.1", "npm install -g x", "update-available")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("installer.commands.updates.notice", lambda _ctx: Notice((item,)).text())
        said = notice(Globals(), None)
    stderr = io.StringIO()
    out = Output(stderr=stderr, stdout=io.StringIO())
    for line in said:
        out.said(line)
    assert stderr.getvalue().splitlines() == [item.line(), SILENCE]
