"""enable/disable/toggle on real folders: both modes, foreign entries, rollback, install after."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from installer.commands.install import Install, install
from installer.commands.toggle import Choice, checklist, switch, switch_both
from installer.engine.plan import Plan
from installer.engine.result import PlanResult
from installer.ground.context import Context, Env, resolve
from installer.ground.errors import ExitCode, ExtError, Refused, UsageError
from installer.ground.state import load_state
from installer.links.states import items
from tests.helpers import build_tree, set_links, snapshot, yes

SET = {
    "extset.toml": '[set]\nname = "tools"\n',
    "extensions/alpha.ts": "export default function alpha() {}\n",
    "extensions/beta.ts": "export default function beta() {}\n",
    "extensions/gamma/index.ts": "export default function gamma() {}\n",
    "skills/review/SKILL.md": "# review\n",
    "prompts/fix.md": "fix it\n",
    "themes/dark.json": "{}\n",
}


def context(set_root: Path, agent: Path, tty: bool = True) -> Context:
    env = Env(environ=dict(os.environ), cwd=set_root.parent, stdin_tty=tty, stderr_tty=tty)
    return resolve(env, set_root, agent)


@pytest.fixture
def set_root(tmp_path: Path) -> Path:
    return build_tree(tmp_path / "set", dict(SET))


@pytest.fixture
def agent(tmp_path: Path) -> Path:
    folder = tmp_path / "agent"
    folder.mkdir()
    return folder


def installed(set_root: Path, agent: Path, mode: str | None = None, **kw: Any) -> Context:
    ctx = context(set_root, agent)
    only, skip = tuple(kw.get("only", [])), tuple(kw.get("skip", []))
    install(ctx, Install(only=only, skip=skip, mode=mode), yes)
    return ctx


def off(ctx: Context, *names: str, **kw: Any) -> PlanResult:
    return switch(ctx, names, False, kw.get("force", False), kw.get("dry_run", False), yes)


def on(ctx: Context, *names: str) -> PlanResult:
    return switch(ctx, names, True, False, False, yes)


def states(ctx: Context) -> dict[str, str]:
    return {i.resource.label: i.state for i in items(ctx)[1]}


def journals(agent: Path) -> list[Path]:
    return sorted((agent / ".extset" / "journal").glob("*.jsonl"))


def test_link_mode_disable_and_enable_every_kind(set_root: Path, agent: Path) -> None:
    ctx = installed(set_root, agent)
    before = set_links(agent)
    names = ("alpha", "gamma", "skill:review", "fix", "dark")
    result = off(ctx, *names)
    assert result.applied
    assert sorted(a.action for a in result.plan.changes) == ["disable"] * 5
    assert set_links(agent) == {
        "extensions/alpha.ts.off": before["extensions/alpha.ts"],
        "extensions/beta.ts": before["extensions/beta.ts"],
        "extensions/.off/gamma": before["extensions/gamma"],
        "skills/.off/review": before["skills/review"],
        "prompts/fix.md.off": before["prompts/fix.md"],
        "themes/dark.json.off": before["themes/dark.json"],
    }
    assert states(ctx) == {
        "alpha": "disabled",
        "beta": "enabled",
        "gamma": "disabled",
        "skill:review": "disabled",
        "prompt:fix": "disabled",
        "theme:dark": "disabled",
    }
    assert "now disabled: alpha, gamma, skill:review, prompt:fix, theme:dark" in result.notes
    on(ctx, *names)
    assert set_links(agent) == before
    assert set(states(ctx).values()) == {"enabled"}


def test_one_command_is_one_journal_entry(set_root: Path, agent: Path) -> None:
    ctx = installed(set_root, agent)
    count = len(journals(agent))
    off(ctx, "alpha", "beta", "gamma")
    assert len(journals(agent)) == count + 1
    (log,) = [p for p in journals(agent) if p.name.endswith("-disable.jsonl")]
    steps = [json.loads(line) for line in log.read_text().splitlines()]
    assert [s["op"] for s in steps if "op" in s] == ["rename", "rename", "mkdir", "rename"]


def test_already_disabled_is_a_no_op_that_says_so(set_root: Path, agent: Path) -> None:
    ctx = installed(set_root, agent)
    off(ctx, "alpha")
    tree = snapshot(agent)
    count = len(journals(agent))
    again = off(ctx, "alpha")
    assert not again.changed and not again.applied
    assert again.notes == ("alpha is already disabled",)
    assert snapshot(agent) == tree and len(journals(agent)) == count
    assert on(ctx, "beta").notes == ("beta is already enabled",)


def test_dry_run_writes_nothing(set_root: Path, agent: Path) -> None:
    ctx = installed(set_root, agent)
    tree = snapshot(agent)
    result = off(ctx, "alpha", dry_run=True)
    assert result.changed and result.dry_run and not result.applied
    assert [(a.action, a.path) for a in result.plan.changes] == [("disable", "extensions/alpha.ts")]
    assert snapshot(agent) == tree


def test_install_keeps_what_the_user_disabled(set_root: Path, agent: Path) -> None:
    ctx = installed(set_root, agent)
    off(ctx, "alpha", "gamma")
    again = install(ctx, Install(), yes)
    assert again.plan.is_empty
    assert states(ctx)["alpha"] == "disabled" and states(ctx)["gamma"] == "disabled"


@pytest.mark.parametrize("kind", ["foreign-link", "real-file"])
def test_a_foreign_entry_of_that_name_is_reported_not_touched(
    set_root: Path, agent: Path, tmp_path: Path, kind: str
) -> None:
    ctx = installed(set_root, agent, skip=["alpha"])
    elsewhere = build_tree(tmp_path / "else", {"alpha.ts": "// mine\n"})
    value: Any = elsewhere / "alpha.ts" if kind == "foreign-link" else "// mine\n"
    build_tree(agent, {"extensions/alpha.ts": value})
    tree = snapshot(agent)
    with pytest.raises(Refused) as err:
        off(ctx, "alpha")
    assert err.value.exit_code == ExitCode.REFUSED
    what = (
        f"a link to {elsewhere / 'alpha.ts'}" if kind == "foreign-link" else "a file is in the way"
    )
    assert err.value.message == (
        f"not switched, nothing written: alpha (extensions/alpha.ts: {what}; `ext install` "
        "backs it up)"
    )
    assert err.value.fix == (
        "`ext install` backs it up and links the set's alpha in its place; then run this again"
    )
    assert snapshot(agent) == tree


def test_a_foreign_entry_at_the_disabled_name_refuses_the_whole_switch(
    set_root: Path, agent: Path
) -> None:
    """A trial: a file of the user's at alpha's `.off` name left alpha on, and `ext disable
    alpha beta` exited 0 having disabled beta alone; a script took alpha for off. The switch
    is refused as a guard's is (exit 3, nothing written), naming the file to move."""
    ctx = installed(set_root, agent)
    build_tree(agent, {"extensions/alpha.ts.off": "// someone's\n"})
    tree = snapshot(agent)
    with pytest.raises(Refused) as err:
        off(ctx, "alpha", "beta")
    assert err.value.message == (
        "not switched, nothing written: alpha (extensions/alpha.ts.off is in the way and is "
        "not ours)"
    )
    assert err.value.fix == (
        "move extensions/alpha.ts.off out of the agent dir (ext never moves a file of yours); "
        "then run this again"
    )
    assert snapshot(agent) == tree


