"""Every writer of an agent dir says which dir, and from where, before its plan; and a set
installed in another dir than the one resolved is pointed to, with the command for it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from installer.cli.app import app
from installer.ground.installs import record_path
from tests.helpers import build_tree

SET = {
    "extset.toml": '[set]\nname = "mine"\n',
    "extensions/hello.ts": "export default function hello() {}\n",
}
ENV = {"NO_COLOR": "1", "EXT_NO_UPDATE_CHECK": "1"}


@pytest.fixture
def set_root(tmp_path: Path) -> Path:
    return build_tree(tmp_path / "set", dict(SET))


@pytest.fixture
def fresh(tmp_path: Path) -> Path:
    return tmp_path / "fresh-agent"


def ext(set_root: Path, *args: str) -> Any:
    return CliRunner().invoke(app, ["--set", str(set_root), *args], env=ENV)


def installed_in(set_root: Path, agent: Path) -> None:
    done = ext(set_root, "--agent-dir", str(agent), "install", "--create", "--yes")
    assert done.exit_code == 0, done.output


@pytest.mark.parametrize(
    "args",
    [
        ["disable", "hello", "--yes"],
        ["disable", "hello", "--dry-run"],
        ["enable", "hello", "--yes"],  # a no-op: hello is on
        ["toggle", "--off", "hello", "--yes"],
        ["uninstall", "--dry-run"],
        ["uninstall", "--yes"],
        ["undo", "--dry-run"],
        ["undo", "--yes"],
        ["adopt", "--all", "--dry-run"],  # helper-24: adopt named no dir
    ],
)
def test_each_writer_says_the_agent_dir_and_its_source_before_its_plan(
    set_root: Path, fresh: Path, args: list[str]
) -> None:
    installed_in(set_root, fresh)
    if args[0] == "adopt":
        build_tree(fresh, {"extensions/mine.ts": "export default function mine() {}\n"})
    done = ext(set_root, "--agent-dir", str(fresh), *args)
    assert done.exit_code == 0, done.output
    first = done.stderr.splitlines()[0]
    assert first == f"agent dir {fresh} (from --agent-dir)"
    assert "not installed here" not in done.stderr


def test_a_set_installed_elsewhere_is_named_with_the_command_for_that_dir(
    set_root: Path, fresh: Path
) -> None:
    # The case: installed with --agent-dir; then a command resolves the isolated dir.
    installed_in(set_root, fresh)
    done = ext(set_root, "disable", "hello")
    assert done.exit_code == 0  # as before: nothing to do here
    lines = done.stderr.splitlines()
    assert lines[0] == "agent dir ~/.local/share/extset/agent (ext's isolated default)"
    assert lines[1] == (
        f"the set is not installed here but in {fresh}: "
        f"ext --set {set_root} --agent-dir {fresh} disable hello"
    )
    assert "hello was not disabled: it is not installed" in done.stderr
    assert (fresh / "extensions/hello.ts").is_symlink()  # untouched


@pytest.mark.parametrize(
    "args", [("disable", "hello", "--yes"), ("list",)], ids=["disable", "list"]
)
def test_with_json_the_other_dir_is_said_on_stderr_too(
    set_root: Path, fresh: Path, args: tuple[str, ...]
) -> None:
    """A trial (helper-42): a fleet script aimed at the wrong dir got exit 0, a document, and
    no word of the dir that holds the set. The hint goes to stderr, as every message of a
    --json run does; stdout stays the one document, with no heading."""
    installed_in(set_root, fresh)
    done = ext(set_root, "--json", *args)
    assert done.exit_code == 0
    json.loads(done.stdout)
    assert done.stderr.splitlines() == [
        f"the set is not installed here but in {fresh}: "
        f"ext --set {set_root} --agent-dir {fresh} {' '.join(a for a in args if a != '--yes')}"
    ]


def test_a_set_moved_after_its_install_is_pointed_to_the_dir_that_holds_it(
    set_root: Path, fresh: Path, tmp_path: Path
) -> None:
    """Left alone in stop 46: the set's folder moved, and from there `list` and `disable`
    spoke of the isolated dir alone. The dir whose record holds the set at its older (gone)
    root holds this set, as an install there takes it."""
    installed_in(set_root, fresh)
    moved = set_root.rename(tmp_path / "moved")
    done = ext(moved, "disable", "hello")
    assert done.stderr.splitlines()[1] == (
        f"the set is not installed here but in {fresh}: "
        f"ext --set {moved} --agent-dir {fresh} disable hello"
    )
    build_tree(tmp_path / "set", {"extset.toml": '[set]\nname = "mine"\n'})  # another, there
    assert "not installed here" not in ext(moved, "disable", "hello").stderr
    another = build_tree(tmp_path / "other", {"extset.toml": '[set]\nname = "other"\n'})
    (tmp_path / "set").rename(tmp_path / "set-elsewhere")
    assert "not installed here" not in ext(another, "list").stderr  # another name


def test_from_another_set_s_folder_the_other_dir_is_offered_with_list_not_a_failing_command(
    set_root: Path, fresh: Path, tmp_path: Path
) -> None:
    """A trial: from a set without `notify`, against a dir holding the set that has it, the
    first hint was this set's other dir with `enable notify`, which fails there as well."""
    installed_in(set_root, fresh)
    theirs = build_tree(tmp_path / "theirs", {**SET, "extset.toml": '[set]\nname = "theirs"\n'})
    build_tree(theirs, {"extensions/notify.ts": "export default function () {}\n"})
    held = tmp_path / "held"
    installed_in(theirs, held)

    done = ext(set_root, "--agent-dir", str(held), "enable", "notify")

    lines = done.stderr.splitlines()
    assert lines[1] == (
        f"the set is not installed here but in {fresh}: "
        f"ext --set {set_root} --agent-dir {fresh} list"
    )
    assert lines[2] == (
        f"this dir holds the set theirs ({theirs}), not this one: "
        f"ext --set {theirs} --agent-dir {held} enable notify"
    )
    assert ext(theirs, "--agent-dir", str(held), "enable", "notify", "--yes").exit_code == 0


