"""The uninstall of the last set leaves the agent dir as ext found it (the journal apart): no
copy of ext's agent files, no empty folder ext made, no `packages` key ext added; what the
user had stays, and `ext undo` of the uninstall puts back exactly what was there."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.conftest import Run
from tests.helpers import build_tree, snapshot

pytestmark = pytest.mark.e2e


def make_set(root: Path) -> Path:
    return build_tree(
        root,
        {
            "extset.toml": '[set]\nname = "probe"\n',
            "extensions/hello.ts": "export default function () {}\n",
            "extensions/tools/index.ts": "export default function () {}\n",
            "skills/care/SKILL.md": "---\nname: care\ndescription: x\n---\nbe careful\n",
            "prompts/fix.md": "fix it\n",
        },
    )


def installed_switched_by_pi(ext: Run, tmp_path: Path, agent: Path) -> tuple[str, ...]:
    """The set with `switch = "pi"` (off is pi's `-path`), installed into a new agent dir: the
    arguments that reach it."""
    root = make_set(tmp_path / "set")
    toml = root / "extset.toml"
    toml.write_text(toml.read_text() + 'switch = "pi"\n')
    at = ("--set", str(root), "--agent-dir", str(agent))
    ext(*at, "install", "--create", "--yes", check=True)
    return at


def but_journal(tree: dict[str, tuple[str, str]]) -> dict[str, tuple[str, str]]:
    return {k: v for k, v in tree.items() if not k.startswith(".extset/journal/")}


def test_a_fresh_agent_dir_is_left_with_only_ext_bookkeeping(ext: Run, tmp_path: Path) -> None:
    at = ("--set", str(make_set(tmp_path / "set")), "--agent-dir", str(tmp_path / "agent"))
    ext(*at, "install", "--create", "--yes", check=True)
    ext(*at, "disable", "tools", "care", "--yes", check=True)  # parked in .off/ folders
    before = snapshot(tmp_path / "agent")
    mode = (tmp_path / "agent" / ".extset" / "agent").stat().st_mode

    ext(*at, "uninstall", "--yes", check=True)

    left = sorted(but_journal(snapshot(tmp_path / "agent")))
    assert left == [".extset", ".extset/journal", ".extset/lock"]  # no record: no set is here
    undone = ext(*at, "undo", "--yes", check=True).stdout
    assert but_journal(snapshot(tmp_path / "agent")) == but_journal(before)
    assert (tmp_path / "agent" / ".extset" / "agent").stat().st_mode == mode  # 0700, as made
    # Every line names its path under the agent dir as the others do: ext's copy too.
    assert "< restore    .extset/agent/ext-command-" in undone
    assert str(tmp_path / "agent") not in undone


def test_session_records_of_ended_sessions_go_with_the_last_set(ext: Run, tmp_path: Path) -> None:
    """A trial: `ext launch` leaves `.extset/sessions/<pid>.json`; after pi ended and the last
    set was uninstalled, the record stayed (and an empty `sessions/` in the isolated dir). A
    record of a session still running stays: that session is there."""
    import json
    import subprocess

    from installer.agent.sessions import sessions_dir, write_session_record

    agent = tmp_path / "agent"
    at = ("--set", str(make_set(tmp_path / "set")), "--agent-dir", str(agent))
    ext(*at, "install", "--create", "--yes", check=True)
    gone = subprocess.Popen(["true"])
    gone.wait()  # a pid that is gone by now
    folder = sessions_dir(agent)
    folder.mkdir(mode=0o700)
    record = {"version": 1, "pid": gone.pid, "argv": ["pi"], "started": 1.0, "writer": "launch"}
    (folder / f"{gone.pid}.json").write_text(json.dumps(record))

    ext(*at, "uninstall", "--yes", check=True)
    assert not folder.exists()

    ext(*at, "install", "--yes", check=True)
    live = write_session_record(agent, ["pi", "--print"])  # this process: running
    ext(*at, "uninstall", "--yes", check=True)
    assert [p.name for p in folder.iterdir()] == [live.name]


def test_what_the_user_had_stays(ext: Run, tmp_path: Path) -> None:
    agent = build_tree(
        tmp_path / "agent",
        {"settings.json": '{\n  "theme": "dark",\n  "packages": []\n}\n', "prompts/mine.md": "x"},
    )
    (agent / "extensions").mkdir()  # the user's own, empty
    at = ("--set", str(make_set(tmp_path / "set")), "--agent-dir", str(agent))
    ext(*at, "install", "--mode", "register", "--yes", check=True)

    ext(*at, "uninstall", "--yes", check=True)

    assert (agent / "settings.json").read_text() == '{\n  "theme": "dark",\n  "packages": []\n}\n'
    assert (agent / "extensions").is_dir() and (agent / "prompts" / "mine.md").is_file()
    assert not (agent / ".extset" / "agent").exists()


def test_a_packages_key_ext_added_goes_and_comes_back_with_undo(ext: Run, tmp_path: Path) -> None:
    agent = build_tree(tmp_path / "agent", {"settings.json": '{\n  "theme": "dark"\n}\n'})
    at = ("--set", str(make_set(tmp_path / "set")), "--agent-dir", str(agent))
    ext(*at, "install", "--mode", "register", "--yes", check=True)
    installed = (agent / "settings.json").read_text()

    plan = ext(*at, "uninstall", "--yes", check=True)

    assert "the packages key ext added" in plan.stdout + plan.stderr
    assert (agent / "settings.json").read_text() == '{\n  "theme": "dark"\n}\n'
    ext(*at, "undo", "--yes", check=True)
    assert (agent / "settings.json").read_text() == installed


def test_a_set_still_installed_keeps_what_it_needs(ext: Run, tmp_path: Path) -> None:
    agent = tmp_path / "agent"
    one = ("--set", str(make_set(tmp_path / "one")), "--agent-dir", str(agent))
    two = build_tree(
        tmp_path / "two", {"extset.toml": '[set]\nname = "two"\n', "prompts/b.md": "b"}
    )
    ext(*one, "install", "--create", "--yes", check=True)
    ext("--set", str(two), "--agent-dir", str(agent), "install", "--yes", check=True)

    ext(*one, "uninstall", "--yes", check=True)

    assert (agent / "extensions" / "ext-command.ts").resolve().is_file()
    assert (agent / "prompts" / "b.md").is_symlink()


def test_a_settings_json_ext_made_goes_when_nothing_else_is_in_it(ext: Run, tmp_path: Path) -> None:
    agent = tmp_path / "agent"  # no settings.json: register mode makes one for the entry
    at = ("--set", str(make_set(tmp_path / "set")), "--agent-dir", str(agent))
    ext(*at, "install", "--create", "--mode", "register", "--yes", check=True)
    installed = (agent / "settings.json").read_text()

    plan = ext(*at, "uninstall", "--dry-run")

    assert "settings.json goes with it (ext made it)" in plan.stdout
    assert "+++ /dev/null" in plan.stdout
    ext(*at, "uninstall", "--yes", check=True)
    assert not (agent / "settings.json").exists()
    ext(*at, "undo", "--yes", check=True)
    assert (agent / "settings.json").read_text() == installed


def test_a_settings_json_ext_made_stays_when_it_holds_more(ext: Run, tmp_path: Path) -> None:
    agent = tmp_path / "agent"
    at = ("--set", str(make_set(tmp_path / "set")), "--agent-dir", str(agent))
    ext(*at, "install", "--create", "--mode", "register", "--yes", check=True)
    settings = agent / "settings.json"
    settings.write_text(settings.read_text().replace("{", '{\n  "theme": "dark",', 1))

    ext(*at, "uninstall", "--yes", check=True)

    assert settings.read_text() == '{\n  "theme": "dark"\n}\n'


def test_a_settings_json_the_user_made_empty_stays(ext: Run, tmp_path: Path) -> None:
    agent = build_tree(tmp_path / "agent", {"settings.json": "{}\n"})
    at = ("--set", str(make_set(tmp_path / "set")), "--agent-dir", str(agent))
    ext(*at, "install", "--mode", "register", "--yes", check=True)

    ext(*at, "uninstall", "--yes", check=True)

    assert (agent / "settings.json").read_text() == "{}\n"


def test_register_then_link_drops_a_settings_json_ext_made_for_the_entry(
    ext: Run, tmp_path: Path
) -> None:
    agent = tmp_path / "agent"
    at = ("--set", str(make_set(tmp_path / "set")), "--agent-dir", str(agent))
    ext(*at, "install", "--create", "--mode", "register", "--yes", check=True)

    ext(*at, "install", "--mode", "link", "--yes", check=True)

    assert not (agent / "settings.json").exists()
    assert (agent / "extensions" / "hello.ts").is_symlink()


def test_pi_s_switch_of_a_link_that_goes_goes_with_it(ext: Run, tmp_path: Path) -> None:
    """`switch = "pi"`: a disabled item keeps its link, off by a `-path` in settings.json.
    The uninstall takes the link, and the `-path` naming it, which would otherwise keep off
    whatever is put at that path later; a settings.json ext made for it goes too."""
    agent = tmp_path / "agent"
    at = installed_switched_by_pi(ext, tmp_path, agent)
    ext(*at, "disable", "hello", "tools", "--yes", check=True)
    switched = (agent / "settings.json").read_text()
    assert "-extensions/hello.ts" in switched

    plan = ext(*at, "uninstall", "--yes", check=True)

    assert "-extensions/hello.ts" in plan.stdout  # the diff shows it go
    assert "settings.json goes with it (ext made it)" in plan.stdout
    assert not (agent / "settings.json").exists()
    undone = ext(*at, "undo", "--yes", check=True).stdout
    assert "settings.json -> ext removed it: it comes back as it was" in undone
    assert (agent / "settings.json").read_text() == switched
    again = ext(*at, "undo", "--yes", check=True).stdout  # the undo undone: the file goes
    assert "ext made it: it goes, unless someone added to it since" in again
    assert not (agent / "settings.json").exists()


def test_pi_s_switches_of_other_paths_stay(ext: Run, tmp_path: Path) -> None:
    agent = build_tree(
        tmp_path / "agent",
        {"settings.json": '{\n  "theme": "dark",\n  "extensions": ["-extensions/mine.ts"]\n}\n'},
    )
    at = installed_switched_by_pi(ext, tmp_path, agent)
    ext(*at, "disable", "hello", "--yes", check=True)

    ext(*at, "uninstall", "--yes", check=True)

    assert (agent / "settings.json").read_text() == (
        '{\n  "theme": "dark",\n  "extensions": ["-extensions/mine.ts"]\n}\n'
    )


def test_a_switch_pi_config_wrote_for_a_link_stays_the_user_s(ext: Run, tmp_path: Path) -> None:
    """The same `-path`, written by pi config (or by hand) and not by ext: no journal of
    ext's added it, so the uninstall leaves it as the user's."""
    agent = tmp_path / "agent"
    at = ("--set", str(make_set(tmp_path / "set")), "--agent-dir", str(agent))
    ext(*at, "install", "--create", "--yes", check=True)
    settings = agent / "settings.json"
    settings.write_text('{\n  "extensions": ["-extensions/hello.ts"]\n}\n')

    ext(*at, "uninstall", "--yes", check=True)

    assert settings.read_text() == '{\n  "extensions": ["-extensions/hello.ts"]\n}\n'


def test_an_enable_that_empties_a_settings_json_ext_made_takes_it(ext: Run, tmp_path: Path) -> None:
    """switch = "pi": disable writes a `-path` into a settings.json ext makes for it; the enable
    that takes the `-path` back takes the file too, and says so, rather than leave `{}`."""
    agent = tmp_path / "agent"
    at = installed_switched_by_pi(ext, tmp_path, agent)
    ext(*at, "disable", "hello", "--yes", check=True)

    done = ext(*at, "enable", "hello", "--yes", check=True)

    assert "settings.json goes with it (ext made it)" in done.stdout
    assert not (agent / "settings.json").exists()
    shown = ext(*at, "uninstall", "--dry-run", check=True)
    assert "settings.json" not in shown.stdout  # nothing shown that is not written


def test_undo_of_the_first_install_leaves_only_ext_bookkeeping(ext: Run, tmp_path: Path) -> None:
    """ext's copy of its agent files is written beside the journal, not in it: the undo of the
    install that brought it into a dir that held no set takes it too, as an uninstall would."""
    at = ("--set", str(make_set(tmp_path / "set")), "--agent-dir", str(tmp_path / "agent"))
    ext(*at, "install", "--create", "--yes", check=True)
    assert list((tmp_path / "agent" / ".extset" / "agent").iterdir())

    undone = ext(*at, "undo", "--yes", check=True).stdout

    left = sorted(but_journal(snapshot(tmp_path / "agent")))
    assert left == [".extset", ".extset/journal", ".extset/lock"]
    assert "- unlink     .extset/agent/ext-command-" in undone
    assert ".extset/state.json -> no record (there was none before)" in undone
    assert "done: 5 linked" in ext(*at, "install", "--yes", check=True).stdout  # all again
