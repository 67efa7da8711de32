"""Link or register: which mode an install takes, and what link mode cannot express."""

from __future__ import annotations

from installer.engine import journal
from installer.ground.context import Context
from installer.ground.errors import UsageError
from installer.ground.manifest import MODES
from installer.ground.state import load_state
from installer.sets.resources import Resource


def install_mode(ctx: Context, explicit: str | None) -> str:
    """--mode > an interrupted install's mode > the mode this set was installed with here >
    the manifest."""
    if explicit is not None:
        if explicit not in MODES:
            import difflib

            close = difflib.get_close_matches(explicit, MODES, n=1, cutoff=0.5)
            fix = "use --mode link or --mode register"
            raise UsageError(
                f"unknown mode {explicit!r}", f"did you mean {close[0]!r}? {fix}" if close else fix
            )
        return explicit
    cut_short = journal.incomplete(ctx.agent_dir)
    if cut_short is not None and cut_short.command == "install" and cut_short.mode in MODES:
        return cut_short.mode  # finishing it means finishing it in its own mode
    record = load_state(ctx.agent_dir).record_of(ctx.set_root, ctx.manifest.name)
    return record.mode if record else ctx.manifest.mode


def refuse_unlinkable(chosen: tuple[Resource, ...]) -> None:
    """Link mode installs only what a link in the agent dir makes pi load exactly as the set."""
    bad = [r for r in chosen if r.unlinkable]
    if not bad:
        return
    why = "; ".join(f"{r.label}: {r.unlinkable}" for r in bad)
    raise UsageError(
        f"link mode cannot install what pi loads from this set ({why}); nothing was changed",
        "install it with `ext install --mode register` (pi then loads the set as a package), "
        f"or leave these out with --skip {','.join(r.label for r in bad)}",
    )
