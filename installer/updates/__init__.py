"""Update checks with install-aware hints: `ext update --check`, passive notices, doctor checks.

Importing this package costs nothing: each name below loads its module on first
use (PEP 562), and httpx, semver, tomlkit and subprocesses load inside the
functions that need them, so a passive notice stays off the start-up budget.

- `check_now(...)` -> `Report`: ext, the host and the set, now, with timeouts.
- `passive_notice(...)` -> `Notice | None`: the cached notice, at most once a day.
- `cached_report(...)`, `doctor_findings(report)`: doctor's checks without network.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False
if TYPE_CHECKING:
    from installer.updates.check import HostFacts, Report, check_now
    from installer.updates.config import UpdateConfig, load_config, write_user_option
    from installer.updates.fetch import Limits
    from installer.updates.findings import cached_report, doctor_findings
    from installer.updates.hostmethod import detect_host_method
    from installer.updates.method import (
        InstallFacts,
        InstallMethod,
        current_install_facts,
        detect_install_method,
    )
    from installer.updates.notice import Notice, passive_notice, refresh, spawn_refresh
    from installer.updates.paths import user_config_path
    from installer.updates.results import CheckResult

_HOME = {
    "check": ("HostFacts", "Report", "check_now"),
    "config": ("UpdateConfig", "load_config", "write_user_option"),
    "fetch": ("Limits",),
    "findings": ("cached_report", "doctor_findings"),
    "hostmethod": ("detect_host_method",),
    "method": ("InstallFacts", "InstallMethod", "current_install_facts", "detect_install_method"),
    "notice": ("Notice", "passive_notice", "refresh", "spawn_refresh"),
    "paths": ("user_config_path",),
    "results": ("CheckResult",),
}
_MODULE_OF = {name: module for module, names in _HOME.items() for name in names}

__all__ = [
    "CheckResult",
    "HostFacts",
    "InstallFacts",
    "InstallMethod",
    "Limits",
    "Notice",
    "Report",
    "UpdateConfig",
    "cached_report",
    "check_now",
    "current_install_facts",
    "detect_host_method",
    "detect_install_method",
    "doctor_findings",
    "load_config",
    "passive_notice",
    "refresh",
    "spawn_refresh",
    "user_config_path",
    "write_user_option",
]


def __getattr__(name: str) -> object:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
