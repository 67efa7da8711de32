"""ext's own agent-side files (`installer/agent/*.ts`), kept in the agent dir.

Two of them, one table (`FILES`):
- the session recorder (`ext-sessions.ts`): a set with a `process` guard needs to know which host
  sessions run with which flags, and pi hides them from outside (installer/agent/sessions.py);
- the `/ext` command (`ext-command.ts`): ext's own switch inside pi, for every set. It is ext's
  UI, not a set's, so it ships with ext (not in a set's extensions/, where `ext disable` could
  switch it off and a set of one's own would lack it) and runs the `ext` that installed it.

`ext install` copies each into `<agent>/.extset/agent/<stem>-<sha12>.ts` (content-addressed: an
ext upgrade is a relink to a new copy, and a rollback relinks to the old one, still there) and
links `<agent>/extensions/<name>.ts` to it. The copy, not the packaged file, is linked: a link
into site-packages would break when an upgrade replaces that folder. The state record's extra
carries the sha256 of what is installed, so doctor can tell a stale one; the command's entry
also names the `ext` executable, which `/ext` runs.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path

from installer.engine.plan import Action, AgentCopy
from installer.ground.manifest import Manifest
from installer.ground.records import NamedTuple
from installer.ground.state import SetRecord, State, load_state
from installer.links.scan import AgentState, Entry
from installer.sets.resources import Resource

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class AgentFile(NamedTuple):
    """One of ext's agent-side files: where it is linked, its source, its state-record key."""

    dest: str  # relative to the agent dir
    source: str  # file name under installer/agent/
    key: str  # its entry in the state record's extra
    what: str  # for plans and doctor
    purpose: str  # said when it is linked
    without: str  # what is lost when something else holds `dest`


SESSIONS = AgentFile(
    "extensions/ext-sessions.ts",
    "ext-sessions.ts",
    "recorder",
    "ext's session recorder",
    "for the process guards",
    "process guards will only see sessions started with `ext launch`",
)
COMMAND = AgentFile(
    "extensions/ext-command.ts",
    "ext-command.ts",
    "command",
    "ext's /ext command",
    "to switch items from inside pi",
    "/ext will not be available inside pi",
)
FILES = (SESSIONS, COMMAND)
RECORDER = SESSIONS.dest
_AGENT = Path(__file__).parent


def source_bytes(file: AgentFile = SESSIONS) -> bytes:
    return (_AGENT / file.source).read_bytes()


def sha256(data: bytes) -> str:
    from installer.ground.sha import sha256_hex  # only a plan that installs an agent file hashes it

    return sha256_hex(data)


def copies_dir(agent_dir: Path) -> Path:
    return agent_dir / ".extset" / "agent"


def copy_path(agent_dir: Path, digest: str, file: AgentFile = SESSIONS) -> Path:
    stem = file.source.removesuffix(".ts")
    return copies_dir(agent_dir) / f"{stem}-{digest[:12]}.ts"


def wants_recorder(manifest: Manifest) -> bool:
    """True when the manifest has a guard that only the session registry can check."""
    return any(g.process for g in manifest.guards.values())


def ext_executable() -> str | None:
    """The `ext` running now, as the user called it (a pipx shim stays a shim), for `/ext`."""
    import sys

    argv0 = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if argv0 is not None and argv0.name == "ext" and argv0.is_file():
        return os.path.abspath(argv0)
    beside = Path(sys.executable).with_name("ext")  # this ext's own entry point (a venv's bin/)
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    from installer.ground.which import which

    # /ext runs this path as it is: `which` passes over a relative PATH entry (`.`), whose
    # `ext` would be whatever lies in pi's cwd.
    return which("ext")


class RecorderPlan(NamedTuple):
    """An agent file's part of an install or uninstall plan; a link or relink to a new copy
    carries the copy's bytes (AgentCopy), written just before it."""

    actions: tuple[Action, ...] = ()
    warnings: tuple[str, ...] = ()
    content: bytes | None = None
    copy: Path | None = None