def test_install_into_a_second_dir_says_where_the_set_already_is(
    set_root: Path, fresh: Path
) -> None:
    installed_in(set_root, fresh)
    done = ext(set_root, "install", "--dry-run", "--skip", "hello")
    # Without --skip (helper-32): an install's selection is that dir's whole, not this one's;
    # and its own, if it had one, is for the person to give again (helper-33).
    assert done.stderr.splitlines()[1] == (
        f"the set is installed in {fresh} too (give its own --only or --skip again, if its "
        f"install had any); for that dir: ext --set {set_root} --agent-dir {fresh} install"
    )


def test_past_three_other_dirs_two_are_named_and_the_rest_counted(
    set_root: Path, tmp_path: Path
) -> None:
    """A set tried in many dirs (a bench, a trial each) would push the plan off the screen
    with a line per dir: three are named, each with its command; more, two and a count."""
    dirs = [tmp_path / f"agent{n}" for n in range(5)]
    dirs[4].mkdir()
    for n, agent in enumerate(dirs[:4]):
        installed_in(set_root, agent)
        done = ext(set_root, "--agent-dir", str(dirs[4]), "install", "--dry-run")
        elsewhere = ext(set_root, "disable", "hello")
        said = done.stderr.splitlines()[1:]
        if n < 3:
            assert [line.split(" too (")[0] for line in said] == [
                f"the set is installed in {d}" for d in dirs[: n + 1]
            ], done.stderr
            assert len(elsewhere.stderr.splitlines()) == n + 3  # where, n + 1 dirs, the error
        else:
            assert said[2:] == ["the set is installed in 2 more dirs too"], done.stderr
            assert said[1].startswith(f"the set is installed in {dirs[1]} too (give its own ")
            assert elsewhere.stderr.splitlines()[3] == "and in 2 more dirs", elsewhere.stderr


def test_a_dir_whose_own_record_no_longer_lists_the_set_is_not_named(
    set_root: Path, fresh: Path
) -> None:
    installed_in(set_root, fresh)
    (fresh / ".extset/state.json").write_text('{"version": 1, "sets": []}')  # by hand
    done = ext(set_root, "disable", "hello")
    assert "not installed here" not in done.stderr


def test_the_record_follows_install_uninstall_and_undo(set_root: Path, fresh: Path) -> None:
    installed_in(set_root, fresh)
    assert sets_recorded() == {str(fresh): [str(set_root)]}
    assert ext(set_root, "--agent-dir", str(fresh), "uninstall", "--yes").exit_code == 0
    assert sets_recorded() == {}
    assert ext(set_root, "--agent-dir", str(fresh), "undo", "--yes").exit_code == 0
    assert sets_recorded() == {str(fresh): [str(set_root)]}


def test_an_install_made_before_the_record_is_recorded_by_a_no_op_install(
    set_root: Path, fresh: Path
) -> None:
    installed_in(set_root, fresh)
    record_path().unlink()
    again = ext(set_root, "--agent-dir", str(fresh), "install", "--yes")
    assert "nothing to do" in again.stdout
    assert sets_recorded() == {str(fresh): [str(set_root)]}


def test_read_only_commands_and_dry_runs_do_not_write_the_record(
    set_root: Path, fresh: Path
) -> None:
    fresh.mkdir()
    for args in (["list"], ["doctor"], ["history"], ["install", "--dry-run"]):
        ext(set_root, "--agent-dir", str(fresh), *args)
    assert not record_path().exists()


def test_json_output_stays_one_document(set_root: Path, fresh: Path) -> None:
    installed_in(set_root, fresh)
    done = ext(set_root, "--json", "disable", "hello")
    assert json.loads(done.stdout)["command"] == "disable"
    assert "agent dir" not in done.stderr


def sets_recorded() -> dict[str, list[str]]:
    data = json.loads(record_path().read_text())
    return {k: v["sets"] for k, v in data["agent_dirs"].items()}


def test_undo_that_undoes_here_does_not_point_elsewhere(set_root: Path, fresh: Path) -> None:
    """undo reverses this dir's last run, whichever set it was: after `uninstall` here, the
    set is installed only in the other dir, and the undo here is the one meant."""
    installed_in(set_root, fresh)
    assert ext(set_root, "install", "--yes").exit_code == 0  # the isolated dir too
    assert ext(set_root, "uninstall", "--yes").exit_code == 0
    done = ext(set_root, "undo", "--yes")
    assert done.exit_code == 0, done.output
    assert "not installed here" not in done.stderr
    assert "done:" in done.stdout


def test_undo_with_nothing_to_undo_here_points_to_the_dir_that_holds_the_set(
    set_root: Path, fresh: Path
) -> None:
    installed_in(set_root, fresh)
    done = ext(set_root, "undo", "--yes")
    # Without --yes (helper-29): that dir's plan is shown before anything is undone there.
    assert done.stderr.splitlines()[1] == (
        f"the set is not installed here but in {fresh}: "
        f"ext --set {set_root} --agent-dir {fresh} undo"
    )


