"""What ext made in an agent dir, from its journals (installer.engine.made): the newest step
about a thing decides; a rolled-back run took its steps back; no journal, not ext's."""

from __future__ import annotations

import json
from pathlib import Path

from installer.engine.made import made_here, patterns_added
from installer.engine.transaction import encode


def journal(agent: Path, name: str, steps: list[dict[str, object]], end: str = "ok") -> None:
    folder = agent / ".extset" / "journal"
    folder.mkdir(parents=True, exist_ok=True)
    head = {"journal": 1, "command": "x", "started": "", "ext": "0"}
    lines = [head, *steps, {"end": end}]
    (folder / f"{name}-1-x.jsonl").write_text("".join(json.dumps(o) + "\n" for o in lines))


def write(agent: Path, before: str | None, after: str | None) -> dict[str, object]:
    file = str(agent / "settings.json")
    return {"op": "write", "file": file, "before": encode(before), "after": encode(after)}


def test_the_newest_step_about_a_folder_decides(tmp_path: Path) -> None:
    agent = tmp_path / "agent"
    journal(agent, "20260101T000001", [{"op": "mkdir", "path": "extensions/.off"}])
    journal(agent, "20260101T000002", [{"op": "mkdir", "path": "skills/.off"}])
    journal(agent, "20260101T000003", [{"op": "rmdir", "path": "skills/.off"}])  # undone
    journal(agent, "20260101T000004", [{"op": "mkdir", "path": "prompts"}], end="rolled-back")

    found = made_here(
        agent, ["extensions/.off", "skills/.off", "prompts", "themes"], agent / "s.json"
    )

    assert found.folders == {"extensions/.off"}


def test_a_packages_key_is_ext_s_only_when_an_ext_write_added_it(tmp_path: Path) -> None:
    agent = tmp_path / "agent"
    settings = agent / "settings.json"
    journal(agent, "20260101T000001", [write(agent, '{"a": 1}', '{"a": 1, "packages": ["/s"]}')])
    assert made_here(agent, (), settings).packages_key

    journal(agent, "20260101T000002", [write(agent, '{"packages": ["/s"]}', "{}")])
    assert not made_here(agent, (), settings).packages_key  # the one there now came later

    other = tmp_path / "other"
    journal(other, "20260101T000001", [write(other, '{"packages": []}', '{"packages": ["/s"]}')])
    assert not made_here(other, (), other / "settings.json").packages_key  # the user's
    assert not made_here(tmp_path / "none", (), tmp_path / "none" / "settings.json").packages_key


def test_settings_json_is_ext_s_when_the_newest_write_that_made_or_removed_it_made_it(
    tmp_path: Path,
) -> None:
    agent = tmp_path / "agent"
    settings = agent / "settings.json"
    journal(agent, "20260101T000001", [write(agent, None, '{"packages": ["/s"]}')])
    journal(agent, "20260101T000002", [write(agent, '{"packages": ["/s"]}', '{"packages": []}')])
    assert made_here(agent, (), settings).settings_file  # a later edit does not make it theirs

    journal(agent, "20260101T000003", [write(agent, '{"packages": []}', None)])
    assert not made_here(agent, (), settings).settings_file  # ext removed it: any one now is not

    user = tmp_path / "user"
    journal(user, "20260101T000001", [write(user, "{}", '{"packages": ["/s"]}')])
    assert not made_here(user, (), user / "settings.json").settings_file  # found it there
    rolled = tmp_path / "rolled"
    journal(rolled, "20260101T000001", [write(rolled, None, "{}")], end="rolled-back")
    assert not made_here(rolled, (), rolled / "settings.json").settings_file


def test_a_top_level_pattern_is_ext_s_when_the_newest_write_about_it_added_it(
    tmp_path: Path,
) -> None:
    agent = tmp_path / "agent"
    settings = agent / "settings.json"
    a, b = '"-extensions/a.ts"', '"-extensions/b.ts"'
    journal(agent, "20260101T000001", [write(agent, None, f'{{"extensions": [{a}]}}')])
    journal(agent, "20260101T000002", [write(agent, f'{{"extensions": [{a}]}}', "{}")])
    journal(agent, "20260101T000003", [write(agent, "{}", f'{{"extensions": [{b}]}}')])
    journal(agent, "20260101T000004", [write(agent, "{}", '{"skills": ["-x"]}')], "rolled-back")

    found = patterns_added(agent, settings, ["extensions", "skills"])

    # a: added, then removed by ext; one there now came from someone else. b: ext's.
    assert found == {("extensions", "-extensions/b.ts")}


def test_a_switch_of_pi_config_s_put_back_by_undo_stays_the_user_s(tmp_path: Path) -> None:
    """A trial: `-extensions/shout.ts` of pi config's; `ext enable shout` dropped it, `ext undo`
    put it back, and the undo's write then counted as ext adding it: uninstall dropped it."""
    import subprocess
    import sys

    from tests.helpers import build_tree

    ext = Path(sys.executable).with_name("ext")
    code = "export default function (pi) {}\n"
    root = build_tree(
        tmp_path / "set", {"extset.toml": '[set]\nname = "s"\n', "extensions/shout.ts": code}
    )
    agent = build_tree(
        tmp_path / "agent",
        {"settings.json": '{"theme": "dark", "extensions": ["-extensions/shout.ts"]}\n'},
    )
    mine = (agent / "settings.json").read_text()
    for args in (["install"], ["enable", "shout"], ["undo"], ["uninstall"]):
        done = subprocess.run(
            [str(ext), "--set", str(root), "--agent-dir", str(agent), *args, "--yes"],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, (args, done.stderr)
    assert (agent / "settings.json").read_text() == mine


def test_a_folder_an_undo_kept_stays_ext_s(tmp_path: Path) -> None:
    """A review: skipping undone runs whole forgot the folder the first install made when its
    undo kept it (a file of the person's was in it): the last uninstall then left it."""
    import subprocess
    import sys

    from tests.helpers import build_tree

    ext = Path(sys.executable).with_name("ext")
    code = "export default function (pi) {}\n"
    root = build_tree(
        tmp_path / "set", {"extset.toml": '[set]\nname = "s"\n', "extensions/a.ts": code}
    )
    agent = tmp_path / "agent"

    def run(*args: str) -> None:
        argv = [str(ext), "--set", str(root), "--agent-dir", str(agent), *args, "--yes"]
        done = subprocess.run(argv, capture_output=True, text=True, check=False)
        assert done.returncode == 0, (args, done.stderr)

    run("install", "--create")
    (agent / "extensions/mine.ts").write_text("// mine\n")
    run("undo")  # extensions/ stays: mine.ts is in it
    (agent / "extensions/mine.ts").unlink()
    run("install")
    run("uninstall")
    assert not (agent / "extensions").exists()
