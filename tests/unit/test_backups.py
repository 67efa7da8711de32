"""Backup names: made and read by installer.ground.backups alone; a name reads back as what made it,
and a name picked is never one already taken."""

from __future__ import annotations

from datetime import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from installer.ground.backups import Backup, Namer, blank_stamp, free, name, parent, parse, stamp

# What a resource's file name may be (check_name refuses `/`, NUL and control characters).
ORIGINALS = st.text(
    st.characters(blacklist_categories=("Cc", "Cs"), blacklist_characters="/\\"), min_size=1
)
WHENS = st.datetimes(min_value=datetime(1000, 1, 1), max_value=datetime(9999, 12, 31)).map(stamp)
BACKUPS = st.builds(Backup, ORIGINALS, WHENS, st.integers(min_value=0, max_value=10**6))


@settings(max_examples=300)
@given(BACKUPS)
def test_a_name_reads_back_as_what_made_it(b: Backup) -> None:
    assert parse(name(b)) == b


@settings(max_examples=300)
@given(ORIGINALS, WHENS, st.sets(st.integers(min_value=0, max_value=30)), st.sets(ORIGINALS))
def test_the_name_picked_is_the_first_free_one(
    original: str, when: str, ns: set[int], others: set[str]
) -> None:
    taken = {name(Backup(original, when, n)) for n in ns} | others
    picked = free(original, when, taken.__contains__)
    assert picked not in taken
    first_free = min(n for n in range(len(ns) + 1) if n not in ns)
    assert parse(picked) == Backup(original, when, first_free)


def test_the_stamp_is_local_time_to_the_second() -> None:
    assert stamp(datetime(2026, 1, 2, 3, 4, 5, 999)) == "20260102-030405"


@pytest.mark.parametrize(
    ("filename", "expected"),
    [
        ("notify.ts.bak.20261129-101500", Backup("notify.ts", "20261129-101500")),
        ("gamma.bak.20261129-101500-2", Backup("gamma", "20261129-101500", 2)),
        # a backup of a backup: the newest stamp is the one that counts
        (
            "a.bak.20250101-000000.bak.20261129-101500",
            Backup("a.bak.20250101-000000", "20261129-101500"),
        ),
    ],
)
def test_backup_names_are_read(filename: str, expected: Backup) -> None:
    assert parse(filename) == expected


@pytest.mark.parametrize(
    "filename",
    [
        "notify.ts",
        "notify.ts.bak",
        "notify.ts.off",
        "notify.bak.ts",
        "notify.ts.bak.2026-1129",
        "notify.ts.bak.20261129-1015",
        "notify.ts.bak.20261129-101500-",
        "notify.ts.bak.20261129-101500-x",
        "notify.ts.bak.20261129-101500.old",
    ],
)
def test_other_names_are_not_backups(filename: str) -> None:
    assert parse(filename) is None


def test_a_folder_is_backed_up_into_dot_bak_and_a_file_beside_itself() -> None:
    assert parent("extensions", is_dir=True) == "extensions/.bak"
    assert parent("prompts", is_dir=False) == "prompts"


def test_one_plan_never_picks_a_name_twice_nor_one_on_disk() -> None:
    on_disk = {"extensions": {"notify.ts.bak.20261129-101500"}, "extensions/.bak": set()}
    namer = Namer(lambda folder: on_disk.get(folder, set()), "20261129-101500")
    picks = [namer.pick("extensions", "notify.ts", False) for _ in range(2)]
    picks.append(namer.pick("extensions", "gamma", True))
    assert picks == [
        "extensions/notify.ts.bak.20261129-101500-1",
        "extensions/notify.ts.bak.20261129-101500-2",
        "extensions/.bak/gamma.bak.20261129-101500",
    ]


@given(BACKUPS, WHENS, st.integers(min_value=0, max_value=99))
def test_blanking_the_stamp_leaves_only_the_original(b: Backup, when: str, n: int) -> None:
    other = b._replace(when=when, n=n)
    assert blank_stamp(f"skills/.bak/{name(b)}") == blank_stamp(f"skills/.bak/{name(other)}")
    assert blank_stamp(f"skills/.bak/{name(b)}") == f"skills/.bak/{b.original}.bak.*"