def test_a_toggle_batch_applies_the_rest_and_says_what_an_entry_not_ours_kept(
    set_root: Path, agent: Path
) -> None:
    """helper-26: /ext inside pi sends its staged rows as one `toggle --on … --off …`; one row
    blocked must not sink the others (only by-name enable and disable refuse as a whole)."""
    ctx = installed(set_root, agent)
    build_tree(agent, {"extensions/alpha.ts.off": "// someone's\n"})
    result = switch_both(ctx, [], ["alpha", "beta"], False, yes)
    assert [(a.action, a.path) for a in result.plan.changes] == [("disable", "extensions/beta.ts")]
    assert any("extensions/alpha.ts.off is in the way" in w for w in result.plan.warnings)
    assert states(ctx)["beta"] == "disabled" and states(ctx)["alpha"] == "enabled"


def test_an_unknown_name_is_a_usage_error(set_root: Path, agent: Path) -> None:
    ctx = installed(set_root, agent)
    with pytest.raises(UsageError) as err:
        off(ctx, "alfa")
    assert err.value.exit_code == ExitCode.USAGE and "'alpha'" in (err.value.fix or "")


def test_a_failure_part_way_rolls_every_rename_back(
    set_root: Path, agent: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ctx = installed(set_root, agent)
    tree = snapshot(agent / "extensions")
    real_rename = os.rename
    calls = []

    def flaky(src: Any, dst: Any) -> None:
        calls.append(src)
        if len(calls) == 2:
            raise OSError(5, "Input/output error", str(src))
        real_rename(src, dst)

    monkeypatch.setattr(os, "rename", flaky)
    with pytest.raises(ExtError) as err:
        off(ctx, "alpha", "beta", "gamma")
    assert err.value.exit_code == ExitCode.FAILED and "rolled back" in err.value.message
    monkeypatch.setattr(os, "rename", real_rename)
    assert snapshot(agent / "extensions") == tree


def settings(agent: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((agent / "settings.json").read_text())
    return data


def test_a_switch_to_register_mode_says_what_pi_loads_from_the_entry(
    set_root: Path, agent: Path
) -> None:
    """helper-53: link -> register planned `+ register settings.json (packages)`, and items
    an --only had left out came on without a word; a link plan names each link."""
    ctx = installed(set_root, agent, only=["alpha"])

    result = install(ctx, Install(mode="register", skip=("gamma",)), yes)

    [line] = [a for a in result.plan.changes if a.action == "register"]
    names = sorted(i.resource.label for i in items(ctx)[1] if i.state == "enabled")
    assert "gamma" not in names and len(names) > 2
    assert line.detail is not None and line.detail.startswith(
        f"packages: pi loads {len(names)} items: "
    )


def test_register_mode_filters_and_the_state_record(set_root: Path, agent: Path) -> None:
    ctx = installed(set_root, agent, mode="register")
    assert settings(agent)["packages"] == [str(set_root)]
    result = off(ctx, "alpha", "gamma")
    assert [a.action for a in result.plan.changes] == ["filter", "filter"]
    entry = {
        "source": str(set_root),
        "extensions": ["-extensions/alpha.ts", "-extensions/gamma/index.ts"],
    }
    assert settings(agent)["packages"] == [entry]
    record = load_state(agent).for_root(set_root)
    assert record is not None and record.mode == "register"
    # install keeps the user's choice: it lives in the entry, where pi config sees it too
    assert install(ctx, Install(), yes).plan.is_empty
    assert settings(agent)["packages"] == [entry]
    on(ctx, "alpha", "gamma")
    assert settings(agent)["packages"] == [str(set_root)]


@pytest.mark.parametrize("midway", ["", '{\n  "packages": ['])
def test_a_switch_planned_while_pi_writes_settings_waits_for_pi(
    set_root: Path, agent: Path, monkeypatch: pytest.MonkeyPatch, midway: str
) -> None:
    """A trial (helper-30): with pi mid-write (its lock held, the file empty or cut short),
    `ext disable alpha` in register mode read the file as empty, said alpha "is not
    installed" and "nothing to do", and exited 0: alpha stayed on. The view waits for pi's
    lock, as an install's read does; here pi is done once ext starts to wait."""
    from installer.settings import store

    ctx = installed(set_root, agent, mode="register")
    path = agent / "settings.json"
    whole = path.read_text()
    path.write_text(midway)
    (agent / "settings.json.lock").mkdir()
    waited: list[Path] = []

    def pi_finishes(at: Path, wait: float) -> bool:
        waited.append(at)
        path.write_text(whole)
        (agent / "settings.json.lock").rmdir()
        return True

    monkeypatch.setattr(store, "_wait_unlocked", pi_finishes)
    result = off(ctx, "alpha")
    assert waited == [path]
    assert [a.action for a in result.plan.changes] == ["filter"]
    assert settings(agent)["packages"] == [
        {"source": str(set_root), "extensions": ["-extensions/alpha.ts"]}
    ]


def test_register_mode_no_ops_and_a_skill_switched_by_its_filter(
    set_root: Path, agent: Path
) -> None:
    ctx = installed(set_root, agent, mode="register")
    off(ctx, "alpha")
    text = (agent / "settings.json").read_text()
    again = off(ctx, "alpha")
    assert not again.applied
    assert again.notes == ("alpha is already disabled",)
    assert (agent / "settings.json").read_text() == text
    assert off(ctx, "skill:review").applied
    entry = settings(agent)["packages"][0]
    assert entry["skills"] == ["-skills/review/SKILL.md"]
    assert entry["extensions"] == ["-extensions/alpha.ts"]


def test_register_mode_disabling_what_install_skipped_keeps_it_off_for_good(
    set_root: Path, agent: Path
) -> None:
    """An item --skip left out, disabled: ext's filter becomes the user's switch, with a plan
    line that says so and a journaled record (no write behind a "nothing to do"); a plain
    install keeps it off, as link mode keeps the parked link it puts in."""
    ctx = installed(set_root, agent, mode="register", skip=["alpha"])
    result = off(ctx, "alpha")
    assert result.applied
    [line] = result.plan.changes
    assert (line.action, line.path) == ("claim", ".extset/state.json")  # not a filter change
    assert "-extensions/alpha.ts stays in its packages entry, yours now" in (line.detail or "")
    assert result.plan.summary(done=True) == "1 filter kept as yours"
    kept = (agent / "settings.json").read_bytes()
    again = install(ctx, Install(), yes)  # no --skip now: alpha stays off, the user said so
    assert settings(agent)["packages"][0]["extensions"] == ["-extensions/alpha.ts"]
    assert (agent / "settings.json").read_bytes() == kept
    assert not again.notes  # ext's record was as installed: nothing "written again"


def test_register_mode_a_skip_pi_config_undid_is_the_users_from_then_on(
    set_root: Path, agent: Path
) -> None:
    """helper-51: install --skip gamma; pi config turned gamma on (its `+path` in place of
    ext's `-path`), a disable of alpha in ext, then pi config turned gamma off again. The
    next install took that `-path` for ext's old --skip and dropped it: the user's switch,
    undone. The disable records that ext's --skip filter is gone, so the `-path` is theirs."""
    ctx = installed(set_root, agent, mode="register", skip=["gamma"])

    def pi_config(old: str, new: str) -> None:
        data = settings(agent)
        patterns = data["packages"][0]["extensions"]
        patterns[patterns.index(old)] = new
        (agent / "settings.json").write_text(json.dumps(data, indent=2))

    pi_config("-extensions/gamma/index.ts", "+extensions/gamma/index.ts")
    assert states(ctx)["gamma"] == "enabled"
    off(ctx, "alpha")
    pi_config("+extensions/gamma/index.ts", "-extensions/gamma/index.ts")

    install(ctx, Install(), yes)

    assert states(ctx)["gamma"] == "disabled"
    assert "-extensions/gamma/index.ts" in settings(agent)["packages"][0]["extensions"]


@pytest.mark.parametrize(
    "text",
    ['{\n  // mine\n  "packages": []\n}\n', '\ufeff{"packages": []}\n'],
    ids=["comment", "bom"],
)
def test_register_mode_a_settings_file_ext_cannot_edit_is_said_not_taken_for_no_entry(
    set_root: Path, agent: Path, text: str
) -> None:
    """helper-60: with a comment (or a BOM) in settings.json, `ext disable` said "the set is
    not registered: `ext install`", exit 0, nothing switched; that install then failed."""
    ctx = installed(set_root, agent, mode="register")
    entry = json.dumps(str(set_root))
    (agent / "settings.json").write_text(text.replace("[]", f"[{entry}]"))
    before = (agent / "settings.json").read_bytes()

    with pytest.raises(ExtError) as caught:
        off(ctx, "alpha")

    assert "nothing was changed" in caught.value.message
    assert "not registered" not in caught.value.message
    assert (agent / "settings.json").read_bytes() == before


def test_register_mode_a_lock_file_is_said_not_taken_for_no_entry(
    set_root: Path, agent: Path
) -> None:
    """helper-61: with a file at settings.json.lock (pi reads settings.json as empty), a
    disable said "not registered", exit 0, and the install it named did nothing."""
    ctx = installed(set_root, agent, mode="register")
    (agent / "settings.json.lock").write_text("")

    with pytest.raises(ExtError) as caught:
        off(ctx, "alpha")

    assert "settings.json.lock is a file" in caught.value.message
    assert caught.value.fix == f"rm {agent}/settings.json.lock"


def test_register_mode_disables_what_pi_config_switched_back_on(
    set_root: Path, agent: Path
) -> None:
    # pi config's `+path` (here past a `!glob`) is an item on in pi: ext switches it off too.
    ctx = installed(set_root, agent, mode="register")
    entry = {"source": str(set_root), "extensions": ["!extensions/*.ts", "+extensions/alpha.ts"]}
    (agent / "settings.json").write_text(json.dumps({"packages": [entry]}, indent=2))
    assert states(ctx)["alpha"] == "enabled"
    result = off(ctx, "alpha")
    assert result.applied and not result.plan.warnings
    assert settings(agent)["packages"][0]["extensions"] == [
        "!extensions/*.ts",
        "-extensions/alpha.ts",
    ]
    assert states(ctx)["alpha"] == "disabled"


def test_link_mode_an_unlinked_item_a_packages_entry_loads_is_reported_not_renamed(
    set_root: Path, agent: Path
) -> None:
    ctx = installed(set_root, agent, skip=["alpha"])
    (agent / "settings.json").write_text(json.dumps({"packages": [str(set_root)]}, indent=2))
    assert states(ctx)["alpha"] == "enabled"  # pi loads it from the package
    tree = snapshot(agent)
    result = off(ctx, "alpha")
    assert not result.applied
    assert "pi loads it from a packages entry of the set" in result.plan.warnings[0]
    assert snapshot(agent) == tree


def test_register_mode_without_registration_says_so(set_root: Path, agent: Path) -> None:
    (set_root / "extset.toml").write_text('[set]\nname = "tools"\nmode = "register"\n')
    ctx = context(set_root, agent)
    result = off(ctx, "alpha")
    assert not result.applied and "it is not installed" in result.plan.warnings[0]


def ask(picks: list[str] | None, seen: list[list[Choice]] | None = None) -> Any:
    def answer(choices: list[Choice], check: Any = None) -> list[str] | None:
        if seen is not None:
            seen.append(choices)
        return picks

    return answer


def test_toggle_applies_every_change_as_one_plan(set_root: Path, agent: Path) -> None:
    ctx = installed(set_root, agent)
    off(ctx, "beta")
    count = len(journals(agent))
    seen: list[list[Choice]] = []
    everything = ["beta", "gamma", "skill:review", "prompt:fix", "theme:dark"]  # alpha off
    result = checklist(ctx, ask(everything, seen), False, yes)
    assert [c.label for c in seen[0] if c.checked] == [
        "alpha",
        "gamma",
        "prompt:fix",
        "skill:review",
        "theme:dark",
    ]
    assert result.plan.command == "toggle" and result.applied
    assert sorted((a.action, a.path) for a in result.plan.changes) == [
        ("disable", "extensions/alpha.ts"),
        ("enable", "extensions/beta.ts.off"),
    ]
    assert "now enabled: beta" in result.notes and "now disabled: alpha" in result.notes
    assert len(journals(agent)) == count + 1
    assert states(ctx)["alpha"] == "disabled" and states(ctx)["beta"] == "enabled"


def cli(*argv: str) -> subprocess.CompletedProcess[str]:
    """ext's command line in a child process (its own argv, stdout and exit code)."""
    code = "from installer.cli.entry import main; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *argv], capture_output=True, text=True, check=False
    )


def test_toggle_on_and_off_without_a_terminal_is_one_plan(set_root: Path, agent: Path) -> None:
    """`ext toggle --on … --off …`, what /ext inside pi runs: no checklist, one journal entry."""
    ctx = installed(set_root, agent)
    off(ctx, "beta")
    count = len(journals(agent))
    headless = context(set_root, agent, tty=False)
    result = switch_both(headless, ["beta"], ["alpha", "gamma"], False, yes)
    assert result.plan.command == "toggle" and result.applied
    assert sorted((a.action, a.path) for a in result.plan.changes) == [
        ("disable", "extensions/alpha.ts"),
        ("disable", "extensions/gamma"),
        ("enable", "extensions/beta.ts.off"),
    ]
    assert len(journals(agent)) == count + 1
    assert (states(ctx)["alpha"], states(ctx)["beta"]) == ("disabled", "enabled")

    tree = snapshot(agent)
    with pytest.raises(UsageError) as err:
        switch_both(headless, ["alpha"], ["alpha"], False, yes)
    assert "named by both --on and --off" in err.value.message
    dry = switch_both(headless, ["alpha"], [], True, yes)
    assert dry.dry_run and [a.action for a in dry.plan.changes] == ["enable"]
    assert snapshot(agent) == tree


def test_toggle_on_off_from_the_command_line_prints_the_plan_as_json(
    set_root: Path, agent: Path
) -> None:
    installed(set_root, agent)
    where = ["--set", str(set_root), "--agent-dir", str(agent)]
    argv = [*where, "--json", "toggle", "--off", "alpha", "--off", "skill:review", "--yes"]
    proc = cli(*argv)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert (data["command"], data["changed"]) == ("toggle", True)
    assert {a["path"] for a in data["actions"]} == {"extensions/alpha.ts", "skills/review"}
    force = cli(*where, "toggle", "--on", "alpha", "--force")
    assert force.returncode == 2 and " disable --force`" in force.stderr


def test_toggle_cancelled_or_unchanged_writes_nothing(set_root: Path, agent: Path) -> None:
    ctx = installed(set_root, agent)
    tree = snapshot(agent)
    with pytest.raises(Refused) as err:
        checklist(ctx, ask(None), False, yes)
    assert err.value.exit_code == ExitCode.REFUSED
    same = [i.resource.label for i in items(ctx)[1]]
    unchanged = checklist(ctx, ask(same), False, yes)
    assert unchanged.plan.is_empty and not unchanged.said  # the list said it all
    assert snapshot(agent) == tree


def test_toggle_without_a_terminal_points_at_its_options_and_enable_and_disable(
    set_root: Path, agent: Path
) -> None:
    installed(set_root, agent)
    with pytest.raises(UsageError) as err:
        checklist(context(set_root, agent, tty=False), ask([]), False, yes)
    assert err.value.exit_code == ExitCode.USAGE
    assert err.value.fix == (
        "use `ext toggle --on NAME,NAME --off NAME --yes` (or `enable`/`disable NAME…`)"
    )


def test_toggle_declined_at_the_confirmation_writes_nothing(set_root: Path, agent: Path) -> None:
    ctx = installed(set_root, agent)
    tree = snapshot(agent)

    def decline(plan: Plan, diffs: tuple[str, ...]) -> None:
        raise Refused("declined; nothing was written")

    with pytest.raises(Refused):
        checklist(ctx, ask(["beta"]), False, decline)
    assert snapshot(agent) == tree


def test_toggle_in_register_mode_is_one_settings_write(set_root: Path, agent: Path) -> None:
    ctx = installed(set_root, agent, mode="register")
    count = len(journals(agent))
    result = checklist(ctx, ask(["beta", "skill:review", "prompt:fix", "theme:dark"]), False, yes)
    assert [a.detail for a in result.plan.changes] == [
        "disable alpha: adds -extensions/alpha.ts to its packages entry, as pi config does",
        "disable gamma: adds -extensions/gamma/index.ts to its packages entry, as pi config does",
    ]
    assert settings(agent)["packages"][0]["extensions"] == [
        "-extensions/alpha.ts",
        "-extensions/gamma/index.ts",
    ]
    assert len(journals(agent)) == count + 1


def test_the_picker_costs_nothing_until_it_is_shown() -> None:
    code = (
        "import sys, installer.cli.app, installer.commands.toggle; "
        "assert 'prompt_toolkit' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_disable_with_the_same_link_parked_already_takes_the_one_in_place(
    set_root: Path, agent: Path
) -> None:
    """A trial: disable, then install.sh run again out of habit links the item in place once
    more; `ext disable` then said the parked link 'is in the way and is not ours' (exit 0,
    nothing disabled). The one in place is a twin of ext's parked link: it goes."""
    ctx = installed(set_root, agent)
    off(ctx, "alpha", "gamma")
    (agent / "extensions/alpha.ts").symlink_to(set_root / "extensions/alpha.ts")  # install.sh
    (agent / "extensions/gamma").symlink_to(set_root / "extensions/gamma")
    assert states(ctx)["alpha"] == states(ctx)["gamma"] == "enabled"
    result = off(ctx, "alpha", "gamma")
    assert [a.action for a in result.plan.changes] == ["unlink", "unlink"] and not result.warnings
    assert states(ctx)["alpha"] == states(ctx)["gamma"] == "disabled"
    assert (agent / "extensions/alpha.ts.off").is_symlink()
    assert (agent / "extensions/.off/gamma").is_symlink()
    assert not os.path.lexists(agent / "extensions/alpha.ts")


@pytest.mark.parametrize("gone", ["extensions/gamma", "extensions/beta.ts", "prompts/fix.md"])
@pytest.mark.parametrize("enable", [True, False])
def test_an_item_gone_from_the_set_is_said_stale_with_its_fix(
    set_root: Path, agent: Path, gone: str, enable: bool
) -> None:
    """A trial: with extensions/tools moved out of the set, `ext enable tools` said the set
    has no item named 'tools' while `ext list` showed it, stale, with `ext install` to prune."""
    import shutil

    ctx = installed(set_root, agent)
    path = set_root / gone
    shutil.rmtree(path) if path.is_dir() else path.unlink()
    name = Path(gone).name.partition(".")[0]
    with pytest.raises(UsageError) as err:
        switch(ctx, [name], enable, False, False, yes)
    label = f"prompt:{name}" if gone.startswith("prompts") else name
    assert err.value.message == (
        f"{label} is gone from the set: its link in the agent dir is stale ({gone})"
    )
    assert err.value.fix == f"run `ext install` to prune it, or put {set_root / gone} back"


@pytest.mark.parametrize("enable", [True, False])
def test_an_item_the_set_dropped_while_its_file_stays_is_said_so(
    set_root: Path, agent: Path, enable: bool
) -> None:
    """Session 49: a pi package's manifest no longer naming beta left beta.ts in the set, so
    its link still loaded; the fix said to put back a file that was there."""
    ctx = installed(set_root, agent)
    kept = {"extensions": ["./extensions/alpha.ts", "./extensions/gamma"]}
    (set_root / "package.json").write_text(json.dumps({"name": "tools", "pi": kept}))
    with pytest.raises(UsageError) as err:
        switch(ctx, ["beta"], enable, False, False, yes)
    assert err.value.message == (
        "beta is no item of the set now, yet its link in the agent dir loads (extensions/beta.ts)"
    )
    assert err.value.fix == "run `ext install` to prune it"
