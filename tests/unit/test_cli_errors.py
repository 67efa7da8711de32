"""Every error the command-line parser raises is printed in ext's style, with exit 2."""

from __future__ import annotations

import sys

import pytest

from installer.cli import app as cli


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
        (["instal"], "error: ext: no such command 'instal'", "  fix: ext install"),
        (["list", "extra"], "error: ext list: got unexpected extra", "  fix: see `ext list"),
        # helper-90: names of a list given apart, as words: joined by commas in the fix
        (
            ["toggle", "--on", "a", "b", "--off", "c", "--yes"],
            "error: ext toggle: got unexpected extra argument (b)",
            "  fix: did you mean `ext toggle --on a,b --off c --yes`?",
        ),
        (["doctor", "--check"], "error: ", "  fix: see `ext"),
        (["consent", "approve", "--bogus"], "error: ext consent approve: no such option", "  fix:"),
        # click raises this one without a context: the command still comes from argv
        (
            ["toggle", "--on"],
            "error: ext toggle: option '--on' requires an argument",
            "  fix: see `ext toggle --help`",
        ),
        (
            ["--no-color", "install", "--only"],
            "error: ext install: option",
            "  fix: see `ext install",
        ),
        (["install", "--mode", "registr", "--dry-run", "--help-me"], "error: ", "  fix: "),
        # a global option that ends argv: no command to name
        (["--agent-dir"], "error: ext: option '--agent-dir' requires an argument", "  fix: see"),
        (["--no-color", "--set"], "error: ext: option '--set' requires an argument", "  fix: see"),
        # the same after the command, where global options may stand too
        (
            ["list", "--agent-dir"],
            "error: ext: option '--agent-dir' requires an argument",
            "  fix:",
        ),
        (
            ["install", "--yes", "--set"],
            "error: ext: option '--set' requires an argument",
            "  fix:",
        ),
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


@pytest.mark.parametrize("argv", [[], ["consent"]])
def test_no_command_prints_the_help_on_stdout_and_exits_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(argv, capsys)
    _, help_out, _ = run([*argv, "--help"], capsys)

    assert code == 2
    assert err == ""
    assert out == help_out


