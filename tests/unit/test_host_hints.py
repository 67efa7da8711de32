"""The commands ext's hints name to get a pi: each leads to a package and version that exist.

Which package has releases in a `[host] tested` range is the table's (installer.host.lines):
the old package up to 0.73.1, the new one from 0.74.0 to today's 1.6.0.
"""

from __future__ import annotations

import pytest

from installer.host.hints import install_tested, missing_fix
from installer.host.lines import NEW_PACKAGE, OLD_PACKAGE, OLDEST, TODAY
from installer.host.pi import drift_message, drift_parts

RETEST = "re-test the set and widen [host] tested in extset.toml"
BUNDLED = ">=0.73.0 <0.74.0"  # the bundled set's range before pi 1.x was tested


def test_on_the_new_package_a_range_below_0_74_names_the_old_package_and_removing_the_new() -> None:
    fix = install_tested("1.6.0", NEW_PACKAGE, BUNDLED)

    assert fix == (
        f"only {OLD_PACKAGE} has those versions: npm uninstall -g {NEW_PACKAGE} && "
        f"npm install -g {OLD_PACKAGE}@0.73.1, or {RETEST}"
    )


def test_a_pi_in_a_folders_node_modules_is_replaced_in_that_folder() -> None:
    from pathlib import Path

    local = Path("/work/set/.cache/pi-1.6.0")
    resolved = local / "node_modules" / NEW_PACKAGE / "dist" / "bundle" / "cli.js"
    fix = install_tested("1.6.0", NEW_PACKAGE, BUNDLED, resolved)

    assert fix == (
        f"only {OLD_PACKAGE} has those versions: npm --prefix {local} uninstall {NEW_PACKAGE} "
        f"&& npm --prefix {local} install {OLD_PACKAGE}@0.73.1, or {RETEST}"
    )
    global_ = Path("/usr/local/lib/node_modules") / NEW_PACKAGE / "dist" / "cli.js"
    assert install_tested("1.6.0", NEW_PACKAGE, BUNDLED, global_) == install_tested(
        "1.6.0", NEW_PACKAGE, BUNDLED
    )


def test_on_the_old_package_a_range_of_1_x_names_the_new_package_and_removing_the_old() -> None:
    fix = install_tested("0.73.1", OLD_PACKAGE, ">=1.0.0 <2.0.0")

    assert fix == (
        f"only {NEW_PACKAGE} has those versions (it needs Node >=22.19.0): npm uninstall -g "
        f"{OLD_PACKAGE} && npm install -g {NEW_PACKAGE}@1.6.0, or {RETEST}"
    )  # the Node it needs, when more than the old pi's: pasted on Node 20, pi would not start


@pytest.mark.parametrize(
    ("version", "package", "tested", "spec"),
    [
        # the line's tested release is in the range: it is named
        ("0.72.0", OLD_PACKAGE, ">=0.73.0 <0.74.0", f"{OLD_PACKAGE}@0.73.1"),
        ("1.7.0", NEW_PACKAGE, "^1.0.0 <1.7.0", f"{NEW_PACKAGE}@1.6.0"),
        # it is not, but releases of the line are: npm picks the newest in the range
        ("1.6.0", NEW_PACKAGE, "~1.5.0", f"'{NEW_PACKAGE}@~1.5.0'"),
        ("0.74.0", NEW_PACKAGE, "^0.73.0 || ^0.75.0", f"'{NEW_PACKAGE}@^0.73.0 || ^0.75.0'"),
        # a range over both lines: the pi's own package, no switch
        ("0.81.0", NEW_PACKAGE, ">=0.70.0 <0.80.0", f"'{NEW_PACKAGE}@>=0.70.0 <0.80.0'"),
        ("0.60.0", OLD_PACKAGE, ">=0.70.0 <0.80.0", f"{OLD_PACKAGE}@0.73.1"),
    ],
)
def test_a_range_the_pis_own_package_has_releases_in_keeps_that_package(
    version: str, package: str, tested: str, spec: str
) -> None:
    assert install_tested(version, package, tested) == (
        f"install a tested version: npm install -g {spec}, or {RETEST}"
    )


