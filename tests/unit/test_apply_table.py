"""The executor's one table (installer/engine/apply.py): every word that writes has its
operation, and the runs it applies at once are the ones a plan's order asks for."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from installer.engine import apply
from installer.engine import plan as plan_module
from installer.engine.apply import APPLY, batches, check_payloads
from installer.engine.plan import BOOKKEEPING, QUIET, Action, Plan, SettingsWrite, StateWrite
from installer.engine.result import PlanResult

if TYPE_CHECKING:
    from installer.engine.plan import Word


def _words() -> set[str]:
    """The words `Word` declares: a type for mypy alone (no typing at run time), read from its
    source."""
    tree = ast.parse(Path(plan_module.__file__).read_text(encoding="utf-8"))
    aliases = [
        n.value
        for n in ast.walk(tree)
        if (isinstance(n, ast.Assign) and [getattr(t, "id", "") for t in n.targets] == ["Word"])
        or (isinstance(n, ast.AnnAssign) and getattr(n.target, "id", "") == "Word")
    ]
    assert len(aliases) == 1 and aliases[0] is not None, "installer/engine/plan.py: no one `Word`"
    return {c.value for c in ast.walk(aliases[0]) if isinstance(c, ast.Constant)}


def _same(data: dict[str, Any]) -> dict[str, Any]:
    return data


def test_the_table_covers_every_word_that_writes() -> None:
    writes = _words() - QUIET
    assert set(APPLY) == writes
    assert not QUIET & set(APPLY)  # a word that writes nothing has no operation to run


def test_a_thousand_links_in_a_row_are_one_run() -> None:
    links = [Action("link", f"extensions/e{i}.ts", target=f"/set/e{i}.ts") for i in range(1000)]
    backup = Action("backup", "skills/a", backup="skills/.bak/a")
    runs = batches([*links[:500], backup, *links[500:]])
    assert [(word, len(run)) for word, run in runs] == [("link", 500), ("backup", 1), ("link", 500)]


def test_the_lines_of_one_settings_change_are_one_write_where_the_last_stands() -> None:
    write = SettingsWrite(_same)
    seed = Action("seed", "settings.json", detail="a = 1", payload=write)
    reg = Action("register", "settings.json", target="/set", payload=write)
    off = Action("disable", "extensions/a.ts", target="extensions/.off/a.ts")
    record = Action("record", ".extset/state.json", payload=StateWrite(lambda s: s))
    runs = batches([seed, off, reg, record])
    assert runs == [("disable", [off]), ("seed", [seed, reg]), ("record", [record])]


def test_a_settings_change_marked_first_is_written_before_everything() -> None:
    write = SettingsWrite(_same, first=True)
    link = Action("link", "extensions/a.ts", target="/set/a.ts")
    line = Action("filter", "settings.json", detail='"extensions": adds -a.ts', payload=write)
    assert batches([link, line]) == [("filter", [line]), ("link", [link])]


def test_two_settings_changes_are_two_writes() -> None:
    one = Action("migrate", "settings.json", detail="a -> b", payload=SettingsWrite(_same))
    two = Action("migrate", "settings.json", detail="c -> d", payload=SettingsWrite(dict))
    assert [len(run) for _, run in batches([one, two])] == [1, 1]


@pytest.mark.parametrize("word", sorted(apply.SETTINGS))
def test_a_settings_line_without_its_change_is_refused_before_any_write(word: Word) -> None:
    plan = Plan("install", (Action(word, "settings.json", detail="x"),))
    with pytest.raises(ValueError, match="lacks its SettingsWrite"):
        check_payloads(plan)


def test_a_consent_move_without_its_text_is_refused_before_any_write() -> None:
    with pytest.raises(ValueError, match="lacks its FileText"):
        check_payloads(Plan("consent move", (Action("create", ".extset/consent/x.json"),)))


def test_an_installed_hook_needs_the_record_that_holds_its_approval() -> None:
    hook = Action("approve", "hooks/a.json", detail="PreToolUse *: true (new)")
    with pytest.raises(ValueError, match="no state record"):
        check_payloads(Plan("install", (hook,)))
    record = Action("record", ".extset/state.json", payload=StateWrite(lambda s: s))
    check_payloads(Plan("install", (hook, record)))


def test_the_payload_is_neither_shown_nor_compared() -> None:
    shown = Action("seed", "settings.json", detail="a = 1", data={"key": "a", "value": 1})
    carried = shown._replace(payload=SettingsWrite(_same))
    assert carried == shown
    assert not carried != shown  # noqa: SIM202 (tuple's own != would see the payload)
    assert carried.to_json() == shown.to_json()
    link = Action("link", "extensions/a.ts", target="/set/a.ts")
    assert hash(link._replace(payload=StateWrite(lambda s: s))) == hash(link)
    assert Action("seed", "settings.json", detail="a = 2") != shown


def test_bookkeeping_stays_out_of_what_a_plan_shows(tmp_path: Path) -> None:
    record = Action("record", ".extset/state.json", payload=StateWrite(lambda s: s))
    link = Action("link", "extensions/a.ts", target="/set/a.ts")
    plan = Plan("install", (link, record))
    assert {"record", "undone"} == BOOKKEEPING
    assert plan.shown == Plan("install", (link,))
    assert plan.changes == (link,) and plan.writes == (link, record)
    assert plan.summary() == Plan("install", (link,)).summary() == "1 to link"
    assert Plan("install", (record,)).is_empty


def test_a_run_leaves_no_bookkeeping_in_the_plan_it_returns(tmp_path: Path) -> None:
    from installer.commands.install import Install, install
    from tests.helpers import TOOLS_SET, build_tree, context, yes

    set_root = build_tree(tmp_path / "set", dict(TOOLS_SET))
    agent = tmp_path / "agent"
    agent.mkdir()
    result: PlanResult = install(context(set_root, agent), Install(), yes)
    assert result.applied
    assert not [a for a in result.plan.actions if a.action in BOOKKEEPING]
    words = {a["action"] for a in json.loads(json.dumps(result.to_json()))["actions"]}
    assert "record" not in words
    assert json.loads((agent / ".extset/state.json").read_text())["sets"][0]["root"] == str(
        set_root
    )


def test_the_executor_refuses_such_a_plan_before_it_opens_a_journal(tmp_path: Path) -> None:
    from installer.engine.executor import execute
    from tests.helpers import TOOLS_SET, build_tree, context

    set_root = build_tree(tmp_path / "set", dict(TOOLS_SET))
    agent = tmp_path / "agent"
    agent.mkdir()
    plan = Plan("install", (Action("link", "extensions/a.ts", target="/s/a.ts"),) * 2)
    with pytest.raises(ValueError, match="lacks its SettingsWrite"):
        execute(context(set_root, agent), plan._replace(actions=(*plan.actions, _bare())))
    assert not (agent / ".extset").exists()
    assert not (agent / "extensions").exists()


def _bare() -> Action:
    return Action("seed", "settings.json", detail="a = 1")
