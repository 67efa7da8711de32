"""Versions, `[host] tested` ranges in npm's grammar, and the drift message.

The answers are kept in a memo under the test's own cache dir (installer.host.versions); each
case is asked twice, so the memo's answer is held to the library's.
"""

from __future__ import annotations

import pytest

from installer.host.lines import NEW_PACKAGE, OLD_PACKAGE
from installer.host.pi import drift_message
from installer.host.versions import (
    looks_like_version,
    newer,
    newest_in,
    parse_version,
    range_error,
    reaches,
    version_in,
    where,
)


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
    assert newer(high, low) is True
    assert newer(low, high) is False


def test_build_metadata_does_not_count() -> None:
    assert newer("1.2.3+build.7", "1.2.3") is False
    assert newer("1.2.3", "1.2.3+build.7") is False


@pytest.mark.parametrize(
    "text", ["", "x", "1.2.3.4", "1..2", "1.2.3-", "latest", "1.2.x", "0.73", "2024.1"]
)
def test_garbage_is_not_a_version(text: str) -> None:
    assert parse_version(text) is None
    assert newer(text, "0.1.0") is None


@pytest.mark.parametrize("text", ["0.73.1", "v1.2.3-rc.1", "0.73", " 1 ", "1.2.3+b.7"])
def test_what_a_package_json_may_give_as_a_version(text: str) -> None:
    assert looks_like_version(text)


@pytest.mark.parametrize("text", ["", "latest", "1.2.3.4", "1..2", "^1.2.3", "1.2.3-", "x1"])
def test_what_a_package_json_gives_that_is_no_version(text: str) -> None:
    assert not looks_like_version(text)


@pytest.mark.parametrize(
    ("output", "version"),
    [
        ("0.73.1\n", "0.73.1"),
        ("pi v0.74.0-rc.2 (node 22)\n", "0.74.0-rc.2"),
        ("built 1.2.3.4, running 2.0.0+abc\n", "2.0.0+abc"),  # 1.2.3.4 is not one
        ("Node.js v22.1\nno version here\n", None),
    ],
)
def test_the_version_a_command_prints(output: str, version: str | None) -> None:
    assert version_in(output) == version


@pytest.mark.parametrize(
    ("tested", "version", "side"),
    [
        (">=0.70.0 <0.80.0", "0.73.1", "in"),
        (">=0.70.0 <0.80.0", "0.80.0", "newer"),
        (">=0.70.0 <0.80.0", "0.69.9", "older"),
        (">= 0.70.0 < 0.80", "0.79.99", "in"),  # npm allows a space after the operator
        ("^0.73.0", "0.73.9", "in"),
        ("^0.73.0", "0.74.0", "newer"),  # a caret below 1.0 holds the minor
        ("~0.73", "0.73.4", "in"),
        ("0.73.x", "0.72.0", "older"),
        ("0.73", "0.73.5", "in"),  # a partial version is an x-range, as in npm
        ("0.73.0 - 0.74.2", "0.74.2", "in"),
        ("0.73.0 - 0.74", "0.74.9", "in"),  # a partial upper bound takes its whole minor
        ("^0.73.0 || ^0.75.0", "0.75.1", "in"),
        ("^0.73.0 || ^0.75.0", "0.74.0", "between"),
        ("^0.73.0 || ^0.75.0", "0.76.0", "newer"),
        ("0.73.1", "0.73.1", "in"),
        ("=0.73.1", "0.73.2", "newer"),
        ("0.73.1", "0.73.0", "older"),
        ("*", "0.1.0", "in"),
        (">=0.80.0", "0.80.0-rc.1", "older"),
        ("<0.80.0", "0.80.0-rc.1", "between"),  # npm leaves prereleases out of ranges
        (">=0.73.0-rc.1", "0.73.0-rc.2", "in"),  # unless the range names one of its tuple
    ],
)
def test_where_a_version_stands_by_npms_rules(tested: str, version: str, side: str) -> None:
    assert range_error(tested) is None
    assert where(version, tested) == side
    assert where(version, tested) == side  # the memo's answer


@pytest.mark.parametrize(
    "tested", ["banana", ">=0.70.0 <banana", "1.2.3 - ", ">=0.70.0, <0.80.0", "0.73.1 ||| 1"]
)
def test_what_npm_would_not_read_is_not_a_range(tested: str) -> None:
    why = range_error(tested)
    assert why is not None
    assert range_error(tested) == why
    assert where("0.73.1", tested) is None
    assert drift_message("0.73.1", tested, "pi") is None


def test_commas_get_the_spaced_range_as_the_fix() -> None:
    assert "'>=0.70.0 <0.80.0'" in (range_error(">=0.70.0, <0.80.0") or "")


@pytest.mark.parametrize(
    ("tested", "either"),
    [("1.6, 1.7", "1.6 || 1.7"), ("0.73.1,^1.6.0, 1.x", "0.73.1 || ^1.6.0 || 1.x")],
)
def test_a_list_of_versions_gets_either_of_them_as_the_fix(tested: str, either: str) -> None:
    """`1.6 1.7` (spaces) means both at once, which no version is: a list means either."""
    why = range_error(tested) or ""
    assert f"write {either!r}" in why
    assert range_error(either) is None and where("1.7.2", either) == "in"


