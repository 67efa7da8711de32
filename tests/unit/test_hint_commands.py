"""Hints name ext as the person can run it: `ext COMMAND` in a fix or a note becomes ext as
run (`.venv/bin/ext install`) when PATH finds no ext, and stays `ext` when it does."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from installer.cli import run


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
        monkeypatch.setattr(run, "_TYPED", [])
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
    monkeypatch.setattr(run, "_TYPED", [])
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
