"""doctor's `loader` check: each difference between ext's items and pi's view, with its fix.

pi's views here are literal; tests/conformance/test_doctor_loader.py asks the real pi.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from installer.commands.install import Install, install
from installer.doctor import resolve_subject, run_checks
from installer.doctor.checks.deep_loader import findings
from installer.doctor.finding import Finding
from installer.ground.context import Env, resolve
from installer.host.loader import Conflict, Diagnostic, Failure, Loaded, View
from tests.fs.test_pi_loader import fake_pi, needs_node
from tests.helpers import build_tree, yes


def view(*loaded: tuple[str, str], **kw: object) -> View:
    items = tuple(Loaded(kind, path, path) for kind, path in loaded)  # type: ignore[arg-type]
    return View("/agent", "/cwd", items, **kw)  # type: ignore[arg-type]


def rows(v: View, ext: list[tuple[str, str, frozenset[str]]], root: str) -> list[Finding]:
    return list(findings(v, ext, root))


def test_every_item_loaded_as_ext_says_is_one_ok_row() -> None:
    ext = [("notify", "enabled", frozenset({"/set/extensions/notify.ts"}))]
    ext += [("skill:review", "disabled", frozenset({"/set/skills/review/SKILL.md"}))]
    found = rows(view(("extension", "/set/extensions/notify.ts")), ext, "/set")
    assert [(f.level, f.message) for f in found] == [
        ("ok", "pi's loader loads what ext says of the set: 1 enabled item, nothing else of it")
    ]


def test_enabled_but_not_loaded_is_an_error_with_pis_own_reason() -> None:
    skill = "/set/skills/a/SKILL.md"
    said = Diagnostic("skill", "warning", "description is required", skill)
    found = rows(view(diagnostics=(said,)), [("skill:a", "enabled", frozenset({skill}))], "/set")
    assert [(f.level, f.message, f.fix) for f in found] == [
        (
            "error",
            f"ext says skill:a is enabled, pi does not load {skill}: description is required",
            "fix the file as pi says, or `ext disable skill:a`",
        )
    ]


def test_enabled_but_another_of_its_name_loaded_is_a_collision_warning() -> None:
    skill, theirs = "/set/skills/a/SKILL.md", "/home/.agents/skills/a/SKILL.md"
    said = Diagnostic("skill", "collision", 'name "a" collision', skill, theirs)
    v = view(("skill", theirs), diagnostics=(said,))
    found = rows(v, [("skill:a", "enabled", frozenset({skill}))], "/set")
    assert [(f.level, f.message, f.fix) for f in found] == [
        (
            "warn",
            f"ext says skill:a is enabled, pi loads {theirs} instead, another of its name "
            "(a collision)",
            "remove or rename one of them (`ext disable skill:a` keeps the other one)",
        )
    ]


def test_disabled_but_loaded_is_an_error() -> None:
    path = "/set/extensions/tab/tab.ts"
    found = rows(view(("extension", path)), [("tab", "disabled", frozenset({path}))], "/set")
    assert [(f.level, f.fix) for f in found] == [("error", "ext disable tab")]
    assert found[0].message == f"ext says tab is disabled, and pi loads {path}"


def test_what_pi_loads_from_the_set_unknown_to_ext_is_named_and_the_rest_is_left_alone() -> None:
    v = view(("prompt", "/set/prompts/git/rebase.md"), ("extension", "/agent/extensions/mine.ts"))
    found = rows(v, [], "/set")
    assert [(f.level, f.message) for f in found] == [
        ("warn", "pi loads prompts/git/rebase.md from the set; ext does not know it")
    ]


def test_what_pi_loads_from_an_agent_dir_in_the_sets_folder_is_not_the_sets() -> None:
    """`--agent-dir ./try` from the set's folder: ext's /ext copy in try/.extset is loaded
    from inside the set's folder, and was said to be a file of the set ext does not know."""
    ours = "/set/try/.extset/agent/ext-command-3e1fef84225a.ts"
    v = view(("extension", ours), ("prompt", "/set/prompts/git/rebase.md"))
    found = list(findings(v, [], "/set", agent_dir="/set/try"))
    assert [(f.level, f.message) for f in found] == [
        ("warn", "pi loads prompts/git/rebase.md from the set; ext does not know it")
    ]
    # helper-76: a set kept in the agent dir's folder, or the agent dir itself, is the set's
    for agent in ("/", "/set"):
        theirs = view(("extension", "/set/extensions/x.ts"))
        found = list(findings(theirs, [], "/set", agent_dir=agent))
        assert [f.message for f in found] == [
            "pi loads extensions/x.ts from the set; ext does not know it"
        ]


