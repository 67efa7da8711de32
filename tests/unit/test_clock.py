"""installer.ground.clock says a point in time as datetime does, in any time zone."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from installer.ground.clock import Moment
from tests.helpers import time_zone

# Whole hours, half hours, an offset west of Greenwich, and Amsterdam's of 1900 (+00:19:32),
# whose seconds datetime says too.
ZONES = ["UTC", "Asia/Kolkata", "America/St_Johns", "Europe/Amsterdam"]


@pytest.fixture(params=ZONES)
def zone(request: pytest.FixtureRequest) -> Iterator[str]:
    with time_zone(request.param):
        yield request.param


def as_datetime(ns: int) -> datetime:
    """What Env.now() gave before Moment: the local time, with its offset."""
    at = datetime.fromtimestamp(ns // 1_000_000_000, UTC)
    return at.replace(microsecond=ns // 1000 % 1_000_000).astimezone()


# The zone is set once per zone and read, never changed, by each example.
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(ns=st.integers(min_value=-2_208_988_800 * 10**9, max_value=4_102_444_800 * 10**9))
def test_a_moment_is_said_as_datetime_says_it(zone: str, ns: int) -> None:
    moment, at = Moment(ns), as_datetime(ns)
    assert moment.isoformat() == at.isoformat(), zone
    for fmt in ("%Y%m%dT%H%M%S.%f", "%Y%m%d-%H%M%S"):  # a journal's name, a backup's stamp
        assert moment.strftime(fmt) == at.strftime(fmt), zone


def test_a_whole_second_is_said_without_microseconds() -> None:
    assert "." not in Moment(1_780_000_000 * 10**9).isoformat()


def test_runs_of_two_zones_are_said_in_this_shell_s(zone: str) -> None:
    """helper-90: `history` said each run in its own zone: a later run read as the earlier."""
    from installer.ground.clock import when_run

    at = datetime(2026, 12, 6, 10, 4, 6, tzinfo=UTC)
    for started in (at.isoformat(), at.astimezone().isoformat(), "2026-12-06T00:04:06-10:00"):
        assert when_run(started) == at.astimezone().strftime("%Y-%m-%dT%H:%M:%S"), started
    assert when_run("not a time") == "not a time"
