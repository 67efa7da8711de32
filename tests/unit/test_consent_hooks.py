"""Listing what a hook config would run, and showing it safely."""

from __future__ import annotations

from typing import Any

from installer.consent.hooks import UNRECOGNISED, HookCommand, list_commands, visible
from installer.render.consent import describe


def test_every_hook_is_listed_with_event_matcher_and_command_in_order() -> None:
    config: dict[str, Any] = {
        ".claude/settings.json": {
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [
                        {"type": "command", "command": "a", "timeout": 5},
                        {"type": "command", "command": "b"},
                    ],
                }
            ],
            "Stop": [{"hooks": [{"type": "prompt", "prompt": "are we done?"}]}],
        },
        ".pi/hooks.json": {
            "SessionStart": [{"matcher": "", "hooks": [{"type": "command", "command": "c"}]}]
        },
    }
    assert list_commands(config) == [
        HookCommand(".claude/settings.json", "PreToolUse", "Bash", "a", "command", 5),
        HookCommand(".claude/settings.json", "PreToolUse", "Bash", "b", "command", None),
        HookCommand(".claude/settings.json", "Stop", None, "are we done?", "prompt", None),
        HookCommand(".pi/hooks.json", "SessionStart", "", "c", "command", None),
    ]


def test_what_does_not_fit_the_format_is_still_listed_as_written() -> None:
    config = {
        "s": {
            "A": "echo not-a-list",
            "B": ["echo not-a-group", {"matcher": "x", "hooks": [{"command": "no type"}]}],
            "C": [{"matcher": "y", "hooks": [{"type": "command", "command": "t", "timeout": "5"}]}],
        }
    }
    listed = list_commands(config)
    assert [c.kind for c in listed] == [UNRECOGNISED] * 4
    assert [c.command for c in listed] == [
        '"echo not-a-list"',
        '"echo not-a-group"',
        '{"command":"no type"}',
        '{"type":"command","command":"t","timeout":"5"}',  # as written, as pi shows it
    ]
    assert [c.matcher for c in listed] == [None, None, "x", "y"]


def test_escape_sequences_and_bidi_overrides_are_made_visible() -> None:
    sneaky = "echo ok\x1b[2K\rrm -rf ~ \u202eexe.kcah"
    assert visible(sneaky) == "echo ok\\x1b[2K\\rrm -rf ~ \\u202eexe.kcah"
    assert visible("café 🎉\tx\ny") == "café 🎉\tx\ny"


def test_a_hook_is_described_with_its_command_on_its_own_lines() -> None:
    hook = HookCommand(".claude/settings.json", "PreToolUse", "Bash", "one\ntwo\x07", "command", 5)
    assert describe(hook) == [
        '  PreToolUse  matcher "Bash"  (.claude/settings.json, timeout 5 s)',
        "    $ one",
        "      two\\x07",
    ]


def test_both_prompts_say_what_an_approval_does_not_cover() -> None:
    from pathlib import Path

    from installer.consent.preview import COVERS

    index = Path(__file__).parents[2] / "extensions" / "project-hooks" / "index.ts"
    assert "not the scripts they call, the environment they run with, or what PATH" in COVERS
    assert COVERS in " ".join(index.read_text("utf-8").replace('"\n\t"', "").split())
