"""The update state follows pi: after pi changed, `ext update --check` records the check of
the pi found now, and doctor reports that check (not `not checked yet`), even when it got no
answer; the old pi's record stays its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from installer.updates import (
    HostFacts,
    InstallMethod,
    Limits,
    UpdateConfig,
    cached_report,
    doctor_findings,
    refresh,
)
from installer.updates.check import Report, check_ext
from installer.updates.results import CheckResult
from tests.helpers import build_tree

DEAD = "http://127.0.0.1:9/"  # nothing listens there: every check gets no answer
ENV = {"EXT_NPM_REGISTRY": DEAD, "EXT_INDEX_URL": DEAD}


def pi(tmp_path: Path, package: str, version: str) -> HostFacts:
    cli = f"lib/node_modules/{package}/dist/cli.js"
    return HostFacts(package, version, build_tree(tmp_path / version, {cli: ""}) / cli)


def host_row(host: HostFacts, cache: Path) -> tuple[str, str, str | None]:
    findings = doctor_findings(cached_report(host=host, cache_path=cache))
    found = next(f for f in findings if f.id == "update.host")
    return found.level, found.message, found.fix


def test_doctor_reports_the_check_of_the_pi_found_now(tmp_path: Path) -> None:
    cache = tmp_path / "updates.json"
    old = pi(tmp_path, "@mariozechner/pi-coding-agent", "0.73.1")
    new = pi(tmp_path, "@earendil-works/pi-coding-agent", "1.6.0")

    for found in (old, new):
        refresh(host=found, cache_path=cache, env=ENV, limits=Limits(timeout=0.5))

    level, message, fix = host_row(new, cache)
    assert level == "info"
    assert "not checked yet" not in message
    assert message == "@earendil-works/pi-coding-agent: no valid answer from EXT_NPM_REGISTRY"
    # `ext update --check` was run: it is not the fix; what the check could not reach is.
    assert fix is not None and fix.startswith("check the network, or the registry npm asks")
    assert "@mariozechner" in host_row(old, cache)[1]  # the old pi's check is still its own


def test_a_check_judged_by_another_tested_range_is_not_reported(tmp_path: Path) -> None:
    """A trial (helper-40): checked with `tested = "~0.73.0"`, then the set's range widened to
    "~1.6.0": doctor gave the first range's advice (what is out beyond it, the hint in it)
    beside a drift row saying the opposite. A pi's check stands for the range it was judged
    by; another range is `not checked yet` until `ext update --check`."""
    from dataclasses import replace

    cache = tmp_path / "updates.json"
    old = replace(pi(tmp_path, "@mariozechner/pi-coding-agent", "0.73.1"), tested="~0.73.0")
    refresh(host=old, cache_path=cache, env=ENV, limits=Limits(timeout=0.5))

    assert "not checked yet" not in host_row(old, cache)[1]
    level, message, fix = host_row(replace(old, tested="~1.6.0"), cache)
    assert (level, message, fix) == ("info", "pi: not checked yet", "ext update --check")


def report_of(result: CheckResult) -> Report:
    return Report((result,), InstallMethod("pip", "pip install -U extset", "pip"), 0.0)


def fake_python(tmp_path: Path, stderr: str) -> str:
    """A `python` whose `-m pip index versions extset` fails as pip does, saying `stderr`."""
    tool = tmp_path / "bin" / "python"
    build_tree(tool.parent, {"python": f"#!/bin/sh\nprintf '%s\\n' '{stderr}' >&2\nexit 1\n"})
    tool.chmod(0o755)
    return str(tool)


def test_an_index_without_extset_is_said_as_that(tmp_path: Path) -> None:

    python = fake_python(tmp_path, "ERROR: No matching distribution found for extset")
    method = InstallMethod("pip", "pip install -U extset", "pip")

    found = check_ext(UpdateConfig(), method, "0.1.0", Limits(timeout=5.0), python, {})

    assert (found.status, found.detail) == ("not-configured", "not on pip's index")
    [row] = [f for f in doctor_findings(report_of(found)) if f.id == "update.ext"]
    assert row.message == "ext: not on pip's index"
    assert row.fix is not None and "EXT_INDEX_URL" in row.fix


def test_an_index_pip_could_not_read_is_not_said_to_lack_extset(tmp_path: Path) -> None:

    said = (
        "WARNING: Retrying (Retry(total=4)) after connection broken' "
        "'ERROR: No matching distribution found for extset"
    )
    method = InstallMethod("pip", "pip install -U extset", "pip")

    found = check_ext(
        UpdateConfig(), method, "0.1.0", Limits(timeout=5.0), fake_python(tmp_path, said), {}
    )

    assert "not on" not in found.detail
    # Offline: pip has an index and could not reach it, which no configuration would mend.
    assert (found.status, found.detail) == ("unavailable", "pip's index could not be reached")
    [row] = [f for f in doctor_findings(report_of(found)) if f.id == "update.ext"]
    assert (row.message, row.fix) == (
        "ext: pip's index could not be reached",
        "check the network, or the index ext asks (EXT_INDEX_URL, or pip's index-url)",
    )


def test_an_npm_that_gets_no_answer_is_not_said_to_lack_a_registry(tmp_path: Path) -> None:
    """npm has a registry (its own default at least): offline, it got no answer from it."""
    from installer.updates.hostcheck import check_host

    host = pi(tmp_path, "@earendil-works/pi-coding-agent", "1.6.0")
    bin_dir = build_tree(tmp_path / "bin", {"npm": "#!/bin/sh\nexit 1\n"})
    (bin_dir / "npm").chmod(0o755)
    limits = Limits(timeout=5.0)

    offline = check_host(UpdateConfig(), host, {"PATH": str(bin_dir)}, tmp_path / "npm", limits)
    none = check_host(UpdateConfig(), host, {"PATH": str(tmp_path / "empty")}, tmp_path, limits)

    assert (offline.status, offline.detail) == (
        "unavailable",
        "npm got no answer from its registry",
    )
    assert (none.status, none.detail) == (
        "not-configured",
        "no registry configured, and no npm on PATH to ask",
    )


NPM_404 = """#!/bin/sh
echo '{"error": {"code": "E404", "summary": "Not Found - GET <registry>/@x%2fy"}}'
echo 'npm error code E404' >&2
exit 1
"""
NPM_OFFLINE = "#!/bin/sh\necho 'npm error code ENOTFOUND' >&2\nexit 1\n"
HANGS = "#!/bin/sh\nexec sleep 60\n"  # offline, npm and pip retry past the time allowed
NPM_401 = "#!/bin/sh\necho 'npm error code E401' >&2\nexit 1\n"  # a private registry's refusal


@pytest.mark.parametrize(
    ("npm", "detail"),
    [
        (NPM_404, "not on npm's registry"),
        (NPM_OFFLINE, "npm got no answer from its registry"),
        (HANGS, "npm got no answer from its registry"),
        (
            NPM_401,
            "npm's registry answered E401 (it asks for a login: npm login, or an _authToken "
            "for it in ~/.npmrc)",
        ),
        ("#!/bin/sh\necho not json\n", "npm's answer was unreadable"),
    ],
    ids=["E404", "offline", "timed out", "E401", "unreadable"],
)
def test_npm_s_answer_is_said_as_it_came(tmp_path: Path, npm: str, detail: str) -> None:
    """A registry without the package answered: not said as one that could not be reached."""
    from installer.updates.hostcheck import check_host

    host = pi(tmp_path, "@earendil-works/pi-coding-agent", "1.6.0")
    bin_dir = build_tree(tmp_path / "bin", {"npm": npm})
    (bin_dir / "npm").chmod(0o755)

    # Time for a loaded machine to start a shell that answers; only the hanging one uses it up.
    limit = Limits(0.5 if npm == HANGS else 10)
    found = check_host(UpdateConfig(), host, {"PATH": str(bin_dir)}, tmp_path, limit)

    assert (found.status, found.detail) == ("unavailable", detail)
    # helper-73: the package was said twice (`<package>: <package> is not on …`)
    assert found.line() == f"@earendil-works/pi-coding-agent: {detail}"


def test_a_pip_that_outlives_its_time_could_not_reach_its_index(tmp_path: Path) -> None:
    """Offline, pip retries past the time allowed: that is no missing configuration."""
    tool = build_tree(tmp_path / "bin", {"python": HANGS}) / "python"
    tool.chmod(0o755)
    method = InstallMethod("pip", "pip install -U extset", "pip")

    found = check_ext(UpdateConfig(), method, "0.1.0", Limits(timeout=0.2), str(tool), {})

    assert (found.status, found.detail) == ("unavailable", "pip's index could not be reached")
