"""`ext outdated` / `ext update`: one line per thing checked, or the report's JSON."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from installer.render.ui import Output
    from installer.updates.check import Report

# What to do when a check could not run for want of configuration.
UNCONFIGURED = {
    "ext": "to check ext, set EXT_INDEX_URL (or index-url in your pip config, or [updates] "
    "index in ~/.config/extset/config.toml) to your package index",
    "host": "to check pi, set EXT_NPM_REGISTRY (or registry= in ~/.npmrc) to your npm registry",
}


def show(out: Output, report: Report) -> int:
    from installer.render import text_or_json

    for w in report.warnings:
        out.warn(w)
    return text_or_json(out, report, lines)


def lines(report: Report) -> list[str]:
    """One line per thing checked; an unconfigured check says what to configure."""
    found = []
    for result in report.results:
        line = result.line()
        if result.status == "up-to-date":  # the words doctor uses too, with what else is out
            from installer.updates.words import up_to_date

            line = up_to_date(result.label or result.name, result.current)
            line += f"; {result.detail}" if result.detail else ""  # helper-40: it was dropped
        if result.status == "not-configured" and result.name in UNCONFIGURED:
            from installer.updates.findings import elsewhere_fix

            line += f"; {elsewhere_fix(result.detail) or UNCONFIGURED[result.name]}"
        elif result.fix:
            line += f"; {result.fix}"
        found.append(line)
    return found