def test_adopt_records_the_dir_it_adopted_from(set_root: Path, tmp_path: Path) -> None:
    """adopt installs the set where it found the files: a command run on another dir then
    points there, as after an install."""
    pi_dir = build_tree(tmp_path / "pi-agent", {"extensions/mine.ts": "export default () => {};\n"})
    done = ext(set_root, "adopt", "--all", "--from", str(pi_dir), "--yes")
    assert done.exit_code == 0, done.output
    assert sets_recorded() == {str(pi_dir): [str(set_root)]}
    elsewhere = ext(set_root, "disable", "mine")
    assert f"the set is not installed here but in {pi_dir}: " in elsewhere.stderr


def test_readers_point_to_the_dir_the_set_is_installed_in(set_root: Path, fresh: Path) -> None:
    """list and doctor on the isolated dir, the set installed with --agent-dir: each says
    where it is (doctor's `ext install` alone would install a second copy here)."""
    installed_in(set_root, fresh)
    listed = ext(set_root, "list")
    doctor = ext(set_root, "doctor")
    here = ext(set_root, "--agent-dir", str(fresh), "list")

    assert listed.exit_code == 0 and "not-installed hello" in " ".join(listed.stdout.split())
    assert listed.stderr.splitlines() == [
        f"the set is not installed here but in {fresh}: "
        f"ext --set {set_root} --agent-dir {fresh} list"
    ]
    assert f"the set is not installed in this dir but in {fresh}" in doctor.stdout
    assert "install` creates it" not in doctor.stdout  # a second copy, said nowhere
    assert f"fix: check that dir: `ext --set {set_root} --agent-dir {fresh} doctor`" in (
        doctor.stdout
    )
    assert "not installed here" not in here.stderr
    # --json's fix is not completed with this run's flags: it names the set itself
    rows = json.loads(ext(set_root, "--json", "doctor").stdout)["checks"]
    [row] = [r for r in rows if r["message"].startswith("the set is not installed in this dir")]
    assert row["fix"] == f"check that dir: `ext --set {set_root} --agent-dir {fresh} doctor`"


def test_history_says_which_dir_it_lists(set_root: Path, fresh: Path) -> None:
    installed_in(set_root, fresh)
    done = ext(set_root, "--agent-dir", str(fresh), "history")
    assert done.stderr.splitlines() == [f"agent dir {fresh} (from --agent-dir)"]
    assert done.stdout.rstrip().endswith("for mine")


def test_a_missing_dir_s_fix_is_the_install_as_typed_with_create(
    set_root: Path, fresh: Path
) -> None:
    """Pasted, the fix does what was asked (register mode, no question), in the dir named."""
    import shlex

    missing = ext(set_root, "--agent-dir", str(fresh), "install", "--mode", "register", "--yes")
    assert missing.exit_code == 4
    fix = missing.stderr.split("fix: run `", 1)[1].split("`", 1)[0]
    words = shlex.split(fix)
    assert words[0] == "ext" and "--create" in words

    done = CliRunner().invoke(app, words[1:], env=ENV)

    assert done.exit_code == 0, done.output
    assert json.loads((fresh / "settings.json").read_text())["packages"] == [str(set_root)]


def test_a_dry_run_of_create_makes_no_dir(set_root: Path, fresh: Path) -> None:
    """DESIGN: a dry run writes nothing; with --create it plans for the dir empty."""
    shown = ext(set_root, "--agent-dir", str(fresh), "install", "--create", "--dry-run")
    assert shown.exit_code == 0, shown.output
    assert "+ link       extensions/hello.ts" in shown.stdout
    assert not fresh.exists()


def test_a_declined_create_leaves_no_dir(set_root: Path, tmp_path: Path) -> None:
    """`install --create` with no terminal to ask on (or `n`) says nothing was written: the
    dir it made to plan in, and its missing parents, go too; a parent that was there stays."""
    fresh = tmp_path / "new/deeper/agent"
    refused = ext(set_root, "--agent-dir", str(fresh), "install", "--create")
    assert refused.exit_code == 3, refused.output
    assert "nothing was written" in refused.stderr
    assert not (tmp_path / "new").exists() and tmp_path.is_dir()
    done = ext(set_root, "--agent-dir", str(fresh), "install", "--create", "--yes")
    assert done.exit_code == 0 and (fresh / "extensions/hello.ts").is_symlink()


def test_a_dir_that_holds_another_set_names_it_with_the_command_for_it(
    set_root: Path, fresh: Path, tmp_path: Path
) -> None:
    """The right dir, run from the wrong folder: the set resolved is not installed there, but
    another is; list, a writer and doctor name it, each with the command for that set."""
    installed_in(set_root, fresh)
    other = build_tree(tmp_path / "other", {"extset.toml": '[set]\nname = "other"\n'})

    listed = ext(other, "--agent-dir", str(fresh), "list")
    disable = ext(other, "--agent-dir", str(fresh), "uninstall", "--dry-run")
    doctor = ext(other, "--agent-dir", str(fresh), "doctor")

    said = f"this dir holds the set mine ({set_root}), not this one"
    # helper-81: a set installed nowhere (one just made) may be the one meant: list and doctor
    # also say how to put it here, after the set the dir holds
    assert listed.stderr.splitlines() == [
        f"{said}: ext --set {set_root} --agent-dir {fresh} list",
        f"this set is installed in no pi agent dir yet; to put it here: ext --set {other} "
        f"--agent-dir {fresh} install",
    ]
    assert (
        f"this set is installed in no pi agent dir yet\n{' ' * 26}fix: install it here: `ext "
        f"--set {other} --agent-dir {fresh} install`"
    ) in doctor.stdout
    assert disable.stderr.splitlines()[:2] == [
        f"agent dir {fresh} (from --agent-dir)",
        f"{said}: ext --set {set_root} --agent-dir {fresh} uninstall --dry-run",
    ]
    assert said in doctor.stdout
    assert f"fix: check that set: `ext --set {set_root} --agent-dir {fresh} doctor`" in (
        doctor.stdout
    )


