"""`ext --install-completion` writes the shell's script to a file ext owns and sources it
from the start-up file with one line, added once (typer's convention); it never writes
through a link nor over a file it did not write, and a second run writes nothing.
`--show-completion` prints the script; a shell it cannot tell is an error with a fix."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from installer.cli.app import main
from installer.ground.completion_files import MARK

BASH_LINE = (
    "[ -f ~/.bash_completions/ext.sh ] && . ~/.bash_completions/ext.sh  # ext --install-completion"
)
ZSH_LINE = "[[ -f ~/.zfunc/_ext ]] && source ~/.zfunc/_ext  # ext --install-completion"
# shell, $SHELL, the script (under the home), the start-up file, its line, what click's has
SHELLS = [
    ("bash", "/bin/bash", ".bash_completions/ext.sh", ".bashrc", BASH_LINE, "bash_complete"),
    ("zsh", "/usr/bin/zsh", ".zfunc/_ext", ".zshrc", ZSH_LINE, "zsh_complete"),
    (
        "fish",
        "/usr/local/bin/fish",
        ".config/fish/completions/ext.fish",
        None,
        None,
        "fish_complete",
    ),
]
WITH_RC = [s for s in SHELLS if s[3] is not None]


Run = Callable[..., tuple[int, str]]


@pytest.fixture
def run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Run:
    """ext's way in (installer.cli.app.main) with $SHELL: (exit code, what it printed)."""

    def go(args: list[str], shell: str, env: dict[str, str] | None = None) -> tuple[int, str]:
        for name, value in {"SHELL": shell, **(env or {})}.items():
            monkeypatch.setenv(name, value)
        monkeypatch.setattr(sys, "argv", ["ext", *args])
        with pytest.raises(SystemExit) as done:
            main()
        said = capsys.readouterr()
        code = done.value.code
        return (code if isinstance(code, int) else 0), said.out + said.err

    return go


def tree(home: Path) -> dict[str, str]:
    """Every file under home (links as `-> target`), to show what a run wrote."""
    out = {}
    for path in sorted(home.rglob("*")):
        rel = path.relative_to(home).as_posix()
        if path.is_symlink():
            out[rel] = f"-> {os.readlink(path)}"
        elif path.is_file():
            out[rel] = path.read_text()
    return out


@pytest.mark.parametrize(("shell", "path", "script", "rc", "line", "mode"), SHELLS)
def test_install_writes_its_own_script_and_one_line_and_says_so(
    run: Run,
    isolated_home: Path,
    shell: str,
    path: str,
    script: str,
    rc: str | None,
    line: str | None,
    mode: str,
) -> None:
    code, out = run(["--install-completion"], path)
    assert code == 0, out
    written = isolated_home / script
    expected = [f"wrote ~/{script}"]  # paths under the home are said as ~, as ext says them
    if rc is not None:
        expected.append(f"added to ~/{rc}: {line}")
        undo = f"delete ~/{script} (the line in ~/{rc} then does nothing)"
    else:
        undo = f"delete ~/{script}"
    expected.append(f"{shell} completion works in a new shell; to remove it, {undo}")
    assert out.splitlines() == expected

    text = written.read_text()
    assert MARK in text and f"_EXT_COMPLETE={mode}" in text
    assert list(tree(isolated_home)) == sorted([script, *([rc] if rc else [])])
    if rc is not None:
        assert (isolated_home / rc).read_text() == f"{line}\n"


@pytest.mark.parametrize(("shell", "path", "script", "rc", "line", "mode"), SHELLS)
def test_a_second_run_writes_nothing(
    run: Run,
    isolated_home: Path,
    shell: str,
    path: str,
    script: str,
    rc: str | None,
    line: str | None,
    mode: str,
) -> None:
    run(["--install-completion"], path)
    before = tree(isolated_home)
    stamps = {p: p.stat().st_mtime_ns for p in isolated_home.rglob("*")}

    code, out = run(["--install-completion"], path)
    assert code == 0, out
    loaded = f", loaded from ~/{rc}" if rc else ""
    assert out.splitlines() == [
        f"{shell} completion is installed already: ~/{script}{loaded}; nothing written"
    ]
    assert tree(isolated_home) == before
    assert {p: p.stat().st_mtime_ns for p in isolated_home.rglob("*")} == stamps


@pytest.mark.parametrize(("shell", "path", "script", "rc", "line", "mode"), WITH_RC)
def test_the_users_start_up_file_keeps_its_bytes_and_gets_the_line_once(
    run: Run, isolated_home: Path, shell: str, path: str, script: str, rc: str, line: str, mode: str
) -> None:
    (isolated_home / rc).write_text("export EDITOR=vi")  # the user's own, no final newline
    run(["--install-completion"], path)
    assert (isolated_home / rc).read_text() == f"export EDITOR=vi\n{line}\n"

    # An older ext's script is rewritten whole; the line is not added again.
    (isolated_home / script).write_text(MARK + "old\n")
    code, out = run(["--install-completion"], path)
    assert code == 0, out
    assert out.splitlines()[0] == f"updated ~/{script}"
    assert "old" not in (isolated_home / script).read_text()
    assert (isolated_home / rc).read_text() == f"export EDITOR=vi\n{line}\n"


