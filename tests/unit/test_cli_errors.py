"""Every error the command-line parser raises is printed in ext's style, with exit 2."""

from __future__ import annotations

import sys

import pytest

from installer import cli


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    old = sys.argv
    sys.argv = ["ext", *argv]
    try:
        with pytest.raises(SystemExit) as done:
            cli.main()
    finally:
        sys.argv = old
    out = capsys.readouterr()
    code = done.value.code
    return (code if isinstance(code, int) else 0), out.out, out.err


@pytest.mark.parametrize(
    ("argv", "message", "fix"),
    [
        (["install", "--nope"], "error: ext install: no such option: --nope", "  fix: "),
        (["instal"], "error: ext: no such command 'instal'", "  fix: did you mean 'install'"),
        (["list", "extra"], "error: ext list: got unexpected extra", "  fix: see `ext list"),
        (["doctor", "--check"], "error: ", "  fix: see `ext"),
        (["consent", "approve", "--bogus"], "error: ext consent approve: no such option", "  fix:"),
        (["install", "--mode", "registr", "--dry-run", "--help-me"], "error: ", "  fix: "),
    ],
)
def test_parser_errors_are_ext_errors_with_a_fix_and_exit_2(
    argv: list[str], message: str, fix: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(argv, capsys)
    lines = err.splitlines()
    assert code == 2
    assert out == ""
    assert len(lines) == 2, err
    assert lines[0].startswith(message) and lines[1].startswith(fix)
    assert "Usage:" not in err and "Error:" not in err


def test_a_bad_mode_gets_the_closest_match(
    capsys: pytest.CaptureFixture[str], tmp_path: object
) -> None:
    code, _, err = run(["install", "--mode", "registr", "--dry-run", "--no-color"], capsys)
    assert code == 2
    assert err.splitlines() == [
        "error: unknown mode 'registr'",
        "  fix: did you mean 'register'? use --mode link or --mode register",
    ]


def test_help_still_prints_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["install", "--help"], capsys)
    assert code == 0 and "--dry-run" in out