@pytest.mark.parametrize("tested", [">=9.0.0", ">1.6.0 <2.0.0", "~1.7.0"])
def test_a_range_beyond_every_release_ext_knows_names_todays_package_if_one_is_out(
    tested: str,
) -> None:
    """A trial (helper-40): `~1.7.0` with 1.7.0 on the registry was told to widen its range,
    the set author's job, while the person's pi was only too old. Today's package goes on:
    ext, offline, cannot know whether a release is out in the range; npm can."""
    spec = f"'{NEW_PACKAGE}@{tested}'"
    head = (
        "that range is newer than pi 1.6.0, the newest ext knows of: if a release in it is out "
        f"(npm view {NEW_PACKAGE} versions)"
    )
    assert install_tested("1.6.0", NEW_PACKAGE, tested) == (
        f"{head}, npm install -g {spec}; else {RETEST}"
    )
    assert install_tested("0.73.1", OLD_PACKAGE, tested) == (
        f"{head} (it needs Node >=22.19.0), npm uninstall -g {OLD_PACKAGE} && "
        f"npm install -g {spec}; else {RETEST}"
    )


def test_a_range_between_the_lines_names_no_install() -> None:
    """Above the old package's last release, below the new one's first: no release is."""
    assert install_tested("1.6.0", NEW_PACKAGE, ">0.73.1 <0.74.0") == (
        f"no release of pi ext knows of is in that range: {RETEST}"
    )


BELOW = (
    f"that range is older than pi {OLDEST.tested}, the oldest ext supports: re-test the set "
    "on a pi ext supports and name it in [host] tested in extset.toml"
)


@pytest.mark.parametrize("tested", ["0.1.0", "^0.72.0", "<0.73.1", ">=0.60.0 <0.73.0"])
def test_a_range_below_the_oldest_pi_ext_supports_names_no_install(tested: str) -> None:
    """helper-86: `tested = "0.1.0"` was told to install @mariozechner/pi-coding-agent@0.1.0,
    a pi ext has no facts for: the oldest it supports is 0.73.1."""
    for version, package in (("1.6.0", NEW_PACKAGE), ("0.73.1", OLD_PACKAGE), ("0.60.0", None)):
        assert install_tested(version, package, tested) == BELOW


def test_a_range_of_parts_is_read_part_by_part() -> None:
    """helper-91: `0.72.0 || 2.0.0` was sent to npm whole, for each package: the old one would
    install 0.72.0, which ext does not support, and the new one has no release in it but a
    2.0.0 not out yet. Only its part above every release ext knows can be a pi to install."""
    head = (
        "that range is newer than pi 1.6.0, the newest ext knows of: if a release in it is out "
        f"(npm view {NEW_PACKAGE} versions)"
    )
    spec = f"'{NEW_PACKAGE}@0.72.0 || 2.0.0'"
    assert install_tested("1.6.0", NEW_PACKAGE, "0.72.0 || 2.0.0") == (
        f"{head}, npm install -g {spec}; else {RETEST}"
    )
    assert install_tested("0.73.1", OLD_PACKAGE, "0.72.0 || 2.0.0").startswith(
        f"{head} (it needs Node >=22.19.0), npm uninstall -g {OLD_PACKAGE} && "
    )
    assert install_tested("1.6.0", NEW_PACKAGE, "0.72.0 || 1.2.3") == (
        f"install a tested version: npm install -g '{NEW_PACKAGE}@0.72.0 || 1.2.3', or {RETEST}"
    )
    assert install_tested("1.6.0", NEW_PACKAGE, "0.60.0 || 0.73.5") == (
        f"no release of pi ext knows of is in that range: {RETEST}"
    )


def test_a_pi_of_unknown_package_is_placed_by_its_version() -> None:
    fix = install_tested("1.6.0", None, BUNDLED)
    assert f"npm uninstall -g {NEW_PACKAGE} && npm install -g {OLD_PACKAGE}@0.73.1" in fix


def test_the_drift_warning_is_one_line_of_what_and_fix() -> None:
    parts = drift_parts("1.6.0", BUNDLED, "pi", NEW_PACKAGE)

    assert parts is not None
    what, fix = parts
    assert what == f"pi 1.6.0 is newer than the versions this set was tested with ({BUNDLED})"
    assert fix.startswith(f"only {OLD_PACKAGE} has those versions")
    assert drift_message("1.6.0", BUNDLED, "pi", NEW_PACKAGE) == f"{what}: {fix}"
    assert drift_parts("0.73.1", BUNDLED, "pi", OLD_PACKAGE) is None


def test_a_missing_pi_is_told_to_install_todays_package_with_its_node() -> None:
    fix = missing_fix()

    assert f"npm install -g {TODAY.package} (it needs Node {TODAY.node})" in fix
    assert TODAY.package == NEW_PACKAGE and OLDEST.package not in fix
    assert "[host] command" in fix