def plan_recorder(
    agent_dir: Path,
    agent: AgentState,
    state: State,
    set_root: Path,
    wanted: bool,
    resources: Iterable[Resource] = (),
    file: AgentFile = SESSIONS,
    name: str | None = None,
) -> RecorderPlan:
    """Link, relink, keep or remove an agent file; `wanted` is this set's need of it. `name`:
    the set's, whose records at older roots (the set's folder moved) are its own, not
    another set's that needs the file too."""
    sets = state.others(set_root, name) if name is not None else state.sets
    others = any(s.extra.get(file.key) for s in sets if s.root != str(set_root))
    entry = agent.entries.get(file.dest)
    ours = _ours(agent_dir, entry, state, file)
    if not (wanted or others):
        gone = (Action("unlink", file.dest, detail=file.what),) if ours else ()
        return RecorderPlan((*gone, *_parked(agent_dir, agent, state, file)))
    if any(r.dest == file.dest for r in resources) or (entry is not None and not ours):
        return RecorderPlan(
            warnings=(f"{file.dest} is taken by something that is not {file.what}; {file.without}",)
        )
    content = source_bytes(file)
    detail = f"{file.what}, {file.purpose}"
    if ours and entry is not None and entry.exists and _same(Path(str(entry.real)), content):
        # Already these bytes: a no-op install needs no hash (nor OpenSSL's load) to say so.
        return RecorderPlan((Action("keep", file.dest, target=entry.real, detail=detail),))
    copy = copy_path(agent_dir, sha256(content), file)
    target = str(copy)
    payload = AgentCopy(copy, content)
    if entry is None:
        action = Action("link", file.dest, target=target, detail=detail, payload=payload)
    else:
        what = f"{file.what}, updated"
        action = Action("relink", file.dest, target=target, detail=what, payload=payload)
    parked = _parked(agent_dir, agent, state, file)
    return RecorderPlan((*parked, action), content=content, copy=copy)


def _parked(
    agent_dir: Path, agent: AgentState, state: State, file: AgentFile
) -> tuple[Action, ...]:
    """A link of ours parked by hand (`ext-sessions.ts.off`) goes when the file is linked
    again: doctor reads a parked copy as the file switched off, whatever is linked beside it."""
    parked = agent.entries.get(f"{file.dest}.off")
    if not _ours(agent_dir, parked, state, file):
        return ()
    return (Action("unlink", f"{file.dest}.off", detail=f"{file.what}, parked by hand"),)


class AgentFilesPlan(NamedTuple):
    """Every agent file's part of a plan, as one."""

    parts: tuple[RecorderPlan, ...]

    @property
    def actions(self) -> tuple[Action, ...]:
        return tuple(a for p in self.parts for a in p.actions)

    @property
    def warnings(self) -> tuple[str, ...]:
        return tuple(w for p in self.parts for w in p.warnings)


def plan_agent_files(
    agent_dir: Path,
    agent: AgentState,
    state: State,
    set_root: Path,
    manifest: Manifest | None,
    resources: Iterable[Resource] = (),
    name: str | None = None,
) -> AgentFilesPlan:
    """What install (a manifest) or uninstall (None) does with each of ext's agent files;
    `name`, the set's (see plan_recorder)."""
    sessions = manifest is not None and wants_recorder(manifest)
    wanted = {SESSIONS: sessions, COMMAND: manifest is not None}
    return AgentFilesPlan(
        tuple(
            plan_recorder(agent_dir, agent, state, set_root, wanted[f], resources, f, name)
            for f in FILES
        )
    )


def _ours(agent_dir: Path, entry: Entry | None, state: State, file: AgentFile) -> bool:
    """A link to one of ext's copies in this dir, or one this dir had before it moved."""
    if entry is None or entry.kind != "link":
        return False
    moved = left_by_a_move(state, file, entry.target, entry.exists)
    return _is_copy(agent_dir, entry.real) or moved


def left_by_a_move(state: State, file: AgentFile, target: str | None, exists: bool) -> bool:
    """Whether a link at the file's place is ext's from where the dir was before it moved
    (`mv ~/agent-a ~/agent-b`): it leads nowhere, to a copy by ext's own name
    (`<dir>/.extset/agent/<stem>-<sha>.ts`), and the dir's own state record (which moved
    with it) says ext linked the file here. Install relinked it as "not ext's" forever, and
    doctor's fix (`ext install`) with it. A dead link of that name in a dir ext never linked
    the file in (another dir's, on a drive not mounted) stays the user's."""
    from installer.links.leftovers import is_copy

    if exists or target is None or not is_copy(Path(target)):
        return False
    return any(s.extra.get(file.key) for s in state.sets)


def _is_copy(agent_dir: Path, real: str | None) -> bool:
    if real is None:
        return False
    folder = os.path.realpath(copies_dir(agent_dir))
    return real.startswith(folder + os.sep)


