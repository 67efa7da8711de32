"""The passive-notice policy and the cache merge: pure functions, literal states, no disk."""

from __future__ import annotations

import pytest

from installer.updates.cache import CacheState, FirstSeen, merge_results
from installer.updates.policy import (
    DAY,
    REFRESH_RETRY,
    due_notices,
    is_ci,
    refresh_due,
    silenced_by,
)
from installer.updates.results import CheckResult, Status

NOW = 1_700_000_000.0


def newer(
    name: str = "ext", current: str = "0.1.0", latest: str = "0.2.0", **kw: str
) -> CheckResult:
    return CheckResult(
        name,
        current,
        latest,
        kw.get("hint", "pipx upgrade extset"),
        "update-available",
        method=kw.get("method", "pipx"),
    )


def checked(
    *results: CheckResult,
    at: float = NOW - 60,
    notified_at: float | None = None,
    first_seen: tuple[FirstSeen, ...] = (),
) -> CacheState:
    return CacheState(
        checked_at=at, results=results, notified_at=notified_at, first_seen=first_seen
    )


CURRENT = {"ext": "0.1.0", "host": None, "set": None}


@pytest.mark.parametrize(
    ("env", "ci"),
    [
        ({}, False),
        ({"CI": "true"}, True),
        ({"CI": "1"}, True),
        ({"CI": ""}, True),
        ({"CI": "0"}, False),
        ({"CI": "false"}, False),
        ({"CI": "FALSE"}, False),
        ({"CONTINUOUS_INTEGRATION": "x"}, True),
        ({"BUILD_NUMBER": "12"}, True),
        ({"RUN_ID": "3"}, True),
    ],
)
def test_ci_detection(env: dict[str, str], ci: bool) -> None:
    assert is_ci(env) is ci


@pytest.mark.parametrize(
    ("env", "tty", "config_check", "reason"),
    [
        ({}, True, True, None),
        ({"EXT_NO_UPDATE_CHECK": "1"}, True, True, "EXT_NO_UPDATE_CHECK"),
        ({"NO_UPDATE_NOTIFIER": "1"}, True, True, "NO_UPDATE_NOTIFIER"),
        ({"CI": "true"}, True, True, "CI"),
        ({}, False, True, "no TTY"),
        ({}, True, False, "[updates] check = false"),
    ],
)
def test_silenced_by(
    env: dict[str, str], tty: bool, config_check: bool, reason: str | None
) -> None:
    assert silenced_by(env, tty=tty, config_check=config_check) == reason


def test_refresh_due_when_nothing_cached() -> None:
    assert refresh_due(None, NOW)


def test_refresh_not_due_within_a_day() -> None:
    assert not refresh_due(checked(at=NOW - DAY + 1), NOW)


def test_refresh_due_after_a_day() -> None:
    assert refresh_due(checked(at=NOW - DAY - 1), NOW)


def test_refresh_not_started_twice_while_one_runs() -> None:
    cache = CacheState(refresh_started_at=NOW - 30)
    assert not refresh_due(cache, NOW)
    assert refresh_due(cache, NOW + REFRESH_RETRY)


def test_no_notice_on_first_run() -> None:
    assert due_notices(None, NOW, CURRENT) == ()
    assert due_notices(CacheState(refresh_started_at=NOW - 5), NOW, CURRENT) == ()


def test_notice_when_newer_and_never_told() -> None:
    assert due_notices(checked(newer()), NOW, CURRENT) == (newer(),)


def test_notice_at_most_once_a_day() -> None:
    cache = checked(newer(), notified_at=NOW - DAY + 60)
    assert due_notices(cache, NOW, CURRENT) == ()
    assert due_notices(cache, NOW + 60, CURRENT) == (newer(),)


def test_silent_when_up_to_date() -> None:
    same = CheckResult("ext", "0.1.0", "0.1.0", None, "up-to-date")
    failed = CheckResult("ext", "0.1.0", None, None, "unavailable")
    assert due_notices(checked(same, failed), NOW, CURRENT) == ()


def test_silent_once_the_user_has_upgraded() -> None:
    assert due_notices(checked(newer()), NOW, {"ext": "0.2.0"}) == ()


def test_unknown_current_trusts_the_cache() -> None:
    host = newer("host", "0.70.0", "0.73.1", method="npm-global")
    assert due_notices(checked(host), NOW, {"host": None}) == (host,)


def test_homebrew_waits_a_day_after_first_seen() -> None:
    brew = newer(method="homebrew", hint="brew upgrade extset")
    seen = (FirstSeen("ext", "0.2.0", NOW - 3600),)
    assert due_notices(checked(brew, first_seen=seen), NOW, CURRENT) == ()
    assert due_notices(checked(brew, first_seen=seen), NOW + DAY, CURRENT) == (brew,)


