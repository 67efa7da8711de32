"""How update results read, where two outputs say the same thing: one wording for both."""

from __future__ import annotations


def up_to_date(label: str, current: str | None) -> str:
    """`pi is up to date (1.6.0)`: the words of `ext update --check` and of doctor."""
    shown = current[:12] if current and len(current) == 40 else current  # a commit: short
    return f"{label} is up to date ({shown or 'unknown'})"


# How to get an answer from a check that got none (offline, most often), by what it checks.
NO_ANSWER = {
    "ext": "check the network, or the index ext asks (EXT_INDEX_URL, or pip's index-url)",
    "host": "check the network, or the registry npm asks (EXT_NPM_REGISTRY, or registry= in "
    "~/.npmrc)",
    "set": "check the network, and that git reaches the set's remote (git ls-remote)",
}
CHECK_FAILED = "the check failed"  # ext's own fault, not the network's: no fix to give


def no_answer_fix(name: str) -> str | None:
    """What to do about a check of `name` that got no answer (CheckResult.unanswered)."""
    return NO_ANSWER.get(name)
