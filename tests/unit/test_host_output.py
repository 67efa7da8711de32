"""Reading pi's offline start-up output, and the launch environment: pure, no disk."""

from __future__ import annotations

from pathlib import Path

from installer.host.pi import AGENT_DIR_VAR, LoadFailure, launch_env, parse_load_output

# Verbatim from pi 0.73.1 (`pi -p x --offline --no-session`), stderr.
TWO_FAILURES = """\
Error: Failed to load extension "/a/extensions/bad.ts": Failed to load extension: \
Cannot find module '@earendil-works/pi-coding-agent'
Require stack:
- /a/extensions/bad.ts
Error: Failed to load extension "/a/extensions/syn/index.ts": Failed to load extension: \
ParseError: Unexpected token \x20
 /a/extensions/syn/index.ts:1:44
Error: Model "extset-offline-check/none" not found. Use --list-models to see available models.
"""

CLEAN = """\
No API key found for the selected model.

Use /login to log into a provider via OAuth or API key. See:
  /x/docs/providers.md
"""


def test_each_failure_gives_its_path_reason_and_the_lines_under_it() -> None:
    failures, finished = parse_load_output(TWO_FAILURES)
    assert failures == (
        LoadFailure(
            Path("/a/extensions/bad.ts"),
            "Failed to load extension: Cannot find module '@earendil-works/pi-coding-agent'",
            "Require stack:\n- /a/extensions/bad.ts",
        ),
        LoadFailure(
            Path("/a/extensions/syn/index.ts"),
            "Failed to load extension: ParseError: Unexpected token  ",
            " /a/extensions/syn/index.ts:1:44",
        ),
    )
    assert finished


def test_a_reason_that_runs_over_lines_stops_at_the_next_error() -> None:
    text = (
        'Error: Failed to load extension "/a/t.ts": Failed to load extension: boom at\n'
        "second line\n"
        'Error: Failed to load extension "/a/u.ts": nope\n'
    )
    failures, finished = parse_load_output(text)
    assert [(f.path.name, f.reason, f.detail) for f in failures] == [
        ("t.ts", "Failed to load extension: boom at", "second line"),
        ("u.ts", "nope", ""),
    ]
    assert not finished  # pi stopped after loading: it never looked for a model


def test_a_clean_load_has_no_failures_and_is_finished() -> None:
    assert parse_load_output(CLEAN) == ((), True)


def test_a_path_with_quotes_and_a_reason_with_quotes() -> None:
    line = 'Error: Failed to load extension "/a/it\'s.ts": Unexpected "x": here'
    (failure,), _ = parse_load_output(line)
    assert failure.path == Path("/a/it's.ts")
    assert failure.reason == 'Unexpected "x": here'


def test_nothing_printed_is_nothing_found() -> None:
    assert parse_load_output("") == ((), False)


def test_launch_env_adds_the_agent_dir_and_leaves_the_base_alone() -> None:
    base = {"PATH": "/bin", AGENT_DIR_VAR: "/elsewhere"}
    env = launch_env(Path("/tmp/agent"), base)
    assert env == {"PATH": "/bin", AGENT_DIR_VAR: "/tmp/agent"}
    assert base[AGENT_DIR_VAR] == "/elsewhere"


def test_launch_env_makes_a_relative_agent_dir_absolute() -> None:
    env = launch_env(Path("agent"), {})
    assert Path(env[AGENT_DIR_VAR]).is_absolute()
    assert env[AGENT_DIR_VAR].endswith("/agent")