def test_a_missing_npm_module_names_the_install_to_run_in_the_extensions_folder(
    tmp_path: Path,
) -> None:
    root = build_tree(
        tmp_path / "set",
        {
            "extensions/fetch/package.json": json.dumps({"dependencies": {"left-pad": "^1"}}),
            "extensions/fetch/src/main.ts": "",
            "extensions/solo/index.ts": "",
        },
    )
    main, solo = root / "extensions/fetch/src/main.ts", root / "extensions/solo/index.ts"
    failed = (
        Failure(str(main), str(main), "Failed to load extension: Cannot find module 'left-pad'"),
        Failure(str(solo), str(solo), "Failed to load extension: Cannot find module '@a/b/c'"),
    )
    ext = [
        ("fetch", "enabled", frozenset({str(main)})),
        ("solo", "enabled", frozenset({str(solo)})),
    ]
    found = rows(view(failed=failed), ext, str(root))
    assert [(f.level, f.message, f.fix) for f in found] == [
        (
            "error",
            f"fetch: pi could not load {main}: Cannot find module 'left-pad'",
            f"cd {root / 'extensions/fetch'} && npm install",
        ),
        (
            "error",
            f"solo: pi could not load {solo}: Cannot find module '@a/b/c'",
            f"cd {root} && npm install @a/b",
        ),
    ]


def test_a_flag_conflict_is_reported_as_a_conflict_not_a_load_failure() -> None:
    one, two = "/set/extensions/one.ts", "/set/extensions/two.ts"
    clash = Conflict(two, two, "flag", "--v", one, f'Flag "--v" conflicts with {one}')
    ext = [("one", "enabled", frozenset({one})), ("two", "enabled", frozenset({two}))]
    found = rows(view(("extension", one), ("extension", two), conflicts=(clash,)), ext, "/set")
    assert [f.level for f in found] == ["warn"]
    assert found[0].message.startswith("flag --v is registered by both one and two: a conflict")
    assert "could not load" not in found[0].message


def test_a_loader_that_threw_on_the_agent_dir_is_a_warning_not_a_comparison() -> None:
    found = rows(view(error="Error: boom\n  at x"), [("a", "enabled", frozenset({"/set/a"}))], "/")
    assert [(f.level, f.message) for f in found] == [
        ("warn", "pi's loader stopped on this agent dir: Error: boom")
    ]


@needs_node
def test_when_the_loader_cannot_be_asked_doctor_says_why_and_names_the_fallback(
    tmp_path: Path,
) -> None:
    host = fake_pi(tmp_path / "pi", "export class SettingsManager {}\n")
    root = build_tree(tmp_path / "set", {"extset.toml": '[set]\nname = "s"\n', "prompts/a.md": "a"})
    agent = tmp_path / "agent"
    agent.mkdir()
    env = Env()
    install(resolve(env, root, agent), Install(mode="link"), yes)
    subject = resolve_subject(env, root, agent, host_finder=lambda command, path: host)
    found = run_checks(subject, ["loader"], deep=True)
    assert [(f.level, f.message, f.fix) for f in found] == [
        (
            "info",
            "pi's loader was not asked: pi 0.1.0 does not export DefaultResourceLoader: "
            "its loader cannot be asked",
            "`ext doctor --check host.load` starts pi offline and reports what fails to load",
        )
    ]