def test_an_install_of_the_bundled_set_taken_for_want_of_one_names_the_set_the_dir_holds(
    set_root: Path, fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """helper-77: run from a folder with no set, `install` planned ext's bundled set into the
    dir that holds the user's, without a word of it; a set named on purpose adds no line."""
    installed_in(set_root, fresh)
    monkeypatch.chdir(build_tree(tmp_path / "elsewhere", {"notes.txt": ""}))

    bundled = CliRunner().invoke(app, ["--agent-dir", str(fresh), "install", "--dry-run"], env=ENV)
    other = build_tree(tmp_path / "other", {"extset.toml": '[set]\nname = "other"\n'})
    named = ext(other, "--agent-dir", str(fresh), "install", "--dry-run")

    assert bundled.exit_code == 0, bundled.output
    assert bundled.stderr.splitlines()[:2] == [
        f"agent dir {fresh} (from --agent-dir)",
        f"this dir holds the set mine ({set_root}), not ext's bundled set, taken as no set is "
        f"in or above this folder: ext --set {set_root} --agent-dir {fresh} install",
    ]
    assert named.exit_code == 0, named.output
    assert "this dir holds" not in named.output


def test_doctor_from_another_set_offers_no_install_of_that_set_into_a_dir_holding_one(
    set_root: Path, fresh: Path, tmp_path: Path
) -> None:
    """helper-24: from a folder without a set (so the bundled set, or another one), doctor on
    a dir that holds the user's set said `not installed: …` with `ext install` as its fix,
    which pasted puts that other set beside the user's. The row says the dir holds another
    set; with no set there, the install fix stays (a new dir's first install)."""
    installed_in(set_root, fresh)
    other = build_tree(
        tmp_path / "other",
        {"extset.toml": '[set]\nname = "other"\n', "extensions/x.ts": "export default 1\n"},
    )

    done = ext(other, "--agent-dir", str(fresh), "--json", "doctor", "--check", "items")
    (tmp_path / "new").mkdir()
    empty = ext(other, "--agent-dir", str(tmp_path / "new"), "--json", "doctor", "--check", "items")

    [row] = [c for c in json.loads(done.stdout)["checks"] if c["id"] == "items"]
    assert row == {
        "id": "items",
        "level": "info",
        "message": "not installed: x (this dir holds the set mine, not this one: see agent.dir)",
    }
    [row] = [c for c in json.loads(empty.stdout)["checks"] if c["id"] == "items"]
    assert row["message"] == "not installed: x" and row["fix"] == "ext install"


def test_a_dir_whose_set_moved_away_offers_no_command_naming_the_old_folder(
    set_root: Path, fresh: Path, tmp_path: Path
) -> None:
    """helper-24: after `mv ~/dotfiles/pi ~/src/pi-set`, list and doctor from elsewhere said
    `ext --set ~/dotfiles/pi …`, which pasted fails (not a folder)."""
    installed_in(set_root, fresh)
    set_root.rename(tmp_path / "moved")
    other = build_tree(tmp_path / "other", {"extset.toml": '[set]\nname = "other"\n'})

    listed = ext(other, "--agent-dir", str(fresh), "list")
    doctor = ext(other, "--agent-dir", str(fresh), "--json", "doctor", "--check", "agent.dir")

    moved = (
        "that folder is gone; if you moved the set, run this again with `--set` naming its new "
        "folder, and the agent dir as here (an install so relinks it)"
    )
    said = f"this dir holds the set mine ({set_root}), not this one"
    assert listed.stderr.splitlines() == [f"{said}: {moved}"]
    [row] = [c for c in json.loads(doctor.stdout)["checks"] if "holds the set" in c["message"]]
    assert (row["message"], row["fix"]) == (said, moved)


def test_a_set_that_is_installed_here_names_no_other(
    set_root: Path, fresh: Path, tmp_path: Path
) -> None:
    other = build_tree(tmp_path / "other", {"extset.toml": '[set]\nname = "other"\n'})
    installed_in(set_root, fresh)
    installed_in(other, fresh)
    assert ext(other, "--agent-dir", str(fresh), "list").stderr == ""
    # An install into a dir that holds other sets is what a second set's install is.
    again = ext(other, "--agent-dir", str(fresh), "install", "--dry-run")
    assert "this dir holds" not in again.stderr


def test_an_error_about_a_set_this_dir_does_not_hold_says_which_set_it_holds_first(
    set_root: Path, fresh: Path, tmp_path: Path
) -> None:
    installed_in(set_root, fresh)
    other = build_tree(tmp_path / "other", {"extset.toml": '[set]\nname = "other"\n'})

    done = ext(other, "--agent-dir", str(fresh), "disable", "hello")

    assert done.exit_code == 2
    lines = done.stderr.splitlines()
    assert lines[:2] == [
        f"agent dir {fresh} (from --agent-dir)",
        f"this dir holds the set mine ({set_root}), not this one: "
        f"ext --set {set_root} --agent-dir {fresh} disable hello",
    ]
    assert lines[2] == (  # helper-35: it names the set that has it, too
        f"error: 'hello' is no item of this set (other) but of 'mine', which ext installed "
        f"here from {set_root}"
    )


def test_history_of_a_dir_that_does_not_hold_the_set_points_to_the_one_that_does(
    set_root: Path, fresh: Path
) -> None:
    installed_in(set_root, fresh)
    done = ext(set_root, "history")
    assert done.stderr.splitlines() == [
        "agent dir ~/.local/share/extset/agent (ext's isolated default)",
        f"the set is not installed here but in {fresh}: "
        f"ext --set {set_root} --agent-dir {fresh} history",
    ]


def test_the_command_for_the_set_a_dir_holds_names_that_dir(
    set_root: Path, fresh: Path, tmp_path: Path
) -> None:
    """The dir came from the other set's [target]: the command for the set it holds names it,
    since resolved for that set a default could be another dir."""
    installed_in(set_root, fresh)
    toml = f'[set]\nname = "other"\n[target]\nagent_dir = "{fresh}"\n'
    other = build_tree(tmp_path / "other", {"extset.toml": toml})

    done = ext(other, "uninstall", "--dry-run")

    assert done.stderr.splitlines()[1] == (
        f"this dir holds the set mine ({set_root}), not this one: "
        f"ext --set {set_root} --agent-dir {fresh} uninstall --dry-run"
    )


def test_undo_names_no_set_the_dir_holds(set_root: Path, fresh: Path, tmp_path: Path) -> None:
    """undo reverses the dir's last run whichever set it was for: no set of it is wrong."""
    installed_in(set_root, fresh)
    other = build_tree(tmp_path / "other", {"extset.toml": '[set]\nname = "other"\n'})
    done = ext(other, "--agent-dir", str(fresh), "undo", "--dry-run")
    assert "this dir holds" not in done.stderr


def test_doctor_s_command_for_the_other_dir_works_pasted(set_root: Path) -> None:
    """A dir under the home with a space: `~/'my agent'`, which a shell expands (the home
    shortened inside the quotes, `'~/my agent'`, names a folder called `~`)."""
    import os
    import subprocess

    agent = Path(os.environ["HOME"]) / "my agent"
    installed_in(set_root, agent)

    doctor = ext(set_root, "doctor").stdout
    fix = doctor.split("fix: check that dir: `", 1)[1].split("`", 1)[0]

    assert "--agent-dir ~/'my agent' doctor" in fix
    words = f'for w in {fix.removeprefix("ext ")}; do printf "%s\\n" "$w"; done'
    said = subprocess.run(["sh", "-c", words], capture_output=True, text=True, check=True)
    assert said.stdout.splitlines()[3] == str(agent)  # as the shell hands it to ext


@pytest.mark.parametrize("args", [["uninstall", "--yes"], ["disable", "hello"], ["list"]])
def test_a_mistyped_dir_points_to_the_dir_that_holds_the_set_not_to_an_install(
    set_root: Path, fresh: Path, tmp_path: Path, args: list[str]
) -> None:
    """Following an `install --create` fix for an uninstall would make a dir and install into
    it: a command that works on what is installed is pointed where the set is."""
    typo = tmp_path / "fresh-agnet"
    done = ext(set_root, "--agent-dir", str(typo), *args)
    assert done.exit_code == 4
    assert done.stderr.splitlines()[-1] == (
        "  fix: a dir that does not exist holds nothing: check its path (ext has installed this "
        "set in no other dir)"
    )

    installed_in(set_root, fresh)
    done = ext(set_root, "--agent-dir", str(typo), *args)

    assert done.exit_code == 4
    assert done.stderr.splitlines()[-1] == (
        f"  fix: check its path; the set is installed in {fresh}: "
        f"`ext --set {set_root} --agent-dir {fresh} {' '.join(args)}`"
    )
    assert not typo.exists()


@pytest.mark.parametrize("args", [["disable", "x", "--yes"], ["toggle", "--on", "x"]])
def test_a_command_naming_items_points_to_the_other_set_s_list(
    set_root: Path, fresh: Path, tmp_path: Path, args: list[str]
) -> None:
    """The items named are this set's: pasted for the set the dir holds, the command would
    fail (`no item named 'x'`); its list works and shows what that set has."""
    installed_in(set_root, fresh)
    other = build_tree(
        tmp_path / "other", {"extset.toml": '[set]\nname = "other"\n', "extensions/x.ts": ""}
    )

    done = ext(other, "--agent-dir", str(fresh), *args)

    said = f"this dir holds the set mine ({set_root}), not this one"
    assert f"{said}: ext --set {set_root} --agent-dir {fresh} list" in done.stderr.splitlines()


def test_the_uninstall_of_a_set_not_installed_here_has_nothing_to_count(
    set_root: Path, fresh: Path, tmp_path: Path
) -> None:
    """ext's own files here are another set's: `nothing to do: 2 unchanged` counted them."""
    installed_in(set_root, fresh)
    other = build_tree(tmp_path / "other", {"extset.toml": '[set]\nname = "other"\n'})

    done = ext(other, "--agent-dir", str(fresh), "uninstall", "--yes")

    assert done.exit_code == 0
    assert done.stdout == "nothing to do\n"


def test_add_s_next_step_installs_into_the_dir_that_holds_the_set(
    set_root: Path, fresh: Path
) -> None:
    """A trial: the set installed with --agent-dir ~/.pi/agent, `ext add foo` said `next: ext
    install`, which goes to the isolated dir. It names the one dir that holds the set."""
    installed_in(set_root, fresh)
    added = ext(set_root, "add", "foo", "--yes")
    assert added.exit_code == 0, added.output
    assert f" --set {set_root} --agent-dir {fresh} install   (installs it" in added.stderr
    assert ext(set_root, "install", "--yes").exit_code == 0  # now in the isolated dir too
    again = ext(set_root, "add", "bar", "--yes")
    assert f" --set {set_root} install   (installs it" in again.stderr  # ext install's own dir


def test_one_dir_reached_by_two_names_is_one_dir(set_root: Path, fresh: Path) -> None:
    """A trial: an install through a link to the same dir (`~/lnh/proj/agent`, a dotfiles
    link) added a second entry; another dir's run then named both and counted two."""
    installed_in(set_root, fresh)
    link = fresh.with_name("link-to-agent")
    link.symlink_to(fresh)
    again = ext(set_root, "--agent-dir", str(link), "install", "--yes")  # a no-op
    assert again.exit_code == 0 and "nothing to do" in again.stdout, again.output
    table = json.loads(record_path().read_text())["agent_dirs"]
    assert list(table) == [str(link)], table  # this run's name stands for the dir

    elsewhere = ext(set_root, "disable", "hello").stderr.splitlines()
    assert elsewhere[1] == (
        f"the set is not installed here but in {link}: "
        f"ext --set {set_root} --agent-dir {link} disable hello"
    ), elsewhere
    assert not any("more dir" in line for line in elsewhere), elsewhere


def test_a_dir_holding_the_set_from_before_its_folder_moved_is_not_called_elsewhere(
    set_root: Path, fresh: Path, tmp_path: Path
) -> None:
    """A trial: after the set's folder moved and was installed in a second dir, a list of the
    first said "the set is not installed here but in <second>" above its own stale items."""
    installed_in(set_root, fresh)
    moved = set_root.rename(tmp_path / "moved-set")
    installed_in(moved, tmp_path / "second")
    done = ext(moved, "--agent-dir", str(fresh), "list")
    assert done.exit_code == 0, done.output
    assert "not installed here" not in done.stderr, done.stderr
    assert "stale" in done.stdout and "older location of the set" in done.stdout, done.stdout


def test_toggle_without_a_terminal_names_its_own_options_first(set_root: Path, fresh: Path) -> None:
    installed_in(set_root, fresh)
    done = ext(set_root, "--agent-dir", str(fresh), "toggle")
    assert done.exit_code == 2
    assert "toggle --on NAME,NAME --off NAME --yes` (or `enable`/`disable NAME…`)" in done.stderr


def test_doctor_on_a_named_dir_that_does_not_exist_says_so_in_every_row(
    set_root: Path, tmp_path: Path
) -> None:
    """A trial: each row said "the agent dir is unknown"; it is known, and missing."""
    done = ext(set_root, "--agent-dir", str(tmp_path / "nope"), "--json", "doctor")
    rows = json.loads(done.stdout)["checks"]
    skipped = [r["message"] for r in rows if "agent dir" in r["message"] and r["id"] != "agent.dir"]
    assert skipped and all("does not exist (see agent.dir)" in m for m in skipped), skipped
    (tmp_path / "a-file").write_text("x\n")
    done = ext(set_root, "--agent-dir", str(tmp_path / "a-file"), "--json", "doctor")
    rows = json.loads(done.stdout)["checks"]
    assert any(r["message"].endswith("the agent dir is a file (see agent.dir)") for r in rows)


def test_uninstall_of_a_set_not_installed_here_says_so(set_root: Path, fresh: Path) -> None:
    """A trial: `nothing to do` alone, as if an uninstall had been done before."""
    fresh.mkdir()
    done = ext(set_root, "--agent-dir", str(fresh), "uninstall", "--yes")
    assert done.exit_code == 0
    assert "warning: the set is not installed in this agent dir: nothing to remove" in done.stderr
    installed_in(set_root, fresh)
    done = ext(set_root, "--agent-dir", str(fresh), "uninstall", "--yes")
    assert "not installed" not in done.stderr


def test_a_dry_run_of_create_says_the_dir_it_would_make(set_root: Path, fresh: Path) -> None:
    """A trial: `install --dry-run --create` showed no word of the dir the install makes."""
    done = ext(set_root, "--agent-dir", str(fresh), "install", "--create", "--dry-run")
    assert done.exit_code == 0, done.stderr
    assert done.stderr.splitlines()[:2] == [
        f"agent dir {fresh} (from --agent-dir)",
        "it does not exist yet: the install makes it (--create)",
    ]
    assert not fresh.exists()


def test_an_install_that_makes_its_dir_says_so_as_its_dry_run_does(
    set_root: Path, fresh: Path, tmp_path: Path
) -> None:
    """helper-89: `ext --host claude install --yes --create` into a missing dir made it with
    no word of that (its --dry-run says it); pi's install neither."""
    skill = "---\nname: tidy\ndescription: Tidy up.\n---\nTidy.\n"
    build_tree(set_root, {"skills/tidy/SKILL.md": skill})
    for host, dir in (("pi", fresh), ("claude", tmp_path / "claude" / "new")):
        done = ext(
            set_root, "--host", host, "--agent-dir", str(dir), "install", "--create", "--yes"
        )
        assert done.exit_code == 0, done.stderr
        assert "it does not exist yet: the install makes it (--create)" in done.stderr.splitlines()
        again = ext(
            set_root, "--host", host, "--agent-dir", str(dir), "install", "--create", "--yes"
        )
        assert "does not exist" not in again.stderr


def test_the_dir_create_makes_is_not_said_where_it_is_not_made_or_after_it_is(
    set_root: Path, tmp_path: Path
) -> None:
    """helper-91: a served install said "does not exist yet" on stderr twice for each agent,
    the second time below the dir it had just made (a served run heads each agent's plan and
    result with its dir instead); a usage error said the install makes a dir it never made."""
    build_tree(
        set_root, {"extset.toml": '[set]\nname = "mine"\n[hosts]\nserve = ["pi", "claude"]\n'}
    )
    build_tree(set_root, {"prompts/note.md": "---\ndescription: Note it\n---\nNote.\n"})
    home = tmp_path / "home"
    env = {**ENV, "HOME": str(home), "XDG_DATA_HOME": str(home / ".data")}
    env |= {"CLAUDE_CONFIG_DIR": str(home / "claude"), "PI_CODING_AGENT_DIR": str(home / "pi")}
    done = CliRunner().invoke(
        app, ["--set", str(set_root), "install", "--create", "--yes"], env=env
    )
    assert done.exit_code == 0, done.stderr
    makes = "it does not exist yet: the install makes it (--create)"
    assert makes not in done.stderr, done.stderr
    assert (home / "claude" / "commands").is_dir() and (home / "pi" / "prompts").is_dir()
    fresh = tmp_path / "pa"
    done = ext(set_root, "--agent-dir", str(fresh), "install", "--create", "--only", "nosuch")
    assert done.exit_code == 2 and makes not in done.stderr, done.stderr
    assert not fresh.exists()


def test_an_install_refused_before_its_plan_still_says_where_the_set_is(
    set_root: Path, fresh: Path, tmp_path: Path
) -> None:
    """A trial (helper-20): an install into the isolated dir, refused for a clash with
    another set there, said nothing of the dir the set is installed in; with --skip, it did."""
    installed_in(set_root, fresh)
    theirs = build_tree(tmp_path / "theirs", {**SET, "extset.toml": '[set]\nname = "theirs"\n'})
    assert ext(theirs, "install", "--yes").exit_code == 0  # into the isolated dir
    done = ext(set_root, "install", "--dry-run")
    assert done.exit_code == 3, done.stderr
    assert f"the set is installed in {fresh} too (give its own --only" in done.stderr


def test_the_install_offered_for_another_dir_brings_no_selection_or_mode_of_this_run(
    set_root: Path, fresh: Path, tmp_path: Path
) -> None:
    """A trial (helper-32): a deliberate install into a new dir offered, for the dir that
    holds the set, `install --only gamma` and `install --mode register`: pasted, they would
    unlink the rest there, or switch that install's mode."""
    installed_in(set_root, fresh)
    new = tmp_path / "new"
    done = ext(
        set_root,
        "--agent-dir",
        str(new),
        "install",
        "--only",
        "hello",
        "--mode",
        "register",
        "--create",
        "--dry-run",
    )
    assert done.exit_code == 0, done.output
    said = [line for line in done.stderr.splitlines() if "for that dir:" in line]
    assert said == [
        f"the set is installed in {fresh} too (give its own --only or --skip again, if its "
        f"install had any); for that dir: ext --set {set_root} --agent-dir {fresh} install"
    ]


def test_the_isolated_dir_named_by_pis_variable_is_said_as_that_variable_and_over_target(
    set_root: Path, tmp_path: Path
) -> None:
    """helper-62: after `eval "$(ext env)"`, a set whose `[target] agent_dir` names another dir
    was installed into the isolated one, said `(from isolated)`: nothing told why."""
    from installer.ground.userdirs import user_dir

    (set_root / "extset.toml").write_text(
        '[set]\nname = "mine"\n[target]\nagent_dir = "../target-agent"\n'
    )
    (tmp_path / "target-agent").mkdir()
    isolated = user_dir("data") / "agent"
    env = {**ENV, "PI_CODING_AGENT_DIR": str(isolated)}

    planned = CliRunner().invoke(app, ["--set", str(set_root), "install", "--dry-run"], env=env)
    listed = CliRunner().invoke(app, ["--set", str(set_root), "list"], env=env)
    unset = ext(set_root, "install", "--dry-run")

    said = (
        "(from PI_CODING_AGENT_DIR, which names ext's isolated dir; the set's [target] "
        "agent_dir is not used)"
    )
    assert said in planned.stderr, planned.output
    assert said.replace("(from ", "(") in listed.stdout, listed.output
    assert "(from [target] agent_dir)" in unset.stderr, unset.output


def test_a_set_installed_elsewhere_is_not_also_sent_to_list_another_set(
    set_root: Path, fresh: Path, tmp_path: Path
) -> None:
    """helper-62: `disable hello` from a set installed in another dir named that dir's command,
    then offered `list` of the set the resolved dir holds, which has no hello."""
    installed_in(set_root, fresh)
    theirs = build_tree(tmp_path / "theirs", {"extset.toml": '[set]\nname = "theirs"\n',
                                              "extensions/other.ts": ""})  # fmt: skip
    held = tmp_path / "held"
    installed_in(theirs, held)

    done = ext(set_root, "--agent-dir", str(held), "disable", "hello")

    assert f"the set is not installed here but in {fresh}: " in done.stderr
    assert str(theirs) not in done.stderr, done.stderr  # no command for the other set


def test_another_hosts_dir_source_says_nothing_of_pis_target(
    set_root: Path, tmp_path: Path
) -> None:
    """helper-67: `EXT_AGENT_DIR=… ext --host claude list` said the set's [target] agent_dir,
    pi's, was not used: it never applies to Claude Code."""
    (set_root / "extset.toml").write_text(
        '[set]\nname = "mine"\n[target]\nagent_dir = "../target-agent"\n'
    )
    claude = tmp_path / "claude-dir"
    claude.mkdir()
    env = {**ENV, "EXT_AGENT_DIR": str(claude)}

    listed = CliRunner().invoke(app, ["--set", str(set_root), "--host", "claude", "list"], env=env)

    assert "(EXT_AGENT_DIR)" in listed.stdout, listed.output
    assert "[target]" not in listed.output


def test_doctor_s_fix_for_items_placed_by_hand_works_from_a_folder_with_no_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """helper-78: with ext's bundled set taken (no set here), `ext adopt --all --dry-run`, the
    fix, exits 2: adopt takes nothing into ext's own set. The fix starts a set of one's own."""
    agent = build_tree(tmp_path / "agent", {"extensions/handmade.ts": "export default 1\n"})
    monkeypatch.chdir(build_tree(tmp_path / "elsewhere", {"notes.txt": ""}))
    done = CliRunner().invoke(
        app, ["--agent-dir", str(agent), "--json", "doctor", "--check", "items.by-hand"], env=ENV
    )
    (row,) = json.loads(done.stdout)["checks"]
    assert row["fix"] == (
        f"ext init ~/my-pi-set && ext --set ~/my-pi-set adopt --all --from {agent} --dry-run"
    )


def test_doctor_from_a_folder_with_no_set_says_the_bundled_set_is_this_one(
    set_root: Path, fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """helper-80: doctor's agent.dir and items rows still said "not this one" of it."""
    installed_in(set_root, fresh)
    monkeypatch.chdir(build_tree(tmp_path / "elsewhere", {"notes.txt": ""}))
    done = CliRunner().invoke(app, ["--agent-dir", str(fresh), "--json", "doctor"], env=ENV)
    rows = {(r["id"], r["message"]) for r in json.loads(done.stdout)["checks"]}
    bundled = "not ext's bundled set, taken as no set is in or above this folder"
    assert ("agent.dir", f"this dir holds the set mine ({set_root}), {bundled}") in rows
    assert any(i == "items" and f"(this dir holds the set mine, {bundled}" in m for i, m in rows)


def test_a_set_installed_nowhere_is_told_how_to_install_even_into_an_empty_dir(
    fresh: Path, tmp_path: Path
) -> None:
    """helper-84: the hint came only when the dir held another set; a set just made, listed
    against an empty dir, got none."""
    fresh.mkdir(exist_ok=True)
    other = build_tree(tmp_path / "other", {"extset.toml": '[set]\nname = "other"\n'})
    listed = ext(other, "--agent-dir", str(fresh), "list")
    assert listed.stderr.splitlines() == [
        f"this set is installed in no pi agent dir yet; to put it here: ext --set {other} "
        f"--agent-dir {fresh} install",
    ]
    doctor = ext(other, "--agent-dir", str(fresh), "doctor")
    assert "this set is installed in no pi agent dir yet" in doctor.stdout


def test_a_manifest_s_agent_dir_above_the_set_is_said_without_its_dot_dots(
    set_root: Path, tmp_path: Path
) -> None:
    """helper-87: `[hosts.claude] agent_dir = "../cl"` was said `<set>/../cl` ([target]
    agent_dir was said without its `..` already)."""
    (set_root / "extset.toml").write_text(
        '[set]\nname = "mine"\n[target]\nagent_dir = "../pi"\n[hosts.claude]\nagent_dir = "../cl"\n'
    )
    (tmp_path / "pi").mkdir()
    (tmp_path / "cl").mkdir()
    for host, folder in (("pi", "pi"), ("claude", "cl")):
        listed = CliRunner().invoke(app, ["--set", str(set_root), "--host", host, "list"], env=ENV)
        assert listed.exit_code == 0, listed.output
        assert str(tmp_path / folder) in listed.output, listed.output
        assert ".." not in listed.output, listed.output


def test_the_install_a_new_set_is_told_makes_the_isolated_dir_it_names(tmp_path: Path) -> None:
    """helper-89: on a fresh HOME, `ext list` said `to put it here: ext --agent-dir <the
    isolated dir> install`, which is refused (it does not exist yet), where `ext install`
    makes it."""
    other = build_tree(tmp_path / "other", {"extset.toml": '[set]\nname = "other"\n'})
    listed = ext(other, "list")
    hint = (
        f"this set is installed in no pi agent dir yet; to put it here: ext --set {other} install"
    )
    assert hint in listed.stderr.splitlines(), listed.output
    assert ext(other, "install", "--yes").exit_code == 0  # the hint, run
