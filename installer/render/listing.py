"""`ext list`: the set, the agent dir, the mode, then one row per item."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from installer.commands.listing import Items
    from installer.render.ui import Output


def show(out: Output, result: Items) -> int:
    if out.json:
        out.data(result.to_json())
        return 0
    from installer.render.ui import tilde

    ctx = result.ctx
    for w in ctx.manifest.warnings:
        out.warn(w)
    out.out(f"set        {tilde(ctx.set_root)} ({ctx.manifest.name})")
    out.out(f"agent dir  {tilde(ctx.agent_dir)} ({ctx.agent_dir_source})")
    out.out(f"mode       {result.mode}")
    width = max((len(i.resource.label) for i in result.items), default=4)
    for i in result.items:
        line = f"  {i.state:<13} {i.resource.label:<{width}}  {i.path}"
        line += f"  ({i.note})" if i.note else ""
        out.out(line + (f"  [{i.pi.describe()}]" if i.pi is not None else ""))
    return 0
