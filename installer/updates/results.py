"""What a check found: one record per thing checked, ready to cache or render."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal, cast, get_args

if TYPE_CHECKING:
    from installer.updates.method import InstallMethod

Status = Literal[
    "update-available",  # a newer release, or commits upstream
    "up-to-date",
    "unavailable",  # the check ran and got no usable answer (network, 404, bad JSON, ...)
    "not-configured",  # no index or registry configured that has it: nothing to ask
    "not-applicable",  # nothing to check (unknown host package, a set that is not a checkout)
]
STATUSES: tuple[str, ...] = get_args(Status)


@dataclass(frozen=True)
class CheckResult:
    """One thing checked: `ext`, `host` or `set`, with the command that upgrades it."""

    name: str
    current: str | None
    latest: str | None
    hint: str | None
    status: Status
    detail: str = ""
    method: str | None = None
    label: str = ""
    # What was checked: ext's prefix, the host's resolved binary, the set's folder. A cached
    # result speaks only for that installation (a Homebrew pi's fix is not an npm pi's).
    installation: str | None = None
    # "unavailable" for want of an answer (offline, most often), not an answer ext could not
    # use (no release in the tested range, not on the index, a refusal): the network's fix.
    unanswered: bool = False
    # The host's: the set's [host] tested it was judged by (its hint, what is out beyond it);
    # another set's range, or another range of this set since, is another question.
    tested: str | None = None

    @property
    def fix(self) -> str | None:
        """What to do about a check that got no answer (offline, most often); else None."""
        from installer.updates.words import no_answer_fix

        return no_answer_fix(self.name) if self.unanswered else None

    @property
    def newer(self) -> bool:
        """True when there is something to upgrade to."""
        return self.status == "update-available"

    def to_json(self) -> dict[str, object]:
        """This result as plain JSON data."""
        return {
            "name": self.name,
            "current": self.current,
            "latest": self.latest,
            "hint": self.hint,
            "status": self.status,
            "detail": self.detail,
            "method": self.method,
            "label": self.label,
            "installation": self.installation,
            "unanswered": self.unanswered,
            "tested": self.tested,
            "fix": self.fix,  # what text output says after `;` (null unless unanswered)
        }

    @classmethod
    def from_json(cls, data: object) -> CheckResult | None:
        """Rebuild a result from `to_json` data; None when the data is not that shape."""
        if not isinstance(data, dict):
            return None
        try:
            name, status = _text(data, "name"), data.get("status")
            if name is None or status not in STATUSES:
                return None
            return cls(
                name=name,
                current=_text(data, "current"),
                latest=_text(data, "latest"),
                hint=_text(data, "hint"),
                status=cast(Status, status),
                detail=_text(data, "detail") or "",
                method=_text(data, "method"),
                label=_text(data, "label") or "",
                installation=_text(data, "installation"),
                unanswered=data.get("unanswered") is True,
                tested=_text(data, "tested"),
            )
        except TypeError:
            return None

    def line(self) -> str:
        """One human line: what is newer and how to get it."""
        label = self.label or self.name
        if self.newer and self.name == "set":
            text = f"{label} is {self.detail or 'behind its upstream'}"
        elif self.newer:
            text = f"{label} {self.latest} is available (you have {self.current})"
            text += f"; {self.detail}" if self.detail else ""
        else:
            text = f"{label}: {self.detail or self.status}"
        return f"{text}; run: {self.hint}" if self.newer and self.hint else text


def versioned(
    unasked: CheckResult, latest: str | None, method: InstallMethod, source: str
) -> CheckResult:
    """`unasked` told what `source` says is the latest, and how `method` upgrades to it."""
    from installer.host.versions import newer as is_newer

    if latest is None:
        detail = f"no valid answer {source}"
        return replace(unasked, status="unavailable", detail=detail, unanswered=True)
    newer = is_newer(latest, unasked.current)
    if newer is None:
        detail = "the installed version is unknown or not semver"
        return replace(unasked, latest=latest, status="unavailable", detail=detail)
    if not newer:
        return replace(unasked, latest=latest, status="up-to-date", detail="")
    hint = method.hint
    detail = "" if hint else f"{method.detail}: upgrade it the way you installed it"
    if method.by_hand:  # helper-56: "the way you installed it" asked another index (uv)
        detail = f"{method.detail}: " if method.detail else ""
        detail += f"upgrade it by {method.by_hand}"
    return replace(unasked, latest=latest, hint=hint, status="update-available", detail=detail)


def installations(
    host_resolved: object, set_dir: object, prefix: object = None
) -> dict[str, str | None]:
    """What each check speaks for: ext's prefix, the host's resolved binary, the set's folder."""
    import sys

    def text(value: object) -> str | None:
        return None if value is None else str(value)

    return {"ext": text(prefix) or sys.prefix, "host": text(host_resolved), "set": text(set_dir)}


def _text(data: dict[object, object], key: str) -> str | None:
    value = data.get(key)
    if value is None or isinstance(value, str):
        return value
    raise TypeError(key)
