"""The conformance suite needs the real pi: in CI a missing pi fails, it is never skipped."""

from __future__ import annotations

import os

import pytest

from installer.host.pi import HostInfo, find_host
from tests.e2e.conftest import find_pi


@pytest.fixture(scope="session")
def pi_host() -> HostInfo:
    """The real pi, found as ext finds it (PATH, else the copy scripts/setup installed)."""
    pi = find_pi()
    host = find_host(str(pi)) if pi is not None else None
    if host is None:
        message = "the real pi is not installed: run scripts/setup"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return host