def test_the_agent_dir_help_names_every_source_in_order(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, out, _ = run(["--help"], capsys)
    text = " ".join(out.split())
    assert "(else EXT_AGENT_DIR, PI_CODING_AGENT_DIR, manifest, isolated)" in text


def test_a_group_with_no_command_under_json_is_one_error_document(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import json

    code, out, _ = run(["--json", "consent"], capsys)
    data = json.loads(out)
    assert code == 2 and data["exit_code"] == 2
    assert data["error"] == "ext consent: no command given"
    assert data["fix"] == "see `ext consent --help`"


def test_a_parser_error_under_json_is_the_document_every_ext_error_is(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import json

    _, parser_out, _ = run(["--json", "install", "--nope"], capsys)
    _, ext_out, _ = run(["--json", "install", "--mode", "registr"], capsys)  # ext's own error

    parser, ours = json.loads(parser_out), json.loads(ext_out)
    assert list(parser) == list(ours) == ["error", "exit_code", "fix"]
    assert parser_out.startswith('{\n  "error": ') and ext_out.startswith('{\n  "error": ')


def test_json_after_the_double_dash_is_a_word_not_the_global_option(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Whether an error is JSON comes from the parsed globals, not from "--json" anywhere."""
    code, out, err = run(["list", "--", "--json", "--no-color"], capsys)
    assert code == 2 and out == ""
    assert err.startswith("error: ext list: got unexpected extra arguments")


def test_version_under_json_follows_the_args_the_app_was_given(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The click app's own arguments, not the process's sys.argv, say --json."""
    import json

    from click.testing import CliRunner

    monkeypatch.setattr(sys, "argv", ["ext", "--version"])
    done = CliRunner().invoke(cli.app, ["--version", "--json"])
    assert done.exit_code == 0
    assert list(json.loads(done.stdout)) == ["ext", "host"]

    monkeypatch.setattr(sys, "argv", ["ext", "--version", "--json"])
    done = CliRunner().invoke(cli.app, ["--version"])
    assert done.stdout.startswith("ext ")


@pytest.mark.parametrize(
    ("argv", "usage"),
    [
        (["enable", "--help"], "Usage: ext enable [OPTIONS] NAME..."),  # one or more
        (["adopt", "--help"], "Usage: ext adopt [OPTIONS] [NAMES]..."),  # none or more
        (["consent", "approve", "--help"], "Usage: ext consent approve [OPTIONS] [DIR]"),
        (["add", "--help"], "Usage: ext add [OPTIONS] NAME"),  # exactly one
    ],
)
def test_usage_lines_say_how_many_arguments_a_command_takes(
    argv: list[str], usage: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(argv, capsys)
    assert code == 0 and out.splitlines()[0] == usage


@pytest.mark.parametrize(
    ("argv", "lines"),
    [
        (
            ["--set", "S", "--agent-dir", "A", "--create", "install"],
            [
                "error: ext: --create is an option of `ext install`: it goes after `install`",
                "  fix: ext --set S --agent-dir A install --create",
            ],
        ),
        (
            ["--mode=register", "install", "--yes"],
            [
                "error: ext: --mode is an option of `ext install`: it goes after `install`",
                "  fix: ext install --mode=register --yes",
            ],
        ),
        (
            ["--from", "/h/my agent", "adopt", "--all"],
            [
                "error: ext: --from is an option of `ext adopt`: it goes after `adopt`",
                "  fix: ext adopt --from '/h/my agent' --all",
            ],
        ),
        (
            ["list", "--create"],
            [
                "error: ext list: no such option: --create (an option of `ext install`)",
                "  fix: ext list",
            ],
        ),
        (  # helper-72: "fix: it is an option of `ext install` or …" was no fix
            ["--agent-dir", "/a", "doctor", "--dry-run", "--check=items"],
            [
                "error: ext doctor: no such option: --dry-run (an option of `ext install` or "
                "`ext uninstall` or `ext enable` and others)",
                "  fix: ext --agent-dir /a doctor --check=items",
            ],
        ),
    ],
)
def test_an_option_of_another_command_names_the_command_that_owns_it(
    argv: list[str], lines: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(argv, capsys)
    assert code == 2
    assert err.splitlines() == lines


@pytest.mark.parametrize(
    ("argv", "typed", "meant", "fixed"),
    [
        # a value of --agent-dir that is the typo names a folder: kept (helper-74)
        (
            ["--agent-dir=notfy", "disable", "notfy"],
            "notfy",
            "notify",
            "ext --agent-dir=notfy disable notify",
        ),
        (
            ["--agent-dir", "notfy", "disable", "notfy"],
            "notfy",
            "notify",
            "ext --agent-dir notfy disable notify",
        ),
        # every place the name is given, --only's as well as --skip's
        (
            ["install", "--skip=notfy", "--only", "a,notfy"],
            "notfy",
            "notify",
            "ext install --skip=notify --only a,notify",
        ),
        # a word after `--` is the host's
        (["launch", "--", "notfy"], "notfy", "notify", None),
        # the name meant is a set's: one quoted word, whatever it holds
        (
            ["install", "--skip", "a,notfy"],
            "notfy",
            "n $(touch PWNED)",
            "ext install --skip 'a,n $(touch PWNED)'",
        ),
        # one word to paste, a newline written as the shell reads it back
        (
            ["--agent-dir", "/tmp/a\nb", "instal"],
            "instal",
            "install",
            "ext --agent-dir $'/tmp/a\\nb' install",
        ),
    ],
)
def test_a_corrected_line_changes_only_what_was_mistyped(
    argv: list[str], typed: str, meant: str, fixed: str | None
) -> None:
    from installer.cli.errors import corrected

    assert corrected(argv, typed, meant) == fixed


@pytest.mark.parametrize(
    ("argv", "fix"),
    [
        # without --dry-run, a preview of a command that writes would write (helper-74)
        (["consent", "revoke", "--dry-run", "--yes"], "see `ext consent revoke --help`"),
        # a flag where another command takes a value: the next option is not its value
        (["history", "--check", "--quiet"], "ext --quiet history"),
    ],
)
def test_the_line_without_an_option_never_drops_a_dry_run_or_another_option(
    argv: list[str], fix: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(argv, capsys)
    assert (code, err.splitlines()[-1]) == (2, f"  fix: {fix}")


@pytest.mark.parametrize(
    ("argv", "fix"),
    [
        (["instal", "--yes"], "ext install --yes"),
        (["--agent-dir", "/h/my agent", "instal"], "ext --agent-dir '/h/my agent' install"),
        (["consent", "aprove"], "ext consent approve"),
        (["install", "--dryrun"], "ext install --dry-run"),
        (["install", "--dryrun=1"], "ext install --dry-run=1"),
        (["install", "--yse"], "did you mean --reseed or --set or --yes?"),  # all said
        # ext's own options go after a command too (helper-75: `see ext list --help`)
        (["list", "--jsn"], "ext list --json"),
        (["doctor", "--agent-dri", "/a"], "ext doctor --agent-dir /a"),
        # helper-76: click offered only `--yes`, a line that uninstalls without asking
        (["uninstall", "--jsn"], "ext uninstall --json"),
        (["install", "--jsn"], "ext install --json"),
        (["install", "--bogus"], "see `ext install --help`"),  # not --host: nothing is near
    ],
)
def test_a_typo_with_one_meaning_is_fixed_by_the_command_line_with_it(
    argv: list[str], fix: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """helper-72: `fix: did you mean 'install'?` cannot be pasted; the line it means can."""
    code, _, err = run(argv, capsys)
    assert (code, err.splitlines()[-1]) == (2, f"  fix: {fix}")


@pytest.mark.parametrize(
    ("argv", "message", "fix"),
    [
        # Path("") is the current folder: an empty --agent-dir installed into it
        (["--agent-dir", "", "install"], "--agent-dir is empty", "a path, or leave it out"),
        (["install", "--agent-dir="], "--agent-dir is empty", "a path, or leave it out"),
        (["--set", "", "list"], "--set is empty", "give --set a path, or leave it out"),
        # an empty --host was the default host
        (["--host", "", "install"], "--host is empty", "give --host a value, or leave it out"),
        (["install", "--only", ""], "--only is empty", "give --only a value, or leave it out"),
        (["init", ""], "FOLDER is empty", "give FOLDER a path, or leave it out"),
        (["add", ""], "NAME is empty", "give NAME a value"),
    ],
)
def test_an_empty_value_is_a_usage_error_naming_what_was_typed(
    argv: list[str], message: str, fix: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(argv, capsys)
    assert (code, out) == (2, "")
    assert err.splitlines()[0] == f"error: {message}"
    assert err.splitlines()[1].startswith("  fix: ") and err.splitlines()[1].endswith(fix)


def test_an_empty_value_under_json_is_one_error_document(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import json

    code, out, err = run(["list", "--json", "--agent-dir", ""], capsys)
    assert code == 2 and err == ""
    assert json.loads(out) == {
        "error": "--agent-dir is empty",
        "exit_code": 2,
        "fix": "give --agent-dir a path, or leave it out",
    }


def test_an_empty_value_still_completes(capsys: pytest.CaptureFixture[str]) -> None:
    """<TAB> parses resiliently: an empty word being typed is not an error there."""
    ctx = cli.app.make_context("ext", ["--host", ""], resilient_parsing=True)
    assert ctx.params["host"] == ""