def test_fish_rewrites_its_file_never_appends(run: Run, isolated_home: Path) -> None:
    run(["--install-completion"], "/usr/bin/fish")
    target = isolated_home / ".config/fish/completions/ext.fish"
    first = target.read_text()
    target.write_text(MARK + "older\n")
    run(["--install-completion"], "/usr/bin/fish")
    assert target.read_text() == first


def test_fish_follows_xdg_config_home_and_zsh_zdotdir(
    run: Run, isolated_home: Path, tmp_path: Path
) -> None:
    config, zdot = tmp_path / "conf", tmp_path / "zdot"
    run(["--install-completion"], "/usr/bin/fish", {"XDG_CONFIG_HOME": str(config)})
    assert (config / "fish/completions/ext.fish").is_file()
    zdot.mkdir()
    run(["--install-completion"], "/bin/zsh", {"ZDOTDIR": str(zdot)})
    assert (zdot / ".zshrc").read_text() == f"{ZSH_LINE}\n"
    assert not (isolated_home / ".zshrc").exists()


def test_a_zdotdir_that_is_not_there_is_named_with_the_fix_to_make_it(
    run: Run, isolated_home: Path
) -> None:
    code, out = run(["--install-completion"], "/bin/zsh", {"ZDOTDIR": str(isolated_home / "zd")})
    assert code == 1
    assert out.splitlines() == [
        "error: cannot write ~/zd/.zshrc: No such file or directory",
        "  fix: make the folder first (mkdir -p ~/zd), or point the shell elsewhere",
    ]
    assert not (isolated_home / "zd").exists()


@pytest.mark.parametrize(("shell", "path", "script", "rc", "line", "mode"), WITH_RC)
def test_a_start_up_file_that_is_a_link_is_not_written_through(
    run: Run,
    isolated_home: Path,
    tmp_path: Path,
    shell: str,
    path: str,
    script: str,
    rc: str,
    line: str,
    mode: str,
) -> None:
    """A dotfiles manager's link: ext writes nothing, and names the line to add by hand."""
    dotfile = tmp_path / "dotfiles" / rc
    dotfile.parent.mkdir()
    dotfile.write_text("# mine\n")
    (isolated_home / rc).symlink_to(dotfile)

    code, out = run(["--install-completion"], path)
    assert code == 1
    assert f"error: ~/{rc} is a symlink or not a file" in out  # shortened, as every error
    assert f"again: {line}" in out
    assert dotfile.read_text() == "# mine\n"
    assert list(tree(isolated_home)) == [rc]

    # With the line added by hand, the run writes the script and leaves the link alone.
    dotfile.write_text(f"# mine\n{line}\n")
    code, out = run(["--install-completion"], path)
    assert code == 0, out
    assert out.splitlines()[0] == f"wrote ~/{script}"
    assert dotfile.read_text() == f"# mine\n{line}\n"


@pytest.mark.parametrize(("shell", "path", "script", "rc", "line", "mode"), SHELLS)
def test_a_link_or_a_stranger_at_the_script_is_refused(
    run: Run,
    isolated_home: Path,
    tmp_path: Path,
    shell: str,
    path: str,
    script: str,
    rc: str | None,
    line: str | None,
    mode: str,
) -> None:
    target = tmp_path / "elsewhere"
    target.write_text("not ext's\n")
    at = isolated_home / script
    at.parent.mkdir(parents=True)
    at.symlink_to(target)
    code, out = run(["--install-completion"], path)
    assert code == 1 and f"error: ~/{script} is a symlink" in out  # shortened, as every error
    assert target.read_text() == "not ext's\n"

    at.unlink()
    at.write_text("# the user's own completion\n")
    code, out = run(["--install-completion"], path)
    assert code == 1 and f"~/{script} is there and ext did not write it" in out
    assert at.read_text() == "# the user's own completion\n"
    assert list(tree(isolated_home)) == [script]  # no line added either


def test_show_completion_prints_the_script_and_writes_nothing(
    run: Run, isolated_home: Path
) -> None:
    code, out = run(["--show-completion"], "/bin/bash")
    assert code == 0
    assert "_EXT_COMPLETE=bash_complete" in out and "complete -o nosort -F _ext_completion" in out
    assert list(isolated_home.iterdir()) == []


def test_a_shell_it_cannot_tell_is_an_error_with_the_fix(
    isolated_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SHELL", "/bin/tcsh")
    monkeypatch.setattr(sys, "argv", ["ext", "--install-completion"])
    with pytest.raises(SystemExit) as done:
        main()
    assert done.value.code == 2
    assert capsys.readouterr().err.splitlines() == [
        "error: cannot tell which shell to complete for: SHELL is 'tcsh'",
        "  fix: put the line for your shell in its start-up file (see the README's Shell "
        "completion)",
    ]
    assert list(isolated_home.iterdir()) == []
