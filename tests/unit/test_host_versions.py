"""Versions, `[host] tested` ranges and the drift message: pure, no disk."""

from __future__ import annotations

import pytest

from installer.host import drift_message, in_range, parse_range, parse_version


@pytest.mark.parametrize(
    ("low", "high"),
    [
        ("0.73.0", "0.73.1"),
        ("0.9.0", "0.10.0"),  # numeric, not lexical
        ("1.0.0-alpha", "1.0.0"),  # a prerelease sorts before its release
        ("1.0.0-alpha", "1.0.0-alpha.1"),
        ("1.0.0-alpha.1", "1.0.0-alpha.beta"),  # numeric ids sort before alphanumeric
        ("1.0.0-alpha.beta", "1.0.0-beta"),
        ("1.0.0-beta.2", "1.0.0-beta.11"),
        ("1.0.0-rc.1", "1.0.0"),
    ],
)
def test_versions_order_by_semver_precedence(low: str, high: str) -> None:
    a, b = parse_version(low), parse_version(high)
    assert a is not None and b is not None
    assert a < b and b > a and a <= b and b >= a and a != b


def test_a_short_version_reads_as_zero_filled() -> None:
    assert parse_version("0.73") == parse_version("0.73.0")
    assert parse_version("1") == parse_version("1.0.0")
    assert parse_version("v0.73.1") == parse_version("0.73.1")


def test_build_metadata_does_not_count() -> None:
    assert parse_version("1.2.3+build.7") == parse_version("1.2.3")
    assert str(parse_version("1.2.3+build.7")) == "1.2.3+build.7"


@pytest.mark.parametrize("text", ["", "x", "1.2.3.4", "1..2", "1.2.3-", "latest", "1.2.x"])
def test_garbage_is_not_a_version(text: str) -> None:
    assert parse_version(text) is None


@pytest.mark.parametrize(
    ("tested", "version", "expected"),
    [
        (">=0.70.0 <0.80.0", "0.73.1", True),
        (">=0.70.0 <0.80.0", "0.80.0", False),
        (">=0.70.0 <0.80.0", "0.69.9", False),
        (">=0.70.0, <0.80.0", "0.73.1", True),  # commas
        (">=0.70.0,<0.80.0", "0.81.0", False),
        (">= 0.70.0  < 0.80", "0.79.99", True),  # space after the operator, short version
        (">=0.73", "0.73.0", True),
        (">0.73", "0.73.0", False),
        ("<=0.73.1", "0.73.1", True),
        ("0.73.1", "0.73.1", True),  # a bare version means equal
        ("=0.73.1", "0.73.2", False),
        ("==0.73", "0.73.0", True),
        ("<0.80.0", "0.80.0-rc.1", True),  # semver precedence: rc.1 comes before 0.80.0
        (">=0.80.0", "0.80.0-rc.1", False),
        (">=0.73.0-rc.1", "0.73.0-rc.2", True),
    ],
)
def test_in_range(tested: str, version: str, expected: bool) -> None:
    assert in_range(version, tested) is expected


@pytest.mark.parametrize(
    ("tested", "version"),
    [
        ("garbage", "0.73.1"),
        (">=0.70.0 <banana", "0.73.1"),
        ("^0.73.0", "0.73.1"),  # npm's caret is not one of ours: unknown, not wrong
        ("0.70.0 || 0.80.0", "0.73.1"),
        ("", "0.73.1"),
        (">=0.70.0", "not a version"),
        (">=0.70.0", ""),
        (">=0.70.0", None),
        (None, "0.73.1"),
    ],
)
def test_unparseable_either_side_is_unknown(tested: str | None, version: str | None) -> None:
    assert in_range(version, tested) is None
    assert drift_message(version, tested, "pi") is None


def test_parse_range_keeps_the_text_and_is_reusable() -> None:
    tested = parse_range("  >=0.70.0 <0.80.0 ")
    assert tested is not None
    assert tested.text == ">=0.70.0 <0.80.0"
    assert [op for op, _ in tested.comparators] == [">=", "<"]
    assert in_range("0.75.0", tested) is True
    assert parse_range("nonsense") is None


def test_no_drift_message_inside_the_range() -> None:
    assert drift_message("0.73.1", ">=0.70.0 <0.80.0", "pi") is None


def test_drift_message_for_a_newer_host_names_both_versions_and_the_fixes() -> None:
    message = drift_message("0.81.0", ">=0.70.0 <0.80.0", "pi")
    assert message is not None
    assert "\n" not in message
    assert "pi 0.81.0" in message and ">=0.70.0 <0.80.0" in message
    assert "newer" in message and "pin pi" in message
    assert "[host] tested" in message and "widen" in message


def test_drift_message_for_an_older_host_says_upgrade() -> None:
    message = drift_message("0.60.0", ">=0.70.0 <0.80.0", "/opt/pi/bin/pi")
    assert message is not None
    assert "/opt/pi/bin/pi 0.60.0 is older" in message
    assert "upgrade /opt/pi/bin/pi" in message


def test_drift_message_for_an_exact_pin() -> None:
    assert "older" in (drift_message("0.72.0", "0.73.1", "pi") or "")
    assert "newer" in (drift_message("0.74.0", "=0.73.1", "pi") or "")
