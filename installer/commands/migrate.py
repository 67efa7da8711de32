"""`ext settings migrate`: move renamed keys to their new names; remove retired ones with --yes."""

from __future__ import annotations

import json
from typing import Any

from installer.engine.plan import Action, Plan, SettingsWrite
from installer.engine.result import PlanResult
from installer.engine.run import Confirm, Prepared, run_plan
from installer.ground.context import Context
from installer.ground.records import NamedTuple
from installer.settings.plan import settings_path


class SettingsMigrate(NamedTuple):
    """`ext settings migrate`'s options, as installer.cli.grammar names them."""

    dry_run: bool = False
    yes: bool = False  # the front's: the confirm it hands in does not ask
    remove_retired: bool = False


def migrate(ctx: Context, options: SettingsMigrate, confirm: Confirm) -> PlanResult:
    """Plan the key moves (and, when asked, removals), show them with a diff, apply on confirm."""
    remove_retired = options.remove_retired
    from installer import settings as lib

    path = settings_path(ctx)

    def change(data: dict[str, Any]) -> dict[str, Any]:
        data = lib.migrate(data, ctx.manifest.renamed).settings
        if remove_retired:
            data, _ = lib.remove_retired(data, ctx.manifest.retired)
        return data

    def prepare() -> Prepared:
        doc = lib.read_settings(path)
        data = doc.data
        moves = lib.migrate(data, ctx.manifest.renamed)
        actions = [
            Action("migrate", "settings.json", detail=f"{m.old} -> {m.new} = {json.dumps(m.value)}")
            for m in moves.moved
        ]
        warnings = [
            f"settings.json has both {c.old!r} and {c.new!r}: keeping both; "
            f"remove {c.old!r} by hand once {c.new!r} holds what you want"
            for c in moves.conflicts
        ]
        warnings += [
            f"cannot move {b.old!r} to {b.new!r}: a parent of {b.new!r} is not an object"
            for b in moves.blocked
        ]
        for r in lib.find_retired(data, ctx.manifest.retired):
            if remove_retired:
                actions.append(Action("retire", "settings.json", detail=f"remove {r.key}: {r.why}"))
            else:
                warnings.append(
                    f"{r.key!r} is retired ({r.why}); "
                    "`ext settings migrate --remove-retired` removes it"
                )
        update = lib.preview_of(doc, change) if actions else None
        diffs = (lib.render_diff(update.before, update.after, "settings.json"),) if update else ()
        write = SettingsWrite(change)
        carried = tuple(a._replace(payload=write) for a in actions)
        return Prepared(Plan("settings migrate", carried, tuple(warnings)), diffs)

    return run_plan(ctx, prepare, confirm, options.dry_run)
