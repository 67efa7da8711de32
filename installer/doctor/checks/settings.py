"""settings.json: parses, no retired or renamed keys, seeds present, no lock left in the way."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from installer.doctor.checks.agent import existing
from installer.doctor.finding import Finding, Skip, count, error, info, ok, warn
from installer.doctor.subject import Subject
from installer.ground.manifest import Manifest
from installer.ground.shellword import shell_word

_NOTHING_CHANGED = "; nothing was changed"


def parses(s: Subject) -> Iterator[Finding]:
    """settings.json is a JSON object pi can read (an error names the line and column)."""
    existing(s)
    read = s.settings()
    if read.error is not None:
        said = read.error.message.replace(_NOTHING_CHANGED, "")
        if _pi_reads(s) is not None:  # helper-58: a duplicate key, a BOM on pi 1.x
            found = s.pi_line().name
            said += f"; the pi found ({found}) reads it; ext edits it once that is fixed"
            yield warn(said, read.error.fix)
            return
        yield error(said, read.error.fix)
        return
    if read.text is None:
        yield _dangling(read.path) or ok(
            "no settings.json yet (pi and `ext install` create it when needed)"
        )
        return
    data = read.data or {}
    if "packages" in data and not isinstance(data["packages"], list):
        yield error('"packages" in settings.json is not a list', "make it a JSON list: [ … ]")
        return
    yield ok(f"settings.json parses ({count(len(data), 'key')})")


def _dangling(path: Path) -> Finding | None:
    """settings.json, a link to a file that is not there (helper-86: called healthy, then an
    install that seeds failed to write through it): pi reads no settings, and a write goes
    where it leads, which fails while the folder there is missing."""
    if not os.path.islink(path):
        return None
    target = Path(os.path.realpath(path))
    there = "" if target.parent.is_dir() else ", in a folder that does not exist"
    what = f"settings.json is a link to {target}{there}: pi reads no settings"
    if there:
        what += ", and its writes and ext's fail"
    return warn(what, f"point it at a file, or remove it: rm {shell_word(path)}")


def _data(s: Subject) -> tuple[Manifest, dict[str, Any]]:
    existing(s)
    if s.manifest is None:
        raise Skip("the set's manifest could not be read (see set.manifest)")
    read = s.settings()
    if read.error is not None or read.data is None:
        data = _pi_reads(s)
        if data is None:
            raise Skip("pi cannot read settings.json (see settings.json)")
        return s.manifest, data
    return s.manifest, read.data


def _pi_reads(s: Subject) -> dict[str, Any] | None:
    """settings.json's data as the pi found reads it, when ext's reader refused the text."""
    from installer.settings.switches import as_pi_parses

    read = s.settings()
    return None if read.text is None else as_pi_parses(read.text, s.pi_line().strips_bom)


def keys(s: Subject) -> Iterator[Finding]:
    """Keys the set's manifest says pi no longer reads, or reads under a new name."""
    from installer.settings import dotted, find_renamed, find_retired

    manifest, data = _data(s)
    retired = find_retired(data, manifest.retired)
    renamed = find_renamed(data, manifest.renamed)
    for r in retired:
        yield warn(
            f"settings.json still has {r.key!r}, which was retired: {r.why}",
            "remove it from settings.json, or `ext settings migrate --remove-retired`",
        )
    for n in renamed:
        # What `ext settings migrate` leaves as it is, the fix says by hand (as migrate does).
        blocked = None if n.new_present else dotted.lookup(data, n.new).blocked_at
        if n.new_present:
            said, fix = f" (both are set: pi reads {n.new!r})", f"remove {n.old!r} by hand"
            fix += f" once {n.new!r} holds what you want"
        elif blocked is not None:
            said = f" ({blocked!r} is not an object, so it cannot hold {n.new!r})"
            fix = f"make {blocked!r} an object, then `ext settings migrate`"
        else:
            said, fix = "", "ext settings migrate"
        yield warn(f"settings.json still has {n.old!r}, renamed to {n.new!r}{said}", fix)
    if not retired and not renamed:
        listed = len(manifest.retired) + len(manifest.renamed)
        yield ok(f"no retired or renamed keys ({listed} known to the set)")


def seeds(s: Subject) -> Iterator[Finding]:
    """The set's first-run settings: present, whatever their value (that is the user's choice)."""
    from installer.settings import apply_seeds

    manifest, data = _data(s)
    if not manifest.seeds:
        yield ok("the set seeds no settings")
        return
    result = apply_seeds(data, manifest.seeds)
    # A seed is written once: one ext wrote here and the user removed stays removed.
    removed = _seeded_here(s) & result.seeded.keys()
    fresh = {k: v for k, v in result.seeded.items() if k not in removed}
    if fresh:
        yield info(f"first-run settings not in settings.json yet: {_shown(fresh)}", "ext install")
    if removed:
        shown = _shown({k: result.seeded[k] for k in sorted(removed)})
        yield info(
            f"first-run settings written here once and removed since: {shown} "
            "(`ext install` leaves them removed)",
            "ext install --reseed  (writes them again, if you want them back)",
        )
    for b in result.blocked:
        yield warn(
            f"the first-run setting {b.key!r} cannot be written: {b.at!r} in settings.json "
            "is not an object",
            f"make {b.at!r} an object, or leave it: the seed is only a default",
        )
    if not result.seeded and not result.blocked:
        yield ok(f"{count(len(result.kept), 'first-run setting')} present (the values are yours)")


def _seeded_here(s: Subject) -> frozenset[str]:
    """The seed keys an install of this set wrote in this agent dir once (state record)."""
    from installer.ground.state import load_state
    from installer.settings.plan import seeded_before

    ctx = s.ctx
    if ctx is None:
        return frozenset()
    record = load_state(ctx.agent_dir).record_of(ctx.set_root, ctx.manifest.name)
    return seeded_before(record, ctx)


def _shown(seeds: dict[str, Any]) -> str:
    return ", ".join(f"{k} = {json.dumps(v)}" for k, v in seeds.items())


def lock(s: Subject) -> Iterator[Finding]:
    """pi's lock: a *file* at settings.json.lock, or a dir left behind, makes pi skip settings."""
    from installer.settings import inspect_lock, lock_path

    agent = existing(s)
    path = agent / "settings.json"
    yield lock_finding(inspect_lock(path), str(lock_path(path)))


def lock_finding(state: str, path: str) -> Finding:
    """The finding for a lock state from `inspect_lock`."""
    if state == "file":
        return error(
            f"{path} is a file: pi cannot lock settings.json and reads it as empty (no packages, "
            "no switches, none of its settings)",
            f"rm {shell_word(Path(path))}",
        )
    if state == "stale":  # over 10 s old, or its ext's owner file names a process gone
        return error(
            f"{path} is a lock folder left by a pi or ext that stopped while writing; while "
            "pi cannot take it over, it reads settings.json as empty",
            f"rmdir {shell_word(Path(path))} if no pi or ext is running (ext's next write of "
            "settings.json takes it over too)",
        )
    if state == "held":
        return info(f"{path} is held right now by a running pi or ext")
    return ok("settings.json is not locked")
