"""`ext doctor`: a table with the fix under each finding and a summary, or DESIGN.md's JSON;
`--list-checks`: the checks."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from installer.doctor.finding import SEVERITY, Finding, count
from installer.doctor.verdict import exit_code

if TYPE_CHECKING:
    from installer.commands.doctor import CheckList, Report
    from installer.doctor.registry import Check
    from installer.render.ui import Output

_COLOR = {"ok": "32", "info": "36", "warn": "33", "error": "31", "failed": "35"}
_LEVEL_WIDTH = 6
_ID_WIDTH = 17


def show(out: Output, result: CheckList | Report) -> int:
    from installer.commands.doctor import CheckList

    if out.json:
        out.data(result.to_json())
    elif isinstance(result, CheckList):
        for line in check_list(result.checks):
            out.out(line)
    else:
        if out.headed:  # one of the agents a set serves: whose checks these are
            from installer.hosts.table import HOSTS
            from installer.render.ui import tilde

            title = HOSTS[result.host].title if result.host in HOSTS else result.host
            whose = "agent dir" if result.host == "pi" else f"{title}'s dir"
            out.out(f"{whose} {tilde(result.agent_dir) if result.agent_dir else '(not found)'}")
        paint = out.paint if out.color else None
        for line in table(result.findings, paint, quiet=out.quiet, runnable=out.runnable):
            out.out(line)
        out.out(summary(result.findings, result.strict))
    return 0 if isinstance(result, CheckList) else result.exit_code


def table(
    findings: Sequence[Finding],
    paint: Any = None,
    quiet: bool = False,
    runnable: Callable[[str], str] = str,
) -> list[str]:
    """One row per finding (level, check id, message), the fix indented under its message;
    `runnable` names each ext command in them as the person can run it (Output.runnable)."""
    width = max([_ID_WIDTH, *(len(f.id) + 1 for f in findings)])
    # The rows -q shows that a skip may point at as its cause (`… (see agent.dir)`).
    causes = {f.id for f in findings if f.level != "ok" and not _causes(f)}
    indent = " " * (_LEVEL_WIDTH + 1 + width + 1)
    lines = []
    for f in findings:
        if quiet and (f.level == "ok" or causes.intersection(_causes(f))):
            continue
        level = f"{f.level:<{_LEVEL_WIDTH}}"
        if paint is not None:
            level = paint(level, _COLOR[f.level])
        lines.append(f"{level} {f.id:<{width}} {runnable(f.message)}")
        if f.fix:
            lines.append(f"{indent}fix: {runnable(f.fix)}")
    return lines


def _causes(f: Finding) -> list[str]:
    """The rows a skip names as its cause (`not checked: … (see set, agent.dir)`); none for
    any other row. -q leaves a skip to a cause it shows (helper-72: twenty rows of `(see
    agent.dir)` under the one error), never to one it does not (helper-74)."""
    if f.level != "info" or not f.message.startswith("not checked: "):
        return []
    found = _SEE.search(f.message)
    return found.group(1).split(", ") if found else []


_SEE = re.compile(r"\(see ([a-z.-]+(?:, [a-z.-]+)*)\)$")


def summary(findings: Sequence[Finding], strict: bool) -> str:
    """`21 ok, 2 info, 1 warning, 0 errors: exit 0`."""
    n = {level: sum(f.level == level for f in findings) for level in SEVERITY}
    parts = [f"{n['ok']} ok", f"{n['info']} info", count(n["warn"], "warning")]
    parts.append(count(n["error"], "error"))
    if n["failed"]:
        parts.append(f"{n['failed']} failed to run")
    code = exit_code(findings, strict)
    why = " (--strict: warnings count)" if strict and n["warn"] else ""
    return f"{', '.join(parts)}: exit {code}{why}"


def check_list(checks: Sequence[Check]) -> list[str]:
    """--list-checks: id, what it looks at, and when it runs."""
    width = max(len(c.id) for c in checks) + 1
    return [f"{c.id:<{width}} {c.summary}" + ("  (with --deep)" if c.deep else "") for c in checks]
