"""Hints name ext as the person can run it: `ext COMMAND` in a fix or a note becomes ext as
run (`.venv/bin/ext install`) when PATH finds no ext, and stays `ext` when it does."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from installer.cli import run


@pytest.fixture(autouse=True)
def fresh_ext_name() -> Iterator[None]:
    """ext as run is worked out once per process: each test sets up its own."""
    run._ext_commands.cache_clear()
    yield
    run._ext_commands.cache_clear()


@pytest.fixture
def ran_as(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    def ran_as(on_path: bool) -> Path:
        bin_dir = tmp_path / "venv" / "bin"
        bin_dir.mkdir(parents=True, exist_ok=True)
        ext = bin_dir / "ext"
        ext.write_text("#!/bin/sh\n")
        ext.chmod(0o755)
        monkeypatch.setattr(sys, "argv", [str(ext), "doctor"])
        monkeypatch.setenv("PATH", str(bin_dir) if on_path else str(tmp_path / "empty"))
        return ext

    return ran_as


def test_off_path_each_command_of_ext_is_named_as_run(ran_as) -> None:  # type: ignore[no-untyped-def]
    ext = ran_as(on_path=False)
    assert run.ext_as_run("fix: run `ext install` with the ext you use now") == (
        f"fix: run `{ext} install` with the ext you use now"
    )
    assert run.ext_as_run('eval "$(ext env)"') == f'eval "$({ext} env)"'
    assert (
        run.ext_as_run("ext --agent-dir ~/a install --create")
        == f"{ext} --agent-dir ~/a install --create"
    )


@pytest.mark.parametrize(
    "prose",
    [
        "/ext is in pi, but no ext is recorded for it",
        "the ext that installed it is gone",
        "extensions/ext-command.ts (ext's /ext command)",
        "ext's record of this set",
        "~/.venv/bin/ext install",  # already a path
    ],
)
def test_prose_and_paths_are_left_as_they_are(ran_as, prose: str) -> None:  # type: ignore[no-untyped-def]
    ran_as(on_path=False)
    assert run.ext_as_run(prose) == prose


def test_on_path_the_word_stays(ran_as) -> None:  # type: ignore[no-untyped-def]
    ran_as(on_path=True)
    assert run.ext_as_run("fix: ext install") == "fix: ext install"


def test_a_run_not_as_ext_leaves_the_word(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", ["/usr/bin/pytest"])
    assert run.ext_as_run("fix: ext install") == "fix: ext install"


def test_the_dir_and_set_given_go_into_each_command_that_does_not_name_its_own(
    ran_as,  # type: ignore[no-untyped-def]
) -> None:
    """Pasted, a fix works on the dir the run was given, not on the isolated default."""
    ran_as(on_path=True)
    given = (("--set", "/s"), ("--agent-dir", "/a b"))
    assert run.ext_as_run("fix: run `ext install`", given) == (
        "fix: run `ext --set /s --agent-dir '/a b' install`"
    )
    elsewhere = "not installed here but in /c: ext --set /s --agent-dir /c disable x"
    assert run.ext_as_run(elsewhere, given) == elsewhere  # its own dir is named: kept
    assert run.ext_as_run('eval "$(ext env)" (then pi)', given) == (
        "eval \"$(ext --set /s --agent-dir '/a b' env)\" (then pi)"
    )


def test_a_given_folder_under_the_home_keeps_its_tilde_outside_the_quotes(
    ran_as,  # type: ignore[no-untyped-def]
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    """`~/'my set'`, which a shell expands; the renderer shortened `'/home/me/my set'` to
    `'~/my set'`, which names a folder called `~`."""
    ran_as(on_path=True)
    monkeypatch.setenv("HOME", str(tmp_path))
    given = (("--set", f"{tmp_path}/my set"), ("--agent-dir", "/a b"))
    assert run.ext_as_run('eval "$(ext env)"', given) == (
        "eval \"$(ext --set ~/'my set' --agent-dir '/a b' env)\""
    )


GIVEN = (("--set", "/s"), ("--agent-dir", "/a"), ("--host", "codex"))
SET_AND_DIR = GIVEN[:2]


@pytest.mark.parametrize(
    ("hint", "given", "expected"),
    [
        # a command for another host names its own place: only the set goes in
        (
            "run `ext --host opencode --agent-dir ~/.config/opencode install` after this",
            GIVEN,
            "run `ext --set /s --host opencode --agent-dir ~/.config/opencode install` after this",
        ),
        # this run's own host, named: its dir goes in (helper-88: off to the default dir)
        (
            "fix: ext --host codex install",
            GIVEN,
            "fix: ext --set /s --agent-dir /a --host codex install",
        ),
        # another host, named without a dir: its default, not this run's dir
        ("fix: ext --host=claude install", GIVEN, "fix: ext --set /s --host=claude install"),
        # adopt's --from names the dir it reads: no --agent-dir beside it (a usage error)
        (
            "next: ext adopt --all --from ~/.pi/agent",
            GIVEN,
            "next: ext --set /s adopt --all --from ~/.pi/agent",
        ),
        # a `cd` picks the set: no --set after it
        (
            "next: cd ~/sets/new && ext install",
            GIVEN,
            "next: cd ~/sets/new && ext --agent-dir /a --host codex install",
        ),
        ("fix: ext --agent-dir=/b install", GIVEN, "fix: ext --set /s --agent-dir=/b install"),
        # init makes a set: no --set for it
        (
            "fix: create one with `ext init ~/s`",
            GIVEN,
            "fix: create one with `ext --agent-dir /a --host codex init ~/s`",
        ),
        # `cd` inside a word is no cd: the set goes in
        (
            "agent dir ~/src/abcd (from --agent-dir): fix: ext install",
            SET_AND_DIR,
            "agent dir ~/src/abcd (from --agent-dir): fix: ext --set /s --agent-dir /a install",
        ),
        # each command of a list is judged alone: the second's --agent-dir is its own
        (
            "fix: ext install, or ext --agent-dir ~/other list",
            SET_AND_DIR,
            "fix: ext --set /s --agent-dir /a install, or ext --set /s --agent-dir ~/other list",
        ),
        (
            "fix: ext install && ext --agent-dir ~/b list",
            SET_AND_DIR,
            "fix: ext --set /s --agent-dir /a install && ext --set /s --agent-dir ~/b list",
        ),
    ],
)
def test_each_command_of_a_hint_gets_what_it_does_not_name_for_itself(
    ran_as,  # type: ignore[no-untyped-def]
    hint: str,
    given: tuple[tuple[str, str], ...],
    expected: str,
) -> None:
    ran_as(on_path=True)
    assert run.ext_as_run(hint, given) == expected


def test_a_relative_ext_after_a_cd_is_named_by_its_absolute_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", [".venv/bin/ext", "init"])
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    said = run.ext_as_run("next: cd new && ext install; or ext list")
    assert (
        said
        == f"next: cd new && {tmp_path}/.venv/bin/ext install; or {tmp_path}/.venv/bin/ext list"
    )


def test_a_tilde_the_shell_left_is_expanded_as_ext_expands_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--agent-dir=~/a` reaches ext unexpanded; ext works on ~/a, and so does the hint."""
    from installer.cli.options import Globals

    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path / "..")
    given = run._given(Globals(agent_dir=Path("~/a")))
    assert given == (("--agent-dir", f"{tmp_path}/a"),)