def _same(path: Path, content: bytes) -> bool:
    try:
        return path.read_bytes() == content
    except OSError:
        return False


def write_copy(path: Path, content: bytes) -> bool:
    """Write the recorder's copy atomically, unless it is already there; whether it wrote."""
    if _same(path, content):
        return False
    from installer.ground import atomic, own

    own.ensure_dir(path.parent.parent)
    own.ensure_dir(path.parent)
    atomic.replace_own(path, content)
    return True


def recorded(
    agent_dir: Path, extra: Mapping[str, Any], manifest: Manifest | None = None
) -> dict[str, Any]:
    """`extra` with each installed agent file's sha256 (read from disk) that the set needs
    (the recorder only for a set with a process guard: helper-47, a set without one claimed
    it, and the uninstall of the set that had one left it); the command's entry also names
    the `ext` that `/ext` runs."""
    out = {k: v for k, v in extra.items() if k not in {f.key for f in FILES}}
    for file in FILES:
        if file is SESSIONS and manifest is not None and not wants_recorder(manifest):
            continue
        link = agent_dir / file.dest
        real = os.path.realpath(link)
        if link.is_symlink() and _is_copy(agent_dir, real) and os.path.isfile(real):
            out[file.key] = {"path": file.dest, "sha256": sha256(Path(real).read_bytes())}
            if file is COMMAND:
                out[file.key]["ext"] = ext_executable()
    return out


def command_record(state: State, set_root: Path | None) -> SetRecord | None:
    """The record naming the ext `/ext` runs: this set's, else the last written of another
    set's (one copy of the command serves every set of the agent dir)."""
    mine = state.for_root(set_root) if set_root is not None else None
    if mine is not None and mine.extra.get(COMMAND.key):
        return mine
    return next((r for r in reversed(state.sets) if r.extra.get(COMMAND.key)), mine)


def status(agent_dir: Path, file: AgentFile = SESSIONS) -> str:
    """For doctor: "missing", "current", "stale" (older than the one this ext ships) or
    "moved" (a copy where the dir was before it moved)."""
    link = agent_dir / file.dest
    real = os.path.realpath(link)
    if not (link.is_symlink() and _is_copy(agent_dir, real) and os.path.isfile(real)):
        if link.is_symlink() and left_by_a_move(
            load_state(agent_dir), file, os.readlink(link), os.path.exists(link)
        ):
            return "moved"
        return "missing"
    return "current" if _same(Path(real), source_bytes(file)) else "stale"


def blind_spot(agent_dir: Path, cwd: Path | None, strips_bom: bool) -> str | None:
    """Why the recorder cannot see pi's sessions now (parked, missing, or switched off in pi
    by `pi config`), as words after "the recorder", or None when it can (`strips_bom`: the
    pi's, for how it reads settings.json)."""
    if os.path.lexists(agent_dir / f"{RECORDER}.off"):
        return f"is parked as {RECORDER}.off"
    now = status(agent_dir)
    if now == "missing":
        return f"is missing (no {RECORDER})"
    if now == "moved":  # its link leads nowhere: pi loads no recorder
        return f"is missing ({RECORDER} leads to where the agent dir was before it moved)"
    off = switched_off_in_pi(agent_dir, cwd, RECORDER, strips_bom)
    return None if off is None else f"is switched off ({off})"


def switch_back_on(why: str) -> str:
    """How to undo what `blind_spot` said: pi's own switch stays pi's, so `pi config` turns it
    back on; a parked or missing recorder is ext's to put back."""
    if why.startswith("is switched off"):
        return f"switch ext's session recorder back on in `pi config` (Extensions, {RECORDER})"
    return "put ext's session recorder back: `ext install`"


def switched_on_in_pi(dest: str) -> str:
    """How to undo `switched_off_in_pi` for one of ext's agent files: pi's switch is pi's."""
    return (
        f"switch it back on: `pi config` (Extensions, {dest}), or remove that pattern from "
        "settings.json"
    )


def switched_off_in_pi(
    agent_dir: Path, cwd: Path | None, dest: str, strips_bom: bool
) -> str | None:
    """How `pi config`'s top-level pattern switches off one of ext's linked agent files
    (settings.json read as the pi reads it: `strips_bom`, its line's)."""
    from installer.settings.switches import linked_switch, read_scopes

    found = linked_switch(read_scopes(agent_dir, cwd, None, strips_bom), "extension", dest)
    return None if found is None or found.on else found.describe()
