"""`ext --install-completion` puts completion in the start-up file of the shell ext runs in,
once; `--show-completion` prints the script; a shell it cannot tell is an error with a fix."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from installer.cli.app import app, main


def run(args: list[str], shell: str) -> tuple[int, str]:
    done = CliRunner().invoke(app, args, env={"SHELL": shell})
    return done.exit_code, done.output


@pytest.mark.parametrize(
    ("shell", "startup", "line"),
    [
        ("/bin/bash", ".bashrc", 'eval "$(_EXT_COMPLETE=bash_source ext)"'),
        ("/usr/bin/zsh", ".zshrc", 'eval "$(_EXT_COMPLETE=zsh_source ext)"'),
        ("/usr/local/bin/fish", ".config/fish/completions/ext.fish", "_EXT_COMPLETE=fish_complete"),
    ],
)
def test_install_completion_adds_it_once(
    isolated_home: Path, shell: str, startup: str, line: str
) -> None:
    rc = isolated_home / startup
    if startup == ".bashrc":
        rc.write_text("export EDITOR=vi")  # the user's own, without a final newline
    code, out = run(["--install-completion"], shell)
    assert code == 0, out
    assert f"completion added to {rc}" in out
    text = rc.read_text()
    assert text.count(line) == 1
    if startup == ".bashrc":
        assert text.startswith("export EDITOR=vi\n")

    code, out = run(["--install-completion"], shell)
    assert code == 0 and "already in" in out
    assert rc.read_text() == text


def test_show_completion_prints_the_script_and_writes_nothing(isolated_home: Path) -> None:
    code, out = run(["--show-completion"], "/bin/bash")
    assert code == 0
    assert "_EXT_COMPLETE=bash_complete" in out and "complete -o nosort -F _ext_completion" in out
    assert not (isolated_home / ".bashrc").exists()


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
