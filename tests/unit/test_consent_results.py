"""Results and previews, built from literal values: statuses, exit codes, text, JSON."""

from __future__ import annotations

from typing import Any

import pytest

from installer.consent.canonical import short_hash
from installer.consent.config import build_config
from installer.consent.hooks import list_commands
from installer.consent.preview import ApprovalPreview
from installer.consent.record import Approval
from installer.consent.results import CheckResult, ListEntry, ListResult, RevokeResult
from installer.ground.errors import ExitCode
from installer.render.consent import lines as lines_of

SOURCE = ".claude/settings.json"


def hooks(command: str, timeout: int = 5) -> dict[str, Any]:
    return {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [{"type": "command", "command": command, "timeout": timeout}],
            }
        ]
    }


def preview(current: dict[str, Any] | None, previous: dict[str, Any] | None) -> ApprovalPreview:
    config = build_config([(SOURCE, current)])
    approval = None
    if previous is not None:
        old = build_config([(SOURCE, previous)])
        approval = Approval(old.sha256 or "", "2026-11-29T18:00:00Z", old.sources, old.as_json())
    return ApprovalPreview("/p", config, tuple(list_commands(config.config)), approval)


@pytest.mark.parametrize(
    ("status", "code"),
    [("approved", 0), ("nothing-to-approve", 0), ("never-approved", 3), ("changed", 3)],
)
def test_check_exit_codes(status: Any, code: int) -> None:
    approval = Approval("sha256:" + "0" * 64, "2026-11-29T18:00:00Z", (SOURCE,), {})
    result = CheckResult(
        "/p", status, "sha256:" + "1" * 64, approval if status != "never-approved" else None
    )
    assert result.exit_code == code
    assert result.to_json()["ok"] is (code == 0)
    assert result.to_json()["status"] == status


def test_check_says_changed_since_the_date() -> None:
    approval = Approval("sha256:" + "0" * 64, "2026-11-29T18:00:00Z", (SOURCE,), {})
    lines = lines_of(CheckResult("/p", "changed", "sha256:" + "1" * 64, approval))
    assert "changed since the approval on 2026-11-29T18:00:00Z" in lines[0]
    assert lines[1] == "Review and approve them with: ext consent approve /p"


def test_a_first_preview_lists_every_command_and_has_no_diff() -> None:
    shown = preview(hooks("./check.sh"), None)
    assert shown.status == "new"
    assert shown.needs_approval
    assert shown.diff == ()
    text = "\n".join(lines_of(shown))
    assert 'PreToolUse  matcher "Bash"  (.claude/settings.json, timeout 5 s)' in text
    assert "$ ./check.sh" in text
    assert "Changed since" not in text
    assert shown.question() == "Allow this hook to run?"


def test_a_changed_preview_shows_a_unified_diff_of_the_canonical_configs() -> None:
    shown = preview(hooks("./check.sh --fix"), hooks("./check.sh"))
    assert shown.status == "changed"
    assert shown.diff[:2] == ("--- approved 2026-11-29T18:00:00Z", "+++ current")
    assert '-            "command": "./check.sh",' in shown.diff
    assert '+            "command": "./check.sh --fix",' in shown.diff
    assert "Changed since the approval on 2026-11-29T18:00:00Z:" in lines_of(shown)
    assert shown.to_json()["diff"] == "\n".join(shown.diff)


def test_an_unchanged_preview_needs_nothing() -> None:
    shown = preview(hooks("./check.sh"), hooks("./check.sh"))
    assert shown.status == "already-approved"
    assert not shown.needs_approval
    assert lines_of(shown) == [
        f"Hooks in /p ({short_hash(shown.config.sha256 or '')}) are already approved "
        "(on 2026-11-29T18:00:00Z)."
    ]


def test_no_hooks_is_nothing_to_approve() -> None:
    shown = preview(None, hooks("x"))
    assert shown.status == "nothing-to-approve"
    assert lines_of(shown) == ["/p has no hooks: nothing to approve."]
    assert shown.to_json()["hooks"] == []


def test_revoke_and_list_render() -> None:
    approval = Approval("sha256:" + "ab" * 32, "2026-11-29T18:00:00Z", (SOURCE,), {})
    assert RevokeResult("/p", None).changed is False
    assert RevokeResult("/p", approval).to_json()["revoked_sha256"] == approval.sha256
    listing = ListResult(
        "/a/.extset/consent/project-approvals.json",
        (ListEntry("/p", approval.approved_at, approval.sha256, "current"),),
    )
    assert listing.exit_code == ExitCode.OK
    assert lines_of(listing) == [
        "STATE    APPROVED              HASH          PROJECT",
        "current  2026-11-29T18:00:00Z  abababababab  /p",
    ]
    assert listing.to_json()["approvals"][0]["short"] == "abababababab"
