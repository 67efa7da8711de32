"""A set's own hooks (`hooks/*.json`): installing the set is the consent, so the plan shows them."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from installer.engine.plan import Action

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from installer.ground.clock import When

EXTRA_KEY = "hooks"


def plan_set_hooks(set_root: Any, extra: Mapping[str, Any]) -> tuple[Action, ...]:
    """One `approve` action per hook command, when the set's hooks are new or changed."""
    if not (set_root / "hooks").is_dir():
        return ()  # before the imports: most sets have no hooks, and every install asks
    from installer.consent.hooks import list_commands
    from installer.consent.sethooks import set_hooks

    config = set_hooks(set_root)
    known = extra.get(EXTRA_KEY, {}).get("sha256")
    if config.sha256 is None or config.sha256 == known:
        return ()
    why = "changed since the last install" if known else "new"
    return tuple(
        Action("approve", hook.source, detail=_detail(hook, why))
        for hook in list_commands(config.config)
    )


def _detail(hook: Any, why: str) -> str:
    """The plan's line of one hook: when it fires, what it runs, why it is asked again."""
    return f"{_when(hook)}: {hook.command} ({why}{_not_run(hook)})"


def _when(hook: Any) -> str:
    """Its event, and its matcher quoted as `ext consent` and pi's dialog quote it (helper-92:
    a matcher `Bash: echo lint (new)` read as a hook of its own)."""
    from installer.consent.hooks import quoted

    return hook.event if hook.matcher is None else f"{hook.event} matcher {quoted(hook.matcher)}"


def _not_run(hook: Any) -> str:
    """A hook of another kind, said in the closing parentheses, its kind quoted (helper-92: a
    prompt read as a command; helper-93: a kind written to look like the rest of the line)."""
    from installer.consent.hooks import quoted

    return "" if hook.kind == "command" else f"; a {quoted(str(hook.kind))} hook, not run here"


def recorded_hooks(
    set_root: Any, extra: Mapping[str, Any], now: Callable[[], When]
) -> dict[str, Any]:
    """`extra` with the sha256 of the hooks this install approved (kept when unchanged; the
    clock is read only for a new approval: a no-op install that reads it is never replayed)."""
    out = {k: v for k, v in extra.items() if k != EXTRA_KEY}
    if not (set_root / "hooks").is_dir():
        return out  # before the import, as in plan_set_hooks
    from installer.consent.sethooks import set_hooks_hash

    sha = set_hooks_hash(set_root)
    if sha is None:
        return out
    previous = extra.get(EXTRA_KEY, {})
    if previous.get("sha256") == sha:
        out[EXTRA_KEY] = previous
    else:
        out[EXTRA_KEY] = {"sha256": sha, "approved_at": now().isoformat()}
    return out
