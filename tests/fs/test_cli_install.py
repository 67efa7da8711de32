"""`ext install`, `uninstall` and `list` on the command line: exit codes, text, and --json."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from installer.cli.app import app
from tests.helpers import build_tree, snapshot

EXT = Path(sys.executable).with_name("ext")
SET = {
    "extset.toml": '[set]\nname = "tools"\n',
    "extensions/notify.ts": "export default function notify() {}\n",
    "extensions/gamma/index.ts": "export default function gamma() {}\n",
    "skills/review/SKILL.md": "---\ndescription: reviews a change\n---\n# review\n",
    "prompts/fix.md": "fix it\n",
    "themes/dark.json": "{}\n",
}
ACTIONS = {
    "link",
    "relink",
    "backup",
    "prune",
    "keep",
    "skip",
    "enable",
    "disable",
    "unlink",
    "seed",
    "register",
    "filter",
    "approve",
    "rmdir",  # the last set's uninstall: a folder ext made, left empty
}
STAMPED = r"\.bak\.\d{8}-\d{6}"


@pytest.fixture
def set_root(tmp_path: Path) -> Path:
    return build_tree(tmp_path / "set", dict(SET))


@pytest.fixture
def agent(tmp_path: Path) -> Path:
    return build_tree(tmp_path / "agent", {"extensions/notify.ts": "mine\n"})


@pytest.fixture(autouse=True)
def quiet_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EXT_NO_UPDATE_CHECK", "1")
    monkeypatch.setenv("NO_COLOR", "1")


def ext(set_root: Path, agent: Path, *args: str) -> Any:
    """Run the CLI in-process on the set and agent dir; result has exit_code, stdout, stderr."""
    return CliRunner().invoke(app, ["--set", str(set_root), "--agent-dir", str(agent), *args])


def as_json(result: Any) -> dict[str, Any]:
    """The whole of stdout is one JSON document (nothing else goes there under --json)."""
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def assert_plan_shape(data: dict[str, Any], command: str) -> None:
    assert list(data) == ["command", "changed", "dry_run", "actions", "warnings"]
    assert data["command"] == command
    assert isinstance(data["changed"], bool)
    assert isinstance(data["dry_run"], bool)
    assert all(isinstance(w, str) for w in data["warnings"])
    for a in data["actions"]:
        assert set(a) <= {"action", "path", "target", "backup", "detail"}, a
        assert {"action", "path"} <= set(a)
        assert a["action"] in ACTIONS
        assert all(isinstance(v, str) for v in a.values())


# text and exit codes


def test_install_shows_the_plan_applies_it_and_exits_0(set_root: Path, agent: Path) -> None:
    result = ext(set_root, agent, "install", "--yes")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "  ! backup     extensions/notify.ts -> extensions/notify.ts.bak." in result.stdout
    assert "  + link       extensions/notify.ts" in lines
    assert "  + link       extensions/gamma" in lines
    assert "  + link       extensions/ext-command.ts" in result.stdout  # ext's /ext
    assert lines[-1] == "done: 6 linked, 1 backed up"
    assert os.readlink(agent / "skills/review") == str(set_root / "skills/review")


def test_a_second_install_says_nothing_to_do_in_one_line(set_root: Path, agent: Path) -> None:
    ext(set_root, agent, "install", "--yes")
    result = ext(set_root, agent, "install")  # no --yes needed: nothing is asked
    assert result.exit_code == 0
    assert result.stdout == "nothing to do: 6 unchanged\n"


def test_dry_run_prints_the_plan_and_writes_nothing(set_root: Path, agent: Path) -> None:
    before = snapshot(agent)
    result = ext(set_root, agent, "install", "--dry-run")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[-2:] == [
        "6 to link, 1 backup",  # the set's five and ext's /ext
        "dry run: nothing was written",
    ]
    assert snapshot(agent) == before


def test_without_yes_and_without_a_terminal_it_refuses_with_exit_3(
    set_root: Path, agent: Path
) -> None:
    before = snapshot(agent)
    result = ext(set_root, agent, "install")
    assert result.exit_code == 3
    assert "no terminal to ask on" in result.stderr
    assert "fix: run the command again with --yes" in result.stderr
    assert snapshot(agent) == before


def test_an_unknown_name_is_exit_2_naming_the_closest(set_root: Path, agent: Path) -> None:
    before = snapshot(agent)
    result = ext(set_root, agent, "install", "--yes", "--only", "notfy")
    assert result.exit_code == 2
    assert "error: the set has no item named 'notfy'" in result.stderr
    assert "fix: did you mean 'notify'?" in result.stderr
    assert snapshot(agent) == before


@pytest.mark.parametrize(
    ("words", "ways"),
    [
        (
            ["install", "--create", "--yes"],
            [
                ["install", "--create", "--yes", "--mode", "register"],
                ["install", "--create", "--yes", "--skip", "b"],
            ],
        ),
        (
            ["install", "--mode=link", "--skip", "a", "--create", "--yes"],
            [
                ["install", "--skip", "a", "--create", "--yes", "--mode", "register"],
                ["install", "--mode=link", "--skip", "a", "--create", "--yes", "--skip", "b"],
            ],
        ),
        (
            ["install", "--mode", "link", "--create", "--yes"],
            [
                ["install", "--create", "--yes", "--mode", "register"],
                ["install", "--mode", "link", "--create", "--yes", "--skip", "b"],
            ],
        ),
        (["install", "--only", "b", "--create", "--yes"], None),
    ],
)
def test_a_refusal_of_link_mode_names_the_lines_that_get_past_it(
    tmp_path: Path,
    words: list[str],
    ways: list[list[str]] | None,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """helper-75: `install --create --yes`, refused in link mode, named `ext --agent-dir A
    install --mode register`, which, pasted, failed: the agent dir does not exist (the
    --create typed was dropped)."""
    from installer.cli.app import main

    manifest = json.dumps({"pi": {"extensions": ["./src/*"]}})
    code = "export default function (pi) {}\n"
    files = {"package.json": manifest, "src/a.ts": code, "src/b.mjs": code}
    set_root = build_tree(tmp_path / "set", {**files, "extset.toml": SET["extset.toml"]})
    agent = tmp_path / "agent"  # not there yet: --create makes it
    ext_bin = build_tree(tmp_path / "bin", {"ext": "#!/bin/sh\n"}) / "ext"
    ext_bin.chmod(0o755)
    monkeypatch.setenv("PATH", str(ext_bin.parent))
    given = ["--set", str(set_root), "--agent-dir", str(agent)]
    monkeypatch.setattr(sys, "argv", [str(ext_bin), *given, *words])
    run_ext_commands_cache_clear()
    with pytest.raises(SystemExit) as done:
        main()
    run_ext_commands_cache_clear()

    assert done.value.code == 2
    fix = capsys.readouterr().err.splitlines()[-1]
    pasted = [f"`ext {shlex.join([*given, *way])}`" for way in ways or []]
    if ways is None:  # a --skip beside --only takes nothing out
        assert fix.endswith("or leave b out of your --only"), fix
    else:
        assert fix == (
            f"  fix: install it with {pasted[0]} (pi then loads the set as a package), "
            f"or leave these out with {pasted[1]}"
        )
    assert not agent.exists()


@pytest.mark.parametrize(
    ("words", "fixed"),
    [
        (["disable", "notfy"], ["disable", "notify"]),
        # a name ext guesses is pasted without --yes: the plan shows first (helper-81: `--only
        # greet --yes` was offered `--only prompt:review --yes`, seven items of eight out)
        (["install", "--yes", "--only=gamma,notfy"], ["install", "--only=gamma,notify"]),
        (["disable", "-y", "notfy"], ["disable", "notify"]),
        # each name typed wrong, not the first alone (helper-84)
        (["install", "--only=gama,notfy", "--yes"], ["install", "--only=gamma,notify"]),
        # a misspelt option is no guess at an item: the line keeps --yes
        (["install", "--yes", "--dryrun"], ["install", "--yes", "--dry-run"]),
        # no terminal to ask on: the line again with --yes (it was "run the command again …")
        (["install", "--skip", "notify"], ["install", "--skip", "notify", "--yes"]),
    ],
)
def test_a_fix_that_means_a_command_line_is_that_line(
    set_root: Path,
    agent: Path,
    words: list[str],
    fixed: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """helper-72: `fix: did you mean 'notify'?` cannot be pasted; the line it means can, as
    ext was run and with what was given (PATH finds this ext: named `ext`)."""
    from installer.cli.app import main

    ext_bin = set_root.parent / "bin" / "ext"
    ext_bin.parent.mkdir()
    ext_bin.write_text("#!/bin/sh\n")
    ext_bin.chmod(0o755)
    monkeypatch.setenv("PATH", str(ext_bin.parent))
    given = ["--set", str(set_root), "--agent-dir", str(agent)]
    monkeypatch.setattr(sys, "argv", [str(ext_bin), *given, *words])
    run_ext_commands_cache_clear()
    before = snapshot(agent)
    with pytest.raises(SystemExit) as done:
        main()
    run_ext_commands_cache_clear()
    assert done.value.code == (3 if "--yes" not in words and "--yes" in fixed else 2)
    assert capsys.readouterr().err.splitlines()[-1] == f"  fix: ext {shlex.join([*given, *fixed])}"
    assert snapshot(agent) == before


def run_ext_commands_cache_clear() -> None:
    from installer.cli.run import _ext_commands

    _ext_commands.cache_clear()  # ext as run is worked out once per process


def test_only_and_skip_take_comma_lists(set_root: Path, agent: Path) -> None:
    result = ext(set_root, agent, "--json", "install", "--yes", "--only", "gamma,skill:review")
    linked = {a["path"] for a in as_json(result)["actions"] if a["action"] == "link"}
    assert linked == {"extensions/gamma", "skills/review", "extensions/ext-command.ts"}
    result = ext(set_root, agent, "--json", "install", "--yes", "--skip", "notify", "--skip", "fix")
    linked = {a["path"] for a in as_json(result)["actions"] if a["action"] == "link"}
    assert linked == {"themes/dark.json"}
    assert (agent / "extensions/notify.ts").read_text() == "mine\n"


def test_a_missing_named_agent_dir_is_exit_4_and_create_makes_it(
    tmp_path: Path, set_root: Path
) -> None:
    missing = tmp_path / "new agent"
    result = ext(set_root, missing, "install", "--yes")
    assert result.exit_code == 4
    assert "does not exist" in result.stderr
    assert not missing.exists()
    # The fix, run as printed, makes the dir it named (not the isolated one) with this set.
    [fix] = [line for line in result.stderr.splitlines() if line.startswith("  fix: ")]
    assert "start pi once with PI_CODING_AGENT_DIR=" in fix and "host" not in fix
    command = shlex.split(re.findall(r"`([^`]*)`", fix)[0])
    assert command[0] == "ext" and "--create" in command
    result = CliRunner().invoke(app, [*map(os.path.expanduser, command[1:]), "--yes"])
    assert result.exit_code == 0, result.stderr
    assert os.readlink(missing / "extensions/notify.ts") == str(set_root / "extensions/notify.ts")


def test_an_unknown_flag_is_exit_2(set_root: Path, agent: Path) -> None:
    assert ext(set_root, agent, "install", "--yse").exit_code == 2


def test_uninstall_removes_ours_and_says_so(set_root: Path, agent: Path) -> None:
    ext(set_root, agent, "install", "--yes")
    result = ext(set_root, agent, "uninstall", "--yes")
    assert result.exit_code == 0
    # with ext's /ext and its copy; the folders ext made went with the last set
    assert result.stdout.splitlines()[-1] == "done: 7 removed, 4 folders removed"
    assert not [k for k, (kind, _) in snapshot(agent).items() if kind == "link"]


# --json


def test_install_json_is_the_plan_result_shape(set_root: Path, agent: Path) -> None:
    dry = ext(set_root, agent, "--json", "install", "--dry-run")
    assert dry.exit_code == 0
    data = as_json(dry)
    assert_plan_shape(data, "install")
    assert (data["changed"], data["dry_run"]) == (True, True)
    real = as_json(ext(set_root, agent, "--json", "install", "--yes"))
    assert_plan_shape(real, "install")
    assert (real["changed"], real["dry_run"]) == (True, False)

    def unstamped(actions: list[dict[str, str]]) -> list[dict[str, str]]:
        return [{k: re.sub(STAMPED + r".*", ".bak.*", v) for k, v in a.items()} for a in actions]

    assert unstamped(data["actions"]) == unstamped(real["actions"])
    notify = [a for a in real["actions"] if a["path"] == "extensions/notify.ts"]
    assert re.fullmatch(r"extensions/notify\.ts" + STAMPED, notify[0]["backup"])
    assert notify == [
        {
            "action": "backup",
            "path": "extensions/notify.ts",
            "backup": notify[0]["backup"],
            "detail": "a file",
        },
        {
            "action": "link",
            "path": "extensions/notify.ts",
            "target": str(set_root / "extensions/notify.ts"),
        },
    ]
    again = as_json(ext(set_root, agent, "--json", "install", "--yes"))
    assert (again["changed"], again["dry_run"]) == (False, False)
    assert {a["action"] for a in again["actions"]} == {"keep"}


def test_uninstall_json_is_the_plan_result_shape(set_root: Path, agent: Path) -> None:
    ext(set_root, agent, "install", "--yes")
    data = as_json(ext(set_root, agent, "--json", "uninstall", "--yes"))
    assert_plan_shape(data, "uninstall")
    assert (data["changed"], data["dry_run"]) == (True, False)
    assert {a["action"] for a in data["actions"]} == {"unlink", "rmdir"}
    links = [a for a in data["actions"] if a["action"] == "unlink" and ".extset" not in a["path"]]
    assert len(links) == 6


def test_list_json_is_the_items_shape(set_root: Path, agent: Path) -> None:
    ext(set_root, agent, "install", "--yes", "--only", "notify,gamma")
    build_tree(agent, {"extensions/.off": None})
    os.rename(agent / "extensions/gamma", agent / "extensions/.off/gamma")
    build_tree(agent, {"prompts/fix.md": "mine\n"})
    result = ext(set_root, agent, "--json", "list")
    assert result.exit_code == 0
    data = as_json(result)
    assert list(data) == ["set", "host", "agent_dir", "mode", "items", "warnings"]
    assert data["host"] == "pi" and data["warnings"] == []
    assert (data["set"], data["agent_dir"], data["mode"]) == (str(set_root), str(agent), "link")
    for item in data["items"]:
        assert {"name", "kind", "layout", "state", "path"} <= set(item)
        assert set(item) - {"name", "kind", "layout", "state", "path"} <= {
            "note",
            "entries",
            "left_out",  # not installed, an enable away: --only left it out
        }
    left_out = {i["name"] for i in data["items"] if i.get("left_out")}
    assert left_out == {"review", "dark"}  # not "fix": a file of the user's is in its place
    entries = {i["name"]: i["entries"] for i in data["items"]}
    assert entries["notify"] == [str(set_root / "extensions/notify.ts")]
    assert entries["review"] == [str(set_root / "skills/review/SKILL.md")]
    states = {(i["name"], i["kind"], i["layout"], i["state"], i["path"]) for i in data["items"]}
    assert states == {
        ("notify", "extension", "file", "enabled", "extensions/notify.ts"),
        ("gamma", "extension", "dir", "disabled", "extensions/.off/gamma"),
        ("review", "skill", "dir", "not-installed", "skills/review"),
        ("fix", "prompt", "file", "conflict", "prompts/fix.md"),
        ("dark", "theme", "file", "not-installed", "themes/dark.json"),
    }


def test_list_shows_links_whose_target_left_the_set_as_stale_until_install_prunes_them(
    set_root: Path, agent: Path
) -> None:
    os.unlink(agent / "extensions/notify.ts")
    ext(set_root, agent, "install", "--yes")
    ext(set_root, agent, "disable", "gamma", "--yes")
    os.unlink(set_root / "extensions/notify.ts")  # gone from the set: links left behind
    shutil.rmtree(set_root / "extensions/gamma")

    data = as_json(ext(set_root, agent, "--json", "list"))
    text = ext(set_root, agent, "list").stdout

    stale = [i for i in data["items"] if i["state"] == "stale"]
    assert [(i["name"], i["kind"], i["layout"], i["path"]) for i in stale] == [
        ("gamma", "extension", "dir", "extensions/.off/gamma"),
        ("notify", "extension", "file", "extensions/notify.ts"),
    ]
    assert all("`ext install` prunes it" in i["note"] for i in stale)  # JSON: as the docs say
    # The note's command, shown, works pasted: with the set and the dir this run was given.
    pasted = f"`ext --set {set_root} --agent-dir {agent} install` prunes it)"
    assert re.search(
        rf"^  stale +notify +extensions/notify\.ts  \(.*{re.escape(pasted)}$", text, re.M
    )
    assert re.search(r"^  stale +gamma +extensions/\.off/gamma  ", text, re.M)
    ext(set_root, agent, "install", "--yes")
    after = as_json(ext(set_root, agent, "--json", "list"))
    assert [i for i in after["items"] if i["state"] == "stale"] == []
    assert not os.path.lexists(agent / "extensions/notify.ts")


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["install"], 3),
        (["install", "--yes", "--only", "../x"], 2),
        (["install", "--yes", "--only", "nope"], 2),
    ],
)
def test_json_errors_are_json_on_stdout_too(
    set_root: Path, agent: Path, args: list[str], code: int
) -> None:
    result = ext(set_root, agent, "--json", *args)
    assert result.exit_code == code
    data = as_json(result)
    assert data["exit_code"] == code
    assert data["error"]
    assert data["fix"]


# the installed `ext`, as a user runs it


def run_ext(
    tmp_path: Path, *args: str, extra: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG") or "XDG" in k}
    env.update(NO_COLOR="1", EXT_NO_UPDATE_CHECK="1", **(extra or {}))
    return subprocess.run(
        [str(EXT), *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
        check=False,
        stdin=subprocess.DEVNULL,
    )


def test_the_installed_ext_exit_codes_end_to_end(
    tmp_path: Path, set_root: Path, agent: Path
) -> None:
    common = ("--set", str(set_root), "--agent-dir", str(agent))
    assert run_ext(tmp_path, *common, "install").returncode == 3
    assert run_ext(tmp_path, *common, "install", "--yes", "--only", "nope").returncode == 2
    missing = ("--set", str(set_root), "--agent-dir", str(tmp_path / "none"))
    assert run_ext(tmp_path, *missing, "install", "--yes").returncode == 4
    done = run_ext(tmp_path, *common, "--json", "install", "--yes")
    assert done.returncode == 0, done.stderr
    assert_plan_shape(json.loads(done.stdout), "install")
    assert "Traceback" not in done.stderr
    listed = run_ext(tmp_path, *common, "--json", "list")
    assert {i["state"] for i in json.loads(listed.stdout)["items"]} == {"enabled"}


def test_the_isolated_default_is_used_and_named_when_no_agent_dir_is_given(
    tmp_path: Path, set_root: Path, isolated_home: Path
) -> None:
    done = run_ext(tmp_path, "--set", str(set_root), "install", "--yes")
    assert done.returncode == 0, done.stderr
    isolated = isolated_home / ".local/share/extset/agent"
    assert os.readlink(isolated / "extensions/notify.ts") == str(set_root / "extensions/notify.ts")
    # Named as it was run: by its path, as this test's PATH may not find it.
    on_path = shutil.which("ext") is not None and Path(shutil.which("ext") or "").samefile(EXT)
    ext = ("ext" if on_path else str(EXT)) + f" --set {set_root}"  # as given, so it works pasted
    assert f'pi reads it with: eval "$({ext} env)"   (or run `{ext} launch`)' in done.stderr
    assert "eval" not in done.stdout


def test_an_install_into_a_dir_pi_does_not_read_says_how_pi_reads_it(
    tmp_path: Path, set_root: Path, agent: Path
) -> None:
    """--agent-dir names a dir pi started here would not read: the same line as for the
    isolated dir, with the dir; none once PI_CODING_AGENT_DIR names it."""
    common = ("--set", str(set_root), "--agent-dir", str(agent))
    done = run_ext(tmp_path, *common, "install", "--yes")
    assert done.returncode == 0, done.stderr
    assert f'--agent-dir {agent} env)"   (or run `' in done.stderr.splitlines()[-1]

    (agent / "extensions" / "notify.ts").unlink()
    done = run_ext(tmp_path, *common, "install", "--yes", extra={"PI_CODING_AGENT_DIR": str(agent)})
    assert done.returncode == 0, done.stderr
    assert "pi reads it with" not in done.stderr


def test_install_and_list_say_the_agent_dir_came_from_pi_coding_agent_dir(
    tmp_path: Path, set_root: Path, agent: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(agent))
    at = ("--set", str(set_root))

    planned = CliRunner().invoke(app, [*at, "install", "--dry-run"])
    done = CliRunner().invoke(app, [*at, "install", "--yes"])
    listed = CliRunner().invoke(app, [*at, "list"])

    where = f"agent dir {agent} (from PI_CODING_AGENT_DIR)"
    assert planned.exit_code == 0 and where in planned.stderr
    assert done.exit_code == 0 and where in done.stderr
    assert (agent / "extensions" / "gamma").resolve() == set_root / "extensions" / "gamma"
    assert f"agent dir  {agent} (PI_CODING_AGENT_DIR)" in listed.stdout


def test_skip_beside_only_is_said_to_be_unused(set_root: Path, agent: Path) -> None:
    """DESIGN: --only wins when both are given; the run says so instead of dropping --skip."""
    done = ext(set_root, agent, "install", "--only", "notify", "--skip", "notify", "--dry-run")
    assert done.exit_code == 0
    assert "warning: --skip is not used: --only names what this install leaves in" in done.stderr
    assert "+ link       extensions/notify.ts" in done.stdout


def test_a_file_switched_off_by_hand_at_an_items_off_name_is_said_beside_its_link(
    set_root: Path, tmp_path: Path
) -> None:
    """helper-24: with the user's own extensions/notify.ts.off (switched off by hand) in the
    agent dir, the install linked the set's notify.ts with no word: pi then loads a notify
    the person had turned off. It still links it (the file is theirs, and no switch of
    ext's), and the plan line says so."""
    agent = build_tree(tmp_path / "own", {"extensions/notify.ts.off": "// mine, off\n"})
    done = ext(set_root, agent, "install", "--yes")
    assert done.exit_code == 0, done.output
    assert re.search(
        r"\+ link +extensions/notify\.ts  \(the set's, on; your extensions/notify\.ts\.off "
        r"stays, off\)",
        done.stdout,
    ), done.stdout
    assert (agent / "extensions/notify.ts.off").read_text() == "// mine, off\n"


def test_a_host_of_links_alone_is_offered_no_register_mode(tmp_path: Path) -> None:
    """helper-76: `ext --host claude install` was offered a line with --mode register, which
    that host refuses (it has no packages)."""
    from installer.ground.errors import Rerun
    from installer.sets.modes import refuse_unlinkable
    from installer.sets.resources import discover

    manifest = json.dumps({"pi": {"extensions": ["./src/*"]}})
    root = build_tree(tmp_path / "set", {"package.json": manifest, "src/b.mjs": ""})
    with pytest.raises(Rerun) as err:
        refuse_unlinkable(discover(root), registers=False)
    assert [w.flag for w in err.value.ways] == ["--skip"]
    assert err.value.fix == "leave these out with --skip b"


def test_a_settings_link_into_a_missing_folder_is_refused_with_the_plan(
    set_root: Path, tmp_path: Path
) -> None:
    """helper-87: the dry run showed settings.json created, and the real run failed at its
    write, rolled back: the link is refused before anything is planned to be written."""
    (set_root / "extset.toml").write_text('[set]\nname = "tools"\n[settings.seed]\nquiet = true\n')
    agent = tmp_path / "linked"
    agent.mkdir()
    (agent / "settings.json").symlink_to(tmp_path / "nowhere" / "settings.json")
    for run in (["--dry-run"], ["--yes"]):
        result = ext(set_root, agent, "install", *run)
        assert result.exit_code == 1, result.stderr
        assert "settings.json: it is a link to" in result.stderr
        assert "in a folder that does not exist" in result.stderr
        assert sorted(p.name for p in agent.iterdir()) == ["settings.json"]


def test_a_new_agent_dir_under_a_linked_folder_is_no_settings_link(
    set_root: Path, tmp_path: Path
) -> None:
    """The plan's check of a settings.json link into a missing folder took a dir not made yet
    under a linked folder (a linked HOME) for such a link, and refused a --create."""
    (set_root / "extset.toml").write_text('[set]\nname = "tools"\n[settings.seed]\nquiet = true\n')
    (tmp_path / "linked").symlink_to(tmp_path)
    agent = tmp_path / "linked" / "new-agent"
    result = ext(set_root, agent, "install", "--create", "--dry-run")
    assert result.exit_code == 0, result.stderr
    assert "to seed" in result.stdout