def test_a_path_under_the_home_keeps_its_tilde_outside_the_quotes(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`~/'my agent'`, as the shell expands it and as ext's other lines write it; never
    `'~/my agent'`, which only ext expands."""
    from installer.ground.shellword import shell_word as word

    monkeypatch.setenv("HOME", str(tmp_path))
    assert word(tmp_path / "my agent") == "~/'my agent'"
    assert word(tmp_path / "plain") == "~/plain"
    assert word(Path("/elsewhere/my agent")) == "'/elsewhere/my agent'"
    assert word(Path("~/.claude/skills/.off/my skill")) == "~/'.claude/skills/.off/my skill'"
    assert word("~/shown") == "~/shown"  # a path ext shortened already


@pytest.mark.parametrize(
    "name",
    [
        "new\nline",
        "tab\there",
        "it's \\ back",
        "bad\udcffbyte",
        "c1\x85",
        "del\x7f",
        "agënt 日本",
        "bidi\u202edir",  # helper-38: U+202E stayed in quotes, shown as six characters
        "zero\u200bwidth\ufeff",
        "tag\U000e0041",
    ],
)
def test_a_path_with_a_control_character_or_a_raw_byte_pastes_as_itself(name: str) -> None:
    """A hint's path in single quotes showed a newline as `\\n` (the screen's escape), which
    the shell took as two characters: pasted, the command named another dir (exit 4)."""
    import os
    import subprocess

    from installer.ground.shellword import shell_word

    path = Path("/tmp/x") / name
    for word in (shell_word(path, home=""), shell_word(path, home="/tmp")):  # `~/…` too
        assert word.isprintable(), word  # what the screen shows is what the shell reads
        for locale in ("C.UTF-8", "C"):  # helper-43: `$'\u200b'` is six characters under C
            said = subprocess.run(
                ["bash", "-c", f"printf %s {word}"],
                capture_output=True,
                check=True,
                env={"HOME": "/tmp", "LC_ALL": locale},
            ).stdout
            assert said == os.fsencode(path), (word, locale, said)


def test_a_usage_errors_fix_names_ext_as_run(  # type: ignore[no-untyped-def]
    ran_as, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """helper-72: `.venv/bin/ext --yes install` said `fix: ext install --yes`, which pasted
    off PATH is "command not found"; the errors of the parser go through the same rewriting
    as every other fix."""
    from installer.cli import app

    ext = ran_as(on_path=False)
    monkeypatch.setattr(sys, "argv", [str(ext), "--yes", "install"])
    with pytest.raises(SystemExit) as done:
        app.main()
    assert done.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == f"  fix: {ext} install --yes"


def test_a_hint_naming_the_host_ext_host_chose_keeps_this_run_s_dir(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """helper-90: with EXT_HOST=claude and --agent-dir, `ext --host claude install` went to
    Claude Code's default dir: the run's host was read from --host alone."""
    monkeypatch.setenv("EXT_HOST", "claude")
    given = (("--agent-dir", "/cl"),)
    assert run.ext_as_run("fix: ext --host claude install", given) == (
        "fix: ext --agent-dir /cl --host claude install"
    )
    assert run.ext_as_run("fix: ext --host codex install", given) == "fix: ext --host codex install"