@pytest.mark.parametrize("version", ["not a version", "", None, "0.73"])
def test_an_unreadable_host_version_is_unknown(version: str | None) -> None:
    assert where(version, ">=0.70.0") is None
    assert drift_message(version, ">=0.70.0", "pi") is None


def test_newest_in_a_range() -> None:
    published = ["0.73.1", "0.73.9", "0.74.0", "0.75.0-rc.1", "junk"]
    assert newest_in(published, "~0.73.0") == "0.73.9"
    assert newest_in(published, ">=0.73.0 <0.76.0") == "0.74.0"  # not the prerelease
    assert newest_in(published, "^1.0.0") is None


def test_no_drift_message_inside_the_range() -> None:
    assert drift_message("0.73.1", ">=0.70.0 <0.80.0", "pi") is None
    assert drift_message("0.73.1", "^0.73.0", "pi") is None


def test_drift_message_for_a_newer_host_names_both_versions_and_the_fixes() -> None:
    message = drift_message("0.81.0", ">=0.70.0 <0.80.0", "pi")
    assert message is not None
    assert "\n" not in message
    assert "pi 0.81.0" in message and ">=0.70.0 <0.80.0" in message
    # 0.81.0 is of the new package, which has releases in the range: npm picks the newest
    assert "newer" in message
    assert f"npm install -g '{NEW_PACKAGE}@>=0.70.0 <0.80.0'" in message
    assert "[host] tested" in message and "widen" in message


def test_drift_message_for_an_older_host_names_its_lines_tested_release() -> None:
    message = drift_message("0.60.0", ">=0.70.0 <0.80.0", "/opt/pi/bin/pi", OLD_PACKAGE)
    assert message is not None
    assert "/opt/pi/bin/pi 0.60.0 is older" in message
    assert f"install a tested version: npm install -g {OLD_PACKAGE}@0.73.1," in message


def test_drift_message_for_a_gap_in_the_range() -> None:
    message = drift_message("0.74.0", "^0.73.0 || ^0.75.0", "pi")
    assert message is not None and "is not one of the versions" in message


def test_drift_message_for_an_exact_pin() -> None:
    assert "older" in (drift_message("0.72.0", "0.73.1", "pi") or "")
    assert "newer" in (drift_message("0.74.0", "=0.73.1", "pi") or "")


_GRID = [f"{a}.{b}.{c}" for a in range(3) for b in range(3) for c in range(2)]


@pytest.mark.parametrize(
    "tested",
    [
        "*", "1.x", "^0.2.1", "~1.2.0", ">1.2.0 <2.0.0", "0.1.1 || 2.2.1", ">=1.0.0 <=1.0.0",
        ">1.0.0 <1.0.1", "<0.0.1", "1.2.0 - 2.1.1", "^0 || >=2.1.0 <2.2.0", ">=1.1.1 || <0.2.0",
        ">1.0.0-rc.1 <1.0.1", "<1.0.0", ">2.2.1",
    ],
)  # fmt: skip
def test_a_span_reaches_a_range_when_a_release_in_it_is_in_the_range(tested: str) -> None:
    """helper-91: `0.72.0 || 2.0.0` has no release of 0.74.0-1.6.0 though it is neither above
    nor below them; `>1.0.0 <1.0.1` has none at all. Every span of a grid of releases against
    npm's own answer for each release in it."""
    import nodesemver

    for i, low in enumerate(_GRID):
        for high in _GRID[i:]:
            inside = [v for v in _GRID[i:] if nodesemver.lte(v, high, False)]
            npm = any(nodesemver.satisfies(v, tested, loose=False) for v in inside)
            assert reaches(low, high, tested) is npm, (low, high)
        assert reaches(low, None, tested) or not any(
            nodesemver.satisfies(v, tested, loose=False) for v in _GRID[i:]
        )


def test_a_range_with_a_run_of_spaces_is_read_as_npm_reads_it_at_once() -> None:
    """helper-92: `>=` and 1,000 spaces in a set's `[host] tested` held every command for half
    an hour (nodesemver parses such a run in n**4 time; npm makes each run one space first).
    Timed in a child so that the old behaviour fails rather than holds the suite."""
    import subprocess
    import sys

    code = (
        "from installer.host.versions import _range_error, _where\n"
        "gap = ' ' * 1000\n"
        "assert _range_error('>=' + gap + 'a') is not None\n"
        "assert _where('1.2.0', '>=' + gap + '1.0.0' + gap + '<2.0.0') == 'in'\n"
        "assert _where('2.1.0', '>=' + gap + '1.0.0' + gap + '<2.0.0') == 'newer'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], timeout=20, check=False)
    assert done.returncode == 0


def test_the_white_space_a_range_is_read_with_is_javascripts() -> None:
    """helper-93: Python's white space made `>=1.6\\x1f<2` a range of two comparators, which
    npm's semver refuses (`\\x1f` is no `\\s` of JavaScript), and left a BOM, which it takes."""
    assert range_error(">=1.6.0\x1f<2.0.0") is not None
    assert where("1.7.0", ">=1.6.0\ufeff<2.0.0") == "in"
