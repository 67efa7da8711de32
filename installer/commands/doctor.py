"""`ext doctor`: what is wrong with the install, and how to fix it (read only).

The checks are in installer/doctor/ (`registry.py` is their table); here the options pick
which run, and the findings come back as one report for the renderer.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from installer.ground.records import NamedTuple

if TYPE_CHECKING:
    from installer.doctor import Check, Finding
    from installer.ground.context import Env


class Doctor(NamedTuple):
    """`ext doctor`'s options, as installer.cli.grammar names them."""

    deep: bool = False
    strict: bool = False
    list_checks: bool = False
    check: tuple[str, ...] = ()  # check ids, split at commas
    no_network: bool = False
    trust_set: bool = False  # run the set's own [host] command before it is installed here


class Where(NamedTuple):
    """What doctor looks at: the set and agent dir as given, never resolved beforehand (a
    broken one is a finding, not an error)."""

    env: Env
    set_dir: Path | None
    agent_dir: Path | None
    debug: bool = False  # a crashed check raises instead of becoming a finding
    host: str | None = None  # --host; EXT_HOST and pi are resolve_subject's to read


class CheckList(NamedTuple):
    """`--list-checks`: the checks that would run."""

    checks: tuple[Check, ...]

    def to_json(self) -> dict[str, Any]:
        return {"checks": [c.to_json() for c in self.checks]}


class Report(NamedTuple):
    """The findings of a run, and whether warnings count (`--strict`)."""

    findings: tuple[Finding, ...]
    strict: bool
    host: str = "pi"  # the host the checks looked at (`--host`)
    agent_dir: Path | None = None  # the dir they looked at (None: it could not be resolved)

    def to_json(self) -> dict[str, Any]:
        from installer.doctor import to_json

        data = to_json(self.findings, self.strict)
        where = str(self.agent_dir) if self.agent_dir is not None else None
        return {"ok": data["ok"], "host": self.host, "agent_dir": where, "checks": data["checks"]}

    @property
    def exit_code(self) -> int:
        from installer.doctor import exit_code

        return exit_code(self.findings, self.strict)


def doctor(where: Where, options: Doctor) -> CheckList | Report:
    """Run the chosen checks (or list them); a check that raises is reported as failed."""
    from installer.doctor import CHECKS, resolve_subject, run_checks, select_checks

    if options.list_checks:
        from installer.hosts.table import host_named

        ext_host = where.env.environ.get("EXT_HOST")
        named, source = (where.host, "--host") if where.host else (ext_host, "EXT_HOST")
        host = host_named(named, source).name if named else None
        return CheckList(select_checks(options.check, True, host) or CHECKS)
    subject = resolve_subject(where.env, where.set_dir, where.agent_dir, host=where.host)
    subject.trust_set = options.trust_set
    network = not options.no_network
    found = run_checks(subject, options.check, options.deep, network, debug=where.debug)
    return Report(tuple(found), options.strict, subject.on.name, subject.agent_dir)
