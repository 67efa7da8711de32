"""The table of pi lines: which line a pi found belongs to, by its version and its package."""

from __future__ import annotations

import pytest

from installer.host.lines import (
    LINES,
    NEW_PACKAGE,
    OLD_PACKAGE,
    OLDEST,
    TODAY,
    install_spec,
    line_named,
    line_of,
)


@pytest.mark.parametrize(
    ("version", "package", "name"),
    [
        ("0.73.1", OLD_PACKAGE, "0.73"),
        ("0.73.1", None, "0.73"),
        ("0.12.0", None, "0.73"),
        ("0.74.0", NEW_PACKAGE, "1.x"),
        ("1.6.0", None, "1.x"),
        ("v1.6.0", None, "1.x"),
        ("2.0.0-rc.1", None, "1.x"),
        (None, OLD_PACKAGE, "0.73"),
        (None, NEW_PACKAGE, "1.x"),
        (None, None, "1.x"),
        ("not a version", None, "1.x"),
        ("0.80.0", OLD_PACKAGE, "0.73"),  # the package is what was installed
    ],
)
def test_line_of(version: str | None, package: str | None, name: str) -> None:
    assert line_of(version, package).name == name


def test_the_lines_are_in_order_and_each_tested_release_is_in_its_own_line() -> None:
    assert [line_of(line.tested) for line in LINES] == list(LINES)
    assert LINES[0] is OLDEST and LINES[-1] is TODAY
    assert TODAY.package == NEW_PACKAGE and OLDEST.package == OLD_PACKAGE


def test_line_named_knows_only_pi_packages() -> None:
    assert line_named(OLD_PACKAGE) is OLDEST
    assert line_named("left-pad") is None


def test_install_spec_names_the_tested_release_unless_told() -> None:
    assert install_spec(OLDEST) == f"{OLD_PACKAGE}@0.73.1"
    assert install_spec(TODAY, "1.5.2") == f"{NEW_PACKAGE}@1.5.2"