def test_homebrew_without_first_seen_is_not_told() -> None:
    brew = newer(method="homebrew", hint="brew upgrade extset")
    assert due_notices(checked(brew), NOW + 10 * DAY, CURRENT) == ()


def test_merge_records_first_seen_once() -> None:
    first = merge_results(None, [newer()], NOW)
    again = merge_results(first, [newer()], NOW + 5 * DAY)
    assert again.seen_at("ext", "0.2.0") == NOW
    assert again.checked_at == NOW + 5 * DAY


def test_merge_forgets_first_seen_of_superseded_release() -> None:
    first = merge_results(None, [newer()], NOW)
    later = merge_results(first, [newer(latest="0.3.0")], NOW + DAY)
    assert later.seen_at("ext", "0.2.0") is None
    assert later.seen_at("ext", "0.3.0") == NOW + DAY


def test_merge_keeps_last_good_answer_on_failure() -> None:
    good = merge_results(None, [newer()], NOW)
    failed = CheckResult("ext", "0.1.0", None, None, "unavailable", "no valid answer")
    after = merge_results(good, [failed], NOW + DAY)
    assert after.results == (newer(),)
    assert after.checked_at == NOW + DAY


def test_merge_stores_failure_when_nothing_was_known() -> None:
    failed = CheckResult("ext", "0.1.0", None, None, "unavailable", "no valid answer")
    after = merge_results(None, [failed], NOW)
    assert after.results == (failed,)
    assert due_notices(after, NOW, CURRENT) == ()


def test_merge_clears_refresh_marker() -> None:
    started = CacheState(refresh_started_at=NOW - 5)
    assert merge_results(started, [], NOW).refresh_started_at is None


def test_result_json_round_trip() -> None:
    result = newer()
    assert CheckResult.from_json(result.to_json()) == result


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {"name": "ext"},
        {"name": "ext", "status": "bogus"},
        {"name": "ext", "status": "up-to-date", "latest": 3},
    ],
)
def test_result_from_bad_json_is_none(data: object) -> None:
    assert CheckResult.from_json(data) is None


def test_result_line_names_version_and_hint() -> None:
    line = CheckResult(
        "ext", "0.1.0", "0.2.0", "pipx upgrade extset", "update-available", label="ext"
    ).line()
    assert line == "ext 0.2.0 is available (you have 0.1.0); run: pipx upgrade extset"


def test_host_facts_from_a_host_info_shape() -> None:
    from dataclasses import dataclass
    from pathlib import Path

    from installer.updates.check import HostFacts

    @dataclass(frozen=True, slots=True)
    class Info:  # the shape of installer.host.pi.HostInfo
        command: str
        path: Path
        resolved: Path
        version: str | None
        package: str | None
        scope: str | None

    info = Info("pi", Path("/bin/pi"), Path("/lib/node_modules/x/cli.js"), "0.73.1", "x", None)
    assert HostFacts.from_info(info) == HostFacts(
        "x", "0.73.1", Path("/lib/node_modules/x/cli.js"), "pi"
    )
    assert HostFacts.from_info(None) is None


def host(version: str, where: str, status: Status = "up-to-date") -> CheckResult:
    latest = version if status == "up-to-date" else None
    return CheckResult("host", version, latest, None, status, installation=where)


def test_a_failed_check_of_a_changed_pi_is_recorded_not_answered_by_the_old_one() -> None:
    old = merge_results(None, [host("0.73.1", "/old/cli.js")], NOW)
    failed = host("1.6.0", "/new/cli.js", "unavailable")
    after = merge_results(old, [failed], NOW + DAY)
    assert after.results == (host("0.73.1", "/old/cli.js"), failed)


def test_a_failed_check_of_the_same_pi_keeps_its_good_answer() -> None:
    good = merge_results(None, [host("1.6.0", "/new/cli.js")], NOW)
    after = merge_results(good, [host("1.6.0", "/new/cli.js", "unavailable")], NOW + DAY)
    assert after.results == (host("1.6.0", "/new/cli.js"),)


def test_an_answer_about_an_upgraded_pi_replaces_the_record_of_its_older_version() -> None:
    good = merge_results(None, [host("1.5.0", "/new/cli.js")], NOW)
    after = merge_results(good, [host("1.6.0", "/new/cli.js", "unavailable")], NOW + DAY)
    assert after.results == (host("1.6.0", "/new/cli.js", "unavailable"),)
