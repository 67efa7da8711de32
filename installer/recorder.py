"""ext's own agent-side session recorder (`agent/ext-sessions.ts`), kept in the agent dir.

A set with a `process` guard needs to know which host sessions run with which flags, and pi
hides them from outside (installer/sessions.py). So `ext install` copies the recorder into
`<agent>/.extset/agent/ext-sessions-<sha12>.ts` (content-addressed: an ext upgrade is a
relink to a new copy, and a rollback relinks to the old one, still there) and links
`<agent>/extensions/ext-sessions.ts` to it. The copy, not the packaged file, is linked: a link
into site-packages would break when an upgrade replaces that folder. The state record's extra
carries the sha256 of what is installed, so doctor can tell a stale recorder.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from installer.links.scan import AgentState
from installer.manifest import Manifest
from installer.plan import Action
from installer.resources import Resource
from installer.state import State

if TYPE_CHECKING:
    from installer.executor import Step
    from installer.transaction import Transaction

RECORDER = "extensions/ext-sessions.ts"
EXTRA_KEY = "recorder"
_SOURCE = Path(__file__).with_name("agent") / "ext-sessions.ts"


def source_bytes() -> bytes:
    return _SOURCE.read_bytes()


def sha256(data: bytes) -> str:
    import hashlib  # OpenSSL's load: only sets with a process guard hash the recorder

    return hashlib.sha256(data).hexdigest()


def copies_dir(agent_dir: Path) -> Path:
    return agent_dir / ".extset" / "agent"


def copy_path(agent_dir: Path, digest: str) -> Path:
    return copies_dir(agent_dir) / f"ext-sessions-{digest[:12]}.ts"


def wants_recorder(manifest: Manifest) -> bool:
    """True when the manifest has a guard that only the session registry can check."""
    return any(g.process for g in manifest.guards.values())


class RecorderPlan(NamedTuple):
    """The recorder's part of an install or uninstall plan, and what the step must write first."""

    actions: tuple[Action, ...] = ()
    warnings: tuple[str, ...] = ()
    content: bytes | None = None
    copy: Path | None = None

    def wrap(self, step: Step) -> Step:
        """`step`, preceded by writing the recorder's copy when a link will point at it."""
        if self.content is None or self.copy is None:
            return step
        content, copy = self.content, self.copy

        def run(tx: Transaction) -> None:
            write_copy(copy, content)
            step(tx)

        return run


def plan_recorder(
    agent_dir: Path,
    agent: AgentState,
    state: State,
    set_root: Path,
    wanted: bool,
    resources: Iterable[Resource] = (),
) -> RecorderPlan:
    """Link, relink, keep or remove the recorder; `wanted` is this set's need of it."""
    others = any(s.extra.get(EXTRA_KEY) for s in state.sets if s.root != str(set_root))
    entry = agent.entries.get(RECORDER)
    ours = entry is not None and entry.kind == "link" and _is_copy(agent_dir, entry.real)
    if not (wanted or others):
        if ours:
            return RecorderPlan((Action("unlink", RECORDER, detail="ext's session recorder"),))
        return RecorderPlan()
    if any(r.dest == RECORDER for r in resources) or (entry is not None and not ours):
        return RecorderPlan(
            warnings=(
                f"{RECORDER} is taken by something that is not ext's session recorder; "
                "process guards will only see sessions started with `ext launch`",
            )
        )
    content = source_bytes()
    copy = copy_path(agent_dir, sha256(content))
    target = str(copy)
    detail = "ext's session recorder, for the process guards"
    if entry is None:
        action = Action("link", RECORDER, target=target, detail=detail)
    elif entry.real == os.path.realpath(copy) and entry.exists and _same(copy, content):
        action = Action("keep", RECORDER, target=target, detail=detail)
    else:
        action = Action("relink", RECORDER, target=target, detail="ext's session recorder, updated")
    return RecorderPlan((action,), content=content, copy=copy)


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


def write_copy(path: Path, content: bytes) -> None:
    """Write the recorder's copy atomically, unless it is already there."""
    if _same(path, content):
        return
    from installer import own

    own.ensure_dir(path.parent.parent)
    own.ensure_dir(path.parent)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with os.fdopen(own.create_fresh(tmp), "wb") as f:
        f.write(content)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def recorded(agent_dir: Path, extra: Mapping[str, Any]) -> dict[str, Any]:
    """`extra` with the installed recorder's sha256 (read from disk), or without it when none."""
    out = {k: v for k, v in extra.items() if k != EXTRA_KEY}
    link = agent_dir / RECORDER
    real = os.path.realpath(link)
    if link.is_symlink() and _is_copy(agent_dir, real) and os.path.isfile(real):
        out[EXTRA_KEY] = {"path": RECORDER, "sha256": sha256(Path(real).read_bytes())}
    return out


def status(agent_dir: Path) -> str:
    """For doctor: "missing", "current" or "stale" (an older recorder than this ext ships)."""
    link = agent_dir / RECORDER
    real = os.path.realpath(link)
    if not (link.is_symlink() and _is_copy(agent_dir, real) and os.path.isfile(real)):
        return "missing"
    return "current" if _same(Path(real), source_bytes()) else "stale"
