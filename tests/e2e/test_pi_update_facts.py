"""What ext models of `pi update`, read in each real pi's own dist (no Node started): the
managed install's marker, and the self-update command that replaces pi's own install."""

from __future__ import annotations

import json

import pytest

from installer.updates.hostmethod import MARKER, MARKER_FIELDS, SELF_UPDATE_VAR
from tests.pis import RealPi

pytestmark = pytest.mark.e2e


def test_a_managed_install_is_read_as_pi_reads_it(real_pi: RealPi) -> None:
    cli = (real_pi.package_dir / "dist" / "package-manager-cli.js").read_text(encoding="utf-8")

    has = "PI_MANAGED_INSTALL_ROOT" in cli and f'"{MARKER}"' in cli
    assert has is real_pi.line.managed_install
    for key, value in MARKER_FIELDS.items():  # the marker's fields, as pi checks them
        assert (f"marker.{key} !== {json.dumps(value)}" in cli) is real_pi.line.managed_install
    # a release's package: <root>/releases/<version>/node_modules/.bin/pi
    assert ('join(managedRoot, "releases")' in cli) is real_pi.line.managed_install


def test_the_self_update_command_is_filled_as_pi_fills_it(real_pi: RealPi) -> None:
    config = (real_pi.package_dir / "dist" / "config.js").read_text(encoding="utf-8")

    assert (f"process.env.{SELF_UPDATE_VAR}" in config) is real_pi.line.self_update_command
    placeholders = r"/\{(packageName|version|installSpec)\}/g"
    assert (placeholders in config) is real_pi.line.self_update_command
