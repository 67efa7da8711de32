"""--deep: ext's list held against pi's own loader, item by item, each difference with a fix.

pi's `DefaultResourceLoader` (asked through installer/host/loader.py) says which files it
loads from the agent dir, which extensions failed and why, and which tools or flags two
extensions both register. Only what lies in the set is ext's business: the rest of the
agent dir is the user's own.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from pathlib import Path

from installer.doctor.checks.agent import existing
from installer.doctor.checks.failures import Clash, conflict_finding, failure_fix, inside
from installer.doctor.checks.node import require_node
from installer.doctor.finding import Finding, Skip, count, error, info, ok, warn
from installer.doctor.subject import Subject
from installer.ground.shellword import shell_word
from installer.host.loader import Failure, Unavailable, View


def compare(s: Subject) -> Iterator[Finding]:
    """Ask pi's loader what it loads from the agent dir, and compare with `ext list`."""
    from installer.links.states import items

    agent = existing(s)
    ctx = s.ctx
    if ctx is None:
        raise Skip("the set was not found (see set)")
    s.runnable_host()  # never the set's own binary before the set is installed
    require_node(s)
    answer = s.loader_view(agent)
    if isinstance(answer, Unavailable):
        yield info(
            f"pi's loader was not asked: {answer.reason}",
            "`ext doctor --check host.load` starts pi offline and reports what fails to load",
        )
        return
    _, listed = items(ctx)
    ext = [(i.resource.label, i.state, frozenset(i.resource.entries())) for i in listed]
    root = os.path.realpath(ctx.set_root)
    reported, clashes = frozenset(s.load_failures), frozenset(s.clashes)
    yield from findings(answer, ext, root, reported, clashes, os.path.realpath(agent))


def findings(
    view: View,
    ext: Sequence[tuple[str, str, frozenset[str]]],
    set_root: str,
    reported: frozenset[str] = frozenset(),
    clashes: frozenset[tuple[str, str, str]] = frozenset(),
    agent_dir: str | None = None,
) -> Iterator[Finding]:
    """Each difference between ext's items (label, state, entries) and pi's view, as a finding.

    A load failure in `reported` (real paths) or a conflict in `clashes` ((real path, tool or
    flag, name)), both host.load's in the same run, is not said again. What pi loads from
    `agent_dir` (real) is not the set's, even in the set's folder (ext's /ext copy).
    """
    if view.error:
        yield warn(
            f"pi's loader stopped on this agent dir: {view.error.splitlines()[0]}",
            "start pi by hand to see the whole error: ext launch -- -p x --offline",
        )
        return
    label_of = {path: label for label, _, entries in ext for path in entries}
    loaded = {item.real for item in view.loaded}
    failed = {f.real: f for f in view.failed}
    out: list[Finding] = [
        error(
            f"pi could not read its settings ({problem}): it loads none of the packages listed "
            "there, a registered set included",
            "ext doctor --check settings.json (says where settings.json is broken)",
        )
        for problem in view.settings_errors
    ]
    for label, state, entries in ext:
        out += _item(label, state, entries, loaded, failed, view)
    unknown = (p for p in loaded if inside(p, set_root) and p not in label_of)
    # The deepest root wins (installer.links.scan): an agent dir in the set's folder is not the
    # set's, a set in the agent dir's folder (or the agent dir itself) is.
    nested = (
        agent_dir if agent_dir and agent_dir != set_root and inside(agent_dir, set_root) else None
    )
    for path in sorted(p for p in unknown if not (nested and inside(p, nested))):
        out.append(
            warn(
                f"pi loads {os.path.relpath(path, set_root)} from the set; ext does not know it",
                "ext's model of the set missed one of pi's rules: report it; until then, move "
                "the file out of the set or exclude it in the set's package.json `pi` manifest",
            )
        )
    said = [f for f in view.failed if f.real in reported]
    out += [_failure(f, label_of.get(f.real), set_root) for f in view.failed if f not in said]
    heard = [c for c in view.conflicts if (c.real, c.what, c.name) in clashes]
    out += [
        conflict_finding(Clash(c.real, c.what, c.name, c.other), label_of)
        for c in view.conflicts
        if c not in heard
    ]
    yield from out
    if not out:
        enabled = sum(1 for _, state, _ in ext if state == "enabled")
        also = [f"{count(len(said), 'extension')} failed to load"] if said else []
        also += [count(len(heard), "tool or flag conflict")] if heard else []
        yield ok(
            # "of the set": other sets' items load too (helper-39, helper-47: "nothing else"
            # read as the whole dir's)
            f"pi's loader loads what ext says of the set: {count(enabled, 'enabled item')}, "
            "nothing else of it" + (f" ({', '.join(also)}: see host.load)" if also else "")
        )


def _item(
    label: str,
    state: str,
    entries: frozenset[str],
    loaded: set[str],
    failed: dict[str, Failure],
    view: View,
) -> Iterator[Finding]:
    """The item's entries against what pi loads: enabled and not loaded, or off and loaded."""
    off = f"`ext disable {shell_word(label)}`"
    if state == "enabled":
        missing = sorted(p for p in entries if p not in loaded and p not in failed)
        winner = _winner(view, missing)
        if winner is not None:
            yield warn(
                f"ext says {label} is enabled, pi loads {winner} instead, another of its name "
                "(a collision)",
                f"remove or rename one of them ({off} keeps the other one)",
            )
        elif missing:
            why = _diagnostic(view, missing)
            yield error(
                f"ext says {label} is enabled, pi does not load {', '.join(missing)}"
                + (f": {why}" if why else ""),
                f"fix the file as pi says, or {off}"
                if why
                else f"ext install (relinks it); if pi still skips it, {off}",
            )
    elif state in ("disabled", "not-installed"):
        loading = sorted(p for p in entries if p in loaded)
        if loading:
            yield error(
                f"ext says {label} is {state}, and pi loads {', '.join(loading)}",
                off.strip("`") if state == "disabled" else "ext install, then check again",
            )


def _winner(view: View, paths: list[str]) -> str | None:
    """The file pi loaded instead of one of `paths`, of the same name (a collision)."""
    wanted = set(paths)
    for d in view.diagnostics:
        if d.winner and d.path is not None and os.path.realpath(d.path) in wanted:
            return d.winner
    return None


def _diagnostic(view: View, paths: list[str]) -> str | None:
    """What pi said about a file it found and would not load (a bad skill, a bad theme)."""
    wanted = set(paths)
    for d in view.diagnostics:
        if d.path is not None and os.path.realpath(d.path) in wanted:
            return _said(d.message)
    return None


def _said(message: str) -> str:
    """pi's message on one line, without the code frame the yaml package adds after a blank
    line (helper-77: its caret line, squashed into the sentence, read as noise)."""
    text = message.strip()
    if "\n\n" in text:
        text = text.split("\n\n", 1)[0].rstrip().removesuffix(":")
    return " ".join(text.split())


def _failure(failure: Failure, label: str | None, set_root: str) -> Finding:
    """pi could not load an extension: pi's reason, and for a missing npm module, the install."""
    reason = failure.error.splitlines()[0].removeprefix("Failed to load extension: ")
    name = f"{label}: " if label else ""
    fix = failure_fix(Path(failure.real), failure.error, label, failure.path, set_root)
    return error(f"{name}pi could not load {failure.real}: {reason}", fix)
