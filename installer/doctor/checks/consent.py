"""Hook consent: approved projects whose hooks changed since, or that are gone."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from installer.doctor.checks.agent import existing
from installer.doctor.finding import Finding, count, info, ok, warn
from installer.doctor.subject import Subject
from installer.ground.shellword import shell_word


def approvals(s: Subject) -> Iterator[Finding]:
    """Each approval whose project's hooks are no longer the approved ones."""
    from installer.consent.commands import list_approvals
    from installer.consent.store import store_path, unsafe_fix

    agent = existing(s)
    result = list_approvals(agent)
    fix = unsafe_fix(store_path(agent))
    unreadable = {e.project: e for e in result.entries if e.state == "unreadable"}
    for line in result.warnings:
        # An unsafe store's warning ends with its fix: a doctor row says it on its fix line;
        # a project's hooks that cannot be read, with the fix for that.
        found = line.endswith(fix)
        fixes = [e.fix for p, e in unreadable.items() if p in line and e.fix]
        yield warn(line.removesuffix(fix).rstrip(), fix) if found else warn(line, *fixes[:1])
    for entry in result.entries:
        if entry.state == "changed":
            yield warn(
                f"the hooks of {entry.project} changed since you approved them "
                f"({entry.approved_at}); they will not run until approved again",
                f"ext consent approve {shell_word(Path(entry.project))}",
            )
        elif entry.state == "missing":
            yield info(
                f"{entry.project} (approved {entry.approved_at}) no longer exists",
                f"ext consent revoke {shell_word(Path(entry.project))}",
            )
    current = sum(e.state == "current" for e in result.entries)
    if current == len(result.entries) and not result.warnings:
        what = count(current, "approved project") if current else "no approved projects"
        yield ok(f"{what}; no hooks changed since approval")


def hooks_folder(s: Subject) -> Iterator[Finding]:
    """A `hooks/` folder in the agent dir makes pi warn, and wait for a key, at every start."""
    from installer.consent.legacy import inspect, only_old, settle_fix
    from installer.consent.store import store_path

    agent = existing(s)
    found = inspect(agent)
    if found is None:
        yield ok("no hooks/ folder in the agent dir (pi starts without a deprecation warning)")
        return
    warning = (
        f'{found.path} makes pi warn at every start ("hooks/ directory found. Hooks have been '
        'renamed to extensions") and wait for a key in interactive mode'
    )
    lacking = only_old(agent, found) if os.path.lexists(store_path(agent)) else []
    if found.problem is not None:
        yield warn(f"{warning}; {found.problem}, so ext leaves it alone", _aside(found.path))
    elif lacking is None or lacking:
        what = ", ".join(lacking) if lacking else "approvals that cannot be read"
        yield warn(
            f"{warning}; it holds ext's old approvals store, which alone approves {what}, "
            f"beside the current one",
            settle_fix(found, lacking),
        )
    elif found.store is not None and not found.others:
        yield warn(
            f"{warning}; it holds only ext's old approvals store",
            "ext consent list (moves the approvals to .extset/consent/ and removes hooks/)",
        )
    elif not found.others:
        yield warn(f"{warning}; it holds nothing", f"rmdir {shell_word(Path(found.path))}")
    else:
        yield warn(f"{warning}; it holds {', '.join(found.others)}", _aside(found.path))


def _aside(path: object) -> str:
    return (
        f"move what should load into extensions/, then move {path} out of the agent dir "
        f"(mv {shell_word(Path(str(path)))} ~/pi-hooks.old)"
    )


def runner(s: Subject) -> Iterator[Finding]:
    """Whether pi runs approved hooks at all (project-hooks), and for which projects."""
    from installer.consent.commands import list_approvals
    from installer.consent.runner import NAME

    result = list_approvals(existing(s))
    found = result.runner
    if found is None:
        return
    current = [e.project for e in result.entries if e.state == "current"]
    if found.runs:
        projects = ", ".join(current) if current else "none approved and unchanged yet"
        yield ok(f"{NAME} is enabled ({found.where}); pi runs the hooks of: {projects}")
    elif not result.entries:
        yield ok(f"no approved projects, and {NAME} is {found.state.replace('-', ' ')}")
    else:
        fix = f"ext enable {NAME}" if found.state == "disabled" else "ext install (the bundled set)"
        yield warn(f"{count(len(result.entries), 'approved project')}, but {found.sentence()}", fix)
