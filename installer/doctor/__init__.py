"""`ext doctor`: one function per check, each returning Findings (level, id, message, fix).

`run_checks(subject, ids, deep, network)` runs them in order; a check that raises is
reported as `failed` (its own bug, never the install's) and the rest still run.
"""

from __future__ import annotations

from installer.doctor.finding import LEVELS, Finding, Level, Skip
from installer.doctor.registry import CHECKS, Check, run_checks, select_checks
from installer.doctor.subject import Subject, resolve_subject
from installer.doctor.verdict import exit_code, to_json

__all__ = [
    "CHECKS",
    "LEVELS",
    "Check",
    "Finding",
    "Level",
    "Skip",
    "Subject",
    "exit_code",
    "resolve_subject",
    "run_checks",
    "select_checks",
    "to_json",
]
