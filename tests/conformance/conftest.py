"""The conformance suite needs the real pi: in CI a missing pi fails, it is never skipped."""

from __future__ import annotations

import pytest

from installer.host.pi import HostInfo, find_host
from tests.pis import RealPi


@pytest.fixture(scope="session")
def pi_host(real_pi: RealPi) -> HostInfo:
    """The real pi of this run, found as ext finds it, with the Node it needs on PATH."""
    host = find_host(str(real_pi.bin), real_pi.path())
    if host is None:
        pytest.fail(f"ext does not find pi {real_pi.version} at {real_pi.bin}")
    return host
