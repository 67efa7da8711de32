"""--deep: ext's list held against pi's own loader, item by item, each difference with a fix.

pi's `DefaultResourceLoader` (asked through installer/pi_loader.py) says which files it
loads from the agent dir, which extensions failed and why, and which tools or flags two
extensions both register. Only what lies in the set is ext's business: the rest of the
agent dir is the user's own.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

from installer.doctor.checks.agent import existing
from installer.doctor.finding import Finding, Skip, count, error, info, ok, warn
from installer.doctor.subject import Subject
from installer.pi_loader import Conflict, Failure, Unavailable, View

_MISSING_MODULE = r"Cannot find (?:module|package) '([^']+)'"


def compare(s: Subject) -> Iterator[Finding]:
    """Ask pi's loader what it loads from the agent dir, and compare with `ext list`."""
    from installer.links.states import items
    from installer.pi_loader import ask

    agent = existing(s)
    ctx = s.ctx
    if ctx is None:
        raise Skip("the set was not found (see set)")
    host = s.host()
    if host is None:
        raise Skip(f"{s.host_command} was not found (see host)")
    # The agent dir as the cwd: a project's .pi/extensions is code doctor has no consent to run.
    answer = ask(host, [(agent, agent)], s.env.environ)
    if isinstance(answer, Unavailable):
        yield info(
            f"pi's loader was not asked: {answer.reason}",
            "`ext doctor --check host.load` starts pi offline and reports what fails to load",
        )
        return
    _, listed = items(ctx)
    ext = [(i.resource.label, i.state, frozenset(i.resource.entries())) for i in listed]
    yield from findings(answer[0], ext, os.path.realpath(ctx.set_root), frozenset(s.load_failures))


def findings(
    view: View,
    ext: list[tuple[str, str, frozenset[str]]],
    set_root: str,
    reported: frozenset[str] = frozenset(),
) -> Iterator[Finding]:
    """Each difference between ext's items (label, state, entries) and pi's view, as a finding.

    A load failure in `reported` (host.load's, in the same run) is counted, not said again.
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
    for path in sorted(p for p in loaded if _inside(p, set_root) and p not in label_of):
        out.append(
            warn(
                f"pi loads {os.path.relpath(path, set_root)} from the set; ext does not know it",
                "ext's model of the set missed one of pi's rules: report it; until then, move "
                "the file out of the set or exclude it in the set's package.json `pi` manifest",
            )
        )
    said = [f for f in view.failed if f.real in reported]
    out += [_failure(f, label_of.get(f.real), set_root) for f in view.failed if f not in said]
    out += [_conflict(c, label_of) for c in view.conflicts]
    yield from out
    if not out:
        enabled = sum(1 for _, state, _ in ext if state == "enabled")
        also = f" ({count(len(said), 'extension')} failed to load: see host.load)" if said else ""
        yield ok(
            f"pi's loader loads what ext says: {count(enabled, 'enabled item')}, nothing else"
            + also
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
    if state == "enabled":
        missing = sorted(p for p in entries if p not in loaded and p not in failed)
        if missing:
            why = _diagnostic(view, missing)
            yield error(
                f"ext says {label} is enabled, pi does not load {', '.join(missing)}"
                + (f": {why}" if why else ""),
                f"fix the file as pi says, or `ext disable {label}`"
                if why
                else f"ext install (relinks it); if pi still skips it, `ext disable {label}`",
            )
    elif state in ("disabled", "not-installed"):
        loading = sorted(p for p in entries if p in loaded)
        if loading:
            yield error(
                f"ext says {label} is {state}, and pi loads {', '.join(loading)}",
                f"ext disable {label}" if state == "disabled" else "ext install, then check again",
            )


def _diagnostic(view: View, paths: list[str]) -> str | None:
    """What pi said about a file it found and would not load (a bad skill, a bad theme)."""
    wanted = set(paths)
    for d in view.diagnostics:
        if d.path is not None and os.path.realpath(d.path) in wanted:
            return d.message.replace("\n", " ").strip()
    return None


def _failure(failure: Failure, label: str | None, set_root: str) -> Finding:
    """pi could not load an extension: pi's reason, and for a missing npm module, the install."""
    reason = failure.error.splitlines()[0].removeprefix("Failed to load extension: ")
    name = f"{label}: " if label else ""
    module = re.search(_MISSING_MODULE, failure.error)
    if module and not module.group(1).startswith((".", "/")):
        package = _package_name(module.group(1))
        folder = _package_folder(Path(failure.real), set_root)
        todo = "" if _declares(folder, package) else f" {package}"
        fix = f"cd {folder} && npm install{todo}"
    elif label:
        fix = f"fix the extension, or `ext disable {label}` until it loads"
    else:
        fix = f"fix or remove {failure.path}"
    return error(f"{name}pi could not load {failure.real}: {reason}", fix)


def _package_folder(entry: Path, set_root: str) -> Path:
    """The nearest folder with a package.json above `entry`, within the set; else its folder."""
    for folder in entry.parents:
        if (folder / "package.json").is_file():
            return folder
        if str(folder) == set_root or not _inside(str(folder), set_root):
            break
    return entry.parent if not _inside(str(entry), set_root) else Path(set_root)


def _package_name(module: str) -> str:
    """The npm package a module path is in: `@scope/pkg/sub` -> `@scope/pkg`, `pkg/sub` -> `pkg`."""
    parts = module.split("/", maxsplit=2)
    return "/".join(parts[:2]) if module.startswith("@") else parts[0]


def _declares(folder: Path, package: str) -> bool:
    """True when the folder's package.json lists `package` as a dependency."""
    import json

    try:
        data = json.loads((folder / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    keys = ("dependencies", "optionalDependencies", "peerDependencies", "devDependencies")
    return isinstance(data, dict) and any(package in (data.get(k) or {}) for k in keys)


def _conflict(c: Conflict, label_of: dict[str, str]) -> Finding:
    """Two extensions register one tool or flag: both load, and the first one loaded wins."""
    mine = label_of.get(c.real, c.real)
    other = label_of.get(os.path.realpath(c.other), c.other)
    return warn(
        f"{c.what} {c.name} is registered by both {other} and {mine}: a conflict, not a load "
        f"failure; pi loads both and uses {other}'s",
        f"rename the {c.what} in one of them, or `ext disable` the one you do not need",
    )


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)
