"""`ext list`: the set, the agent dir, the mode, then one row per item."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from installer.commands.listing import Items
    from installer.render.ui import Output


def show(out: Output, result: Items) -> int:
    if out.json:
        out.data(result.to_json())
        return 0
    from installer.render import said_source
    from installer.render.ui import tilde

    ctx = result.ctx
    for w in (*ctx.manifest.warnings, *result.warnings):
        out.warn(w)
    # pi's dir is "agent dir"; another host's is named by the host: `Claude Code  ~/.claude`.
    dir_word = "agent dir" if ctx.on.is_pi else ctx.on.title
    width = max(len(dir_word), 9)
    out.out(f"{'set':<{width}}  {tilde(ctx.set_root)} ({ctx.manifest.name})")
    out.out(f"{dir_word:<{width}}  {tilde(ctx.agent_dir)} ({said_source(ctx)})")
    out.out(f"{'mode':<{width}}  {result.mode}")
    if not result.items:  # a folder taken for a set by mistake reads as one installed empty
        from installer.sets.resources import none_named

        why = none_named(ctx.set_root, ctx.pi_line()) if ctx.on.is_pi else None
        kinds = "no extension, skill, prompt or theme"
        out.out(f"  (no items: {why or f'{kinds} in {tilde(ctx.set_root)}'})")
    from installer.ground.screen import cells, pad

    width = max((cells(i.resource.label) for i in result.items), default=4)
    for i in result.items:
        line = f"  {i.state:<13} {pad(i.resource.label, width)}  {i.path}"
        line += f"  ({out.runnable(i.note)})" if i.note else ""  # a note is ext's words
        out.out(line + (f"  [{i.pi.describe()}]" if i.pi is not None else ""))
    return 0