def test_without_pi_the_check_is_skipped_with_the_reason(tmp_path: Path) -> None:
    root = build_tree(tmp_path / "set", {"extset.toml": '[set]\nname = "s"\n'})
    agent = tmp_path / "agent"
    agent.mkdir()
    subject = resolve_subject(Env(), root, agent, host_finder=lambda command, path: None)
    found = run_checks(subject, ["loader"], deep=True)
    assert [(f.level, f.message) for f in found] == [
        ("info", "not checked: pi was not found (see host)")
    ]


def test_settings_pi_cannot_read_are_named_before_the_items_they_hide() -> None:
    ext = [("notify", "enabled", frozenset({"/set/extensions/notify.ts"}))]
    found = rows(view(settings_errors=("global: Unexpected end of JSON input",)), ext, "/set")
    assert [(f.level, f.message.split(":")[0]) for f in found] == [
        ("error", "pi could not read its settings (global"),
        ("error", "ext says notify is enabled, pi does not load /set/extensions/notify.ts"),
    ]
    assert found[0].fix == "ext doctor --check settings.json (says where settings.json is broken)"


def test_a_failure_host_load_already_reported_is_not_said_again() -> None:
    bad = "/set/extensions/bad.ts"
    failed = (Failure(bad, bad, "Failed to load extension: boom"),)
    ext = [("bad", "enabled", frozenset({bad}))]
    found = list(findings(view(failed=failed), ext, "/set", reported=frozenset({bad})))
    assert [(f.level, f.message) for f in found] == [
        (
            "ok",
            "pi's loader loads what ext says of the set: 1 enabled item, nothing else of it "
            "(1 extension failed to load: see host.load)",
        )
    ]


def test_a_conflict_host_load_already_reported_is_counted_not_said_again() -> None:
    one, two = "/set/extensions/one.ts", "/set/extensions/two.ts"
    clash = Conflict(two, two, "flag", "--v", one, f'Flag "--v" conflicts with {one}')
    ext = [("one", "enabled", frozenset({one})), ("two", "enabled", frozenset({two}))]
    v = view(("extension", one), ("extension", two), conflicts=(clash,))
    found = list(findings(v, ext, "/set", clashes=frozenset({(two, "flag", "--v")})))
    assert [(f.level, f.message) for f in found] == [
        (
            "ok",
            "pi's loader loads what ext says of the set: 2 enabled items, nothing else of it "
            "(1 tool or flag conflict: see host.load)",
        )
    ]


def test_a_missing_pi_package_is_the_other_scope_s_not_an_npm_install() -> None:
    bad = "/set/extensions/bad.ts"
    error = "Failed to load extension: Cannot find module '@earendil-works/pi-tui'"
    found = rows(
        view(failed=(Failure(bad, bad, error),)), [("bad", "enabled", frozenset({bad}))], "/set"
    )
    assert [f.fix for f in found] == [
        'import from "@mariozechner/pi-tui" instead of "@earendil-works/pi-tui" '
        "(or use `import type` if only types are needed; see `ext doctor --check host.scope`)"
    ]


@pytest.mark.parametrize(
    ("message", "said"),
    [
        (
            'Missing closing "quote at line 2, column 27:\n\n description: "open\n'
            "                           ^\n",
            'Missing closing "quote at line 2, column 27',
        ),
        ("Skill name too long\n(over 64)", "Skill name too long (over 64)"),
    ],
)
def test_pi_s_message_is_one_line_without_the_yaml_code_frame(message: str, said: str) -> None:
    """helper-77: the caret line of the yaml package's frame, squashed into the sentence."""
    from installer.doctor.checks.deep_loader import _said

    assert _said(message) == said
