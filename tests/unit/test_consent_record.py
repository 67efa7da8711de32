"""The approvals document: strict parsing, stable rendering."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone

import pytest

from installer.consent.record import (
    Approval,
    CorruptRecord,
    format_time,
    parse_document,
    render_document,
)

SHA = "sha256:" + "ab" * 32
ENTRY = {
    "sha256": SHA,
    "approved_at": "2026-11-29T18:00:00Z",
    "sources": [".pi/hooks.json"],
    "config": {".pi/hooks.json": {"Stop": []}},
}


def test_render_then_parse_gives_the_same_approvals() -> None:
    approvals = {
        "/b": Approval(SHA, "2026-11-29T18:00:00Z", (".pi/hooks.json",), {"x": {"é": 1.5}}),
        "/a": Approval(SHA, "2026-11-30T08:00:00Z", (), {}),
    }
    data = render_document(approvals)
    assert data.endswith(b"}\n")
    assert "é".encode() in data
    assert list(json.loads(data)["approvals"]) == ["/a", "/b"]
    assert parse_document(data.decode()) == approvals
    assert parse_document(data.decode())["/b"].config == {"x": {"é": 1.5}}


def test_an_empty_store_parses() -> None:
    assert parse_document('{"version": 1, "approvals": {}}') == {}


def _one(entry: object, project: str = "/p") -> dict[str, object]:
    return {"version": 1, "approvals": {project: entry}}


@pytest.mark.parametrize(
    ("document", "why"),
    [
        ("not json", "not valid JSON (Expecting value, line 1)"),
        ("[]", 'not an object with exactly "version" and "approvals"'),
        ({"version": 2, "approvals": {}}, "version 2, expected 1"),
        ({"version": True, "approvals": {}}, "version True, expected 1"),
        ({"version": "1", "approvals": {}}, "version '1', expected 1"),
        ({"approvals": {}}, 'not an object with exactly "version" and "approvals"'),
        ({"version": 1, "approvals": {}, "extra": 1}, 'exactly "version" and "approvals"'),
        ({"version": 1, "approvals": []}, '"approvals" is not an object'),
        (_one(ENTRY, "relative/path"), "approval for relative/path: the project is not an abs"),
        (_one("yes"), "approval for /p: expected exactly the keys sha256, approved_at, sources, c"),
        (_one({**ENTRY, "note": "x"}), "approval for /p: expected exactly the keys"),
        (_one({k: v for k, v in ENTRY.items() if k != "config"}), "expected exactly the keys"),
        (_one({**ENTRY, "sha256": "ab" * 32}), 'approval for /p: "sha256" is not sha256:<64 hex'),
        (_one({**ENTRY, "sha256": "sha256:XYZ"}), '"sha256" is not sha256:<64 hex digits>'),
        (_one({**ENTRY, "approved_at": "yesterday"}), '/p: "approved_at" is not an ISO 8601 UTC'),
        (_one({**ENTRY, "approved_at": "2026-11-29T18:00:00"}), '"approved_at" is not an ISO'),
        (_one({**ENTRY, "approved_at": "2026-11-29T18:00:00+02:00"}), '"approved_at" is not'),
        (_one({**ENTRY, "sources": ".pi/hooks.json"}), '/p: "sources" is not a list of names'),
        (_one({**ENTRY, "sources": [1]}), '"sources" is not a list of names'),
        (_one({**ENTRY, "config": []}), 'approval for /p: "config" is not an object'),
    ],
)
def test_anything_unexpected_is_corrupt_and_the_message_says_what(
    document: object, why: str
) -> None:
    text = document if isinstance(document, str) else json.dumps(document)
    with pytest.raises(CorruptRecord) as err:
        parse_document(text)
    assert why in str(err.value)


def test_the_store_is_written_as_indented_utf8_json_with_a_final_newline() -> None:
    approval = Approval(SHA, "2026-11-29T18:00:00Z", ("hooks.json",), {"é": [1]})
    assert render_document({"/p": approval}).decode() == (
        "{\n"
        '  "version": 1,\n'
        '  "approvals": {\n'
        '    "/p": {\n'
        f'      "sha256": "{SHA}",\n'
        '      "approved_at": "2026-11-29T18:00:00Z",\n'
        '      "sources": [\n'
        '        "hooks.json"\n'
        "      ],\n"
        '      "config": {\n'
        '        "é": [\n'
        "          1\n"
        "        ]\n"
        "      }\n"
        "    }\n"
        "  }\n"
        "}\n"
    )


def test_times_are_utc_to_the_second_with_z() -> None:
    moment = datetime(2026, 11, 29, 19, 0, 0, 123456, tzinfo=timezone(timedelta(hours=1)))
    assert format_time(moment) == "2026-11-29T18:00:00Z"
    assert format_time(datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)) == "2026-01-02T03:04:05Z"


def test_times_are_utc_whatever_the_machine_s_time_zone(monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    try:
        with monkeypatch.context() as patch:  # only TZ: the test's own HOME stays
            patch.setenv("TZ", "Asia/Kolkata")
            time.tzset()
            moment = datetime(2026, 11, 29, 23, 30, tzinfo=timezone(timedelta(hours=5, minutes=30)))
            assert format_time(moment) == "2026-11-29T18:00:00Z"
    finally:
        time.tzset()  # the machine's zone again


@pytest.mark.parametrize(
    "sha",
    [
        "sha256:" + "AB" * 32,  # upper case: the hash is written in lower case, always
        "sha256:" + "a" * 63,
        "sha256:" + "a" * 65,
        "sha256:",
        "SHA256:" + "ab" * 32,
    ],
)
def test_a_hash_is_exactly_sha256_and_64_lower_case_hex_digits(sha: str) -> None:
    with pytest.raises(CorruptRecord, match="sha256"):
        parse_document(json.dumps({"version": 1, "approvals": {"/p": {**ENTRY, "sha256": sha}}}))
