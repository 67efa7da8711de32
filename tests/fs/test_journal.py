"""The journal: one JSON line a step on disk, read back by undo, history and the next run."""

from __future__ import annotations

import errno
import io
import json
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from installer.engine import journal
from installer.ground.errors import ExtError
from tests.helpers import time_zone

AT = datetime(2026, 11, 29, 12, 0, 0, 123456, tzinfo=UTC)


def folder(agent: Path) -> Path:
    return journal.journal_dir(agent)


def lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def write(agent: Path, name: str, *objs: object) -> Path:
    path = folder(agent) / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(o) + "\n" for o in objs), encoding="utf-8")
    return path


def dead_pid() -> int:
    """The pid of a process that has exited (and been reaped): no run of ext is at work there."""
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], check=True,
                          capture_output=True, text=True)  # fmt: skip
    return int(done.stdout)


HEAD = {"journal": 1, "command": "install", "started": "2026-11-29T12:00:00"}


def test_a_journal_is_its_head_each_step_as_written_and_the_closing_line(tmp_path: Path) -> None:
    log = journal.Journal(tmp_path, "settings migrate", AT, "1.2.3", mode="register")
    log.record({"op": "mkdir", "path": "extensions"})
    log.record_all([{"op": "symlink", "path": "a", "target": "/s/é"}, {"op": "state"}])
    log.close("ok")
    assert log.path.parent == tmp_path / ".extset" / "journal"
    assert log.path.name == f"20261129T120000.123456Z-{os.getpid()}-settings-migrate.jsonl"
    assert lines(log.path) == [
        {
            "journal": 1,
            "command": "settings migrate",
            "started": AT.isoformat(),
            "ext": "1.2.3",
            "agent": str(tmp_path),
            "mode": "register",
        },
        {"op": "mkdir", "path": "extensions"},
        {"op": "symlink", "path": "a", "target": "/s/é"},
        {"op": "state"},
        {"end": "ok"},
    ]
    assert "/s/é" in log.path.read_text(encoding="utf-8")  # written as it is, not \u00e9
    assert (log.path.stat().st_mode & 0o777, folder(tmp_path).stat().st_mode & 0o777) == (
        0o600,
        0o700,
    )
    rec = journal.read(log.path)
    assert rec is not None
    assert (rec.command, rec.started, rec.status, rec.mode, rec.undone, rec.agent) == (
        "settings migrate",
        AT.isoformat(),
        "ok",
        "register",
        None,
        str(tmp_path),
    )
    assert rec.steps == ({"op": "mkdir", "path": "extensions"}, *lines(log.path)[2:4])
    assert rec.name == log.path.stem


def test_a_journal_without_a_mode_has_none_in_its_head(tmp_path: Path) -> None:
    log = journal.Journal(tmp_path, "install", AT, "1")
    log.close("ok")
    assert "mode" not in lines(log.path)[0]
    rec = journal.read(log.path)
    assert rec is not None and rec.mode is None


def test_each_step_is_on_disk_before_the_step_is_taken(tmp_path: Path) -> None:
    log = journal.Journal(tmp_path, "install", AT, "1")
    log.record({"op": "mkdir", "path": "x"})
    assert lines(log.path)[-1] == {"op": "mkdir", "path": "x"}  # flushed, the file still open
    log.record_all([{"op": "symlink", "path": "a"}, {"op": "symlink", "path": "b"}])
    assert [o.get("path") for o in lines(log.path)[1:]] == ["x", "a", "b"]
    log.close("rolled-back")


def test_two_runs_in_the_same_microsecond_get_two_files_in_order(tmp_path: Path) -> None:
    first = journal.Journal(tmp_path, "install", AT, "1")
    second = journal.Journal(tmp_path, "install", AT, "1")
    third = journal.Journal(tmp_path, "install", AT, "1")
    for log in (first, second, third):
        log.close("ok")
    tail = f"-{os.getpid()}-install.jsonl"
    assert [p.name for p in (first.path, second.path, third.path)] == [
        f"20261129T120000.123456Z{tail}",
        f"20261129T120000.123456Z.001{tail}",
        f"20261129T120000.123456Z.002{tail}",
    ]


def test_journals_are_named_in_utc_and_ordered_by_it_whatever_the_zone(tmp_path: Path) -> None:
    """helper-88: names in local time put `TZ=America/New_York ext install` after a `TZ=UTC`
    run before it (and the hour a clock goes back did the same): `ext undo` reversed the older
    run. An older ext's local names are read in the zone of the run that reads them."""
    with time_zone("Asia/Kolkata"):  # UTC+05:30
        folder = tmp_path / ".extset" / "journal"
        folder.mkdir(parents=True)
        older = folder / "20261206T100000.000000-1-install.jsonl"  # 04:30Z, named by an older ext
        newer = folder / "20261206T050000.000000Z-2-install.jsonl"
        for path in (older, newer):
            path.write_text(json.dumps(HEAD) + "\n" + json.dumps({"end": "ok"}) + "\n")
        assert journal._paths(tmp_path) == [newer, older]
        log = journal.Journal(tmp_path, "install", datetime(2026, 12, 6, 4, 0, tzinfo=UTC), "1")
        log.close("ok")
        assert log.path.name.startswith("20261206T040000.000000Z-")
        assert journal._paths(tmp_path) == [newer, older, log.path]
        early = folder / "20261129T120000-3-install.jsonl"  # an early ext's: no microseconds
        early.write_text(json.dumps(HEAD) + "\n")
        assert journal._in_utc(early.name) == early.name


def test_a_journal_s_name_and_its_start_say_the_same_microsecond(tmp_path: Path) -> None:
    """helper-90: the name rounded a float, `started` cut the nanoseconds: 095019 and 095018."""
    from installer.ground.clock import Moment

    at = Moment(1_780_000_000_095_018_999)  # .095018999 s: the float rounds it up
    log = journal.Journal(tmp_path, "install", at, "1")
    log.close("ok")
    assert log.path.name.startswith("20260528T202640.095018Z-")
    assert lines(log.path)[0]["started"].partition(".")[2].startswith("095018")


def test_a_failed_write_names_the_journal(tmp_path: Path) -> None:
    log = journal.Journal(tmp_path, "install", AT, "1")
    log._file.close()

    class Full(io.StringIO):  # a file on a full disk
        def write(self, text: str) -> int:
            raise OSError(errno.ENOSPC, "No space left on device")

    log._file = Full()
    with pytest.raises(OSError) as err:
        log.record({"op": "mkdir", "path": "x"})
    assert (err.value.errno, err.value.filename) == (errno.ENOSPC, str(log.path))
    assert str(err.value) == f"[Errno {errno.ENOSPC}] No space left on device: '{log.path}'"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "not json\n",
        '{"journal": 2, "command": "install"}\n',  # a later format: not ours to read
        '{"command": "install"}\n',
        '{"journal": "1"}\n',
        "[1]\n",  # JSON, but no object: a file of someone else's
        b"\xff\n",
    ],
)
def test_a_file_that_is_not_a_journal_reads_as_none(tmp_path: Path, text: str | bytes) -> None:
    path = tmp_path / "x.jsonl"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    assert journal.read(path) is None
    assert journal.read(tmp_path / "missing.jsonl") is None


def test_a_line_cut_short_by_a_crash_ends_what_is_read(tmp_path: Path) -> None:
    path = write(tmp_path, "a.jsonl", HEAD, {"op": "mkdir", "path": "x"})
    with path.open("a") as f:
        f.write('{"op": "symlink", "pa\n{"end": "ok"}\n')
    rec = journal.read(path)
    assert rec is not None
    assert (rec.steps, rec.status) == (({"op": "mkdir", "path": "x"},), None)
    other = write(tmp_path, "b.jsonl", HEAD, {"op": "mkdir", "path": "x"}, "end", {"end": "ok"})
    assert journal.read(other) == rec._replace(path=other)  # a line that is no object ends it


def test_a_head_without_command_or_start_still_reads(tmp_path: Path) -> None:
    rec = journal.read(write(tmp_path, "a.jsonl", {"journal": 1}, {"op": "state"}))
    assert rec is not None
    assert (rec.command, rec.started, rec.steps) == ("?", "", ({"op": "state"},))


def test_status_and_undone_are_the_first_of_their_lines_and_steps_only_ops(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "a.jsonl",
        HEAD,
        {"op": "mkdir", "path": "x"},
        {"note": "not a step"},
        {"end": "rolled-back"},
        {"end": "ok"},
        {"undone": "2026-11-30T00:00:00"},
        {"undone": "later"},
    )
    rec = journal.read(path)
    assert rec is not None
    assert (rec.status, rec.undone, rec.steps) == (
        "rolled-back",
        "2026-11-30T00:00:00",
        ({"op": "mkdir", "path": "x"},),
    )


def test_records_are_ext_s_journals_newest_first(tmp_path: Path) -> None:
    assert list(journal.records(tmp_path)) == []  # no folder yet
    write(tmp_path, "20261129T120000.000000-1-install.jsonl", HEAD)
    write(tmp_path, "20261130T120000.000000-1-undo.jsonl", {**HEAD, "command": "undo"})
    write(tmp_path, "20261128T120000.000000-1-x.jsonl", {"not": "a journal"})
    write(tmp_path, "20261131T120000.000000-1-notes.txt", HEAD)  # not .jsonl
    (folder(tmp_path) / "20261201T000000.000000-1-dir.jsonl").mkdir()
    elsewhere = write(tmp_path / "other", "x.jsonl", HEAD)
    (folder(tmp_path) / "20261202T000000.000000-1-link.jsonl").symlink_to(elsewhere)
    assert [r.command for r in journal.records(tmp_path)] == ["undo", "install"]


def test_a_journal_folder_that_is_a_link_is_refused(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    write(elsewhere, "20261129T120000.000000-1-install.jsonl", HEAD)
    (tmp_path / "agent" / ".extset").mkdir(parents=True)
    folder(tmp_path / "agent").symlink_to(folder(elsewhere))
    with pytest.raises(ExtError) as err:
        list(journal.records(tmp_path / "agent"))
    link = journal.journal_dir(tmp_path / "agent")
    assert err.value.message.startswith(f"{link} is a symlink; ")  # which entry is in the way
    assert f"rm {link}" in (err.value.fix or "")
    assert journal.journal_dir(tmp_path / "agent").is_symlink()


def test_a_journal_folder_that_is_a_file_has_no_journals(tmp_path: Path) -> None:
    (tmp_path / ".extset").mkdir()
    folder(tmp_path).write_text("x")
    assert list(journal.records(tmp_path)) == []
    assert journal.incomplete(tmp_path) is None


def test_the_newest_unfinished_run_of_a_dead_ext_is_incomplete(tmp_path: Path) -> None:
    gone = dead_pid()
    step = {"op": "mkdir", "path": "x"}
    assert journal.incomplete(tmp_path) is None  # no folder
    write(tmp_path, f"20261127T120000.000000-{gone}-install.jsonl", HEAD, step)  # older
    newest = write(tmp_path, f"20261128T120000.000000-{gone}-install.jsonl", HEAD, step)
    write(tmp_path, f"20261129T120000.000000-{gone}-install.jsonl", HEAD, step, {"end": "ok"})
    write(tmp_path, f"20261130T120000.000000-{gone}-install.jsonl", HEAD)  # no step taken
    rec = journal.incomplete(tmp_path)
    assert rec is not None and rec.path == newest


def test_a_journal_closed_then_undone_is_not_incomplete(tmp_path: Path) -> None:
    step = {"op": "mkdir", "path": "x"}
    path = write(tmp_path, f"20261129T120000.000000-{dead_pid()}-install.jsonl", HEAD, step)
    assert journal.incomplete(tmp_path) is not None
    journal.mark(path, "finished-by-next-run")
    journal.mark_undone(path, AT)
    assert lines(path)[-2:] == [{"end": "finished-by-next-run"}, {"undone": AT.isoformat()}]
    assert journal.incomplete(tmp_path) is None


def test_a_long_journal_is_judged_closed_by_its_tail(tmp_path: Path) -> None:
    steps = [{"op": "symlink", "path": f"extensions/e{i}.ts", "target": "/s"} for i in range(400)]
    name = f"20261129T120000.000000-{dead_pid()}-install.jsonl"
    path = write(tmp_path, name, HEAD, *steps, {"end": "ok"})
    assert path.stat().st_size > 4096
    assert journal.incomplete(tmp_path) is None
    path.write_text(path.read_text().replace('{"end": "ok"}\n', ""))
    assert journal.incomplete(tmp_path) is not None


def test_a_step_that_mentions_end_is_no_closing_line(tmp_path: Path) -> None:
    step = {"op": "symlink", "path": '{"end": ', "target": "x"}
    write(tmp_path, f"20261129T120000.000000-{dead_pid()}-install.jsonl", HEAD, step)
    assert journal.incomplete(tmp_path) is not None


def test_a_journal_of_only_its_head_took_no_step_and_is_never_incomplete(tmp_path: Path) -> None:
    write(tmp_path, f"20261129T120000.000000-{dead_pid()}-install.jsonl", HEAD)
    assert journal.incomplete(tmp_path) is None


def test_an_unfinished_journal_of_this_process_or_with_no_pid_counts_as_incomplete(
    tmp_path: Path,
) -> None:
    step = {"op": "mkdir", "path": "x"}
    mine = write(tmp_path, f"20261129T120000.000000-{os.getpid()}-install.jsonl", HEAD, step)
    rec = journal.incomplete(tmp_path)
    assert rec is not None and rec.path == mine
    mine.unlink()
    odd = write(tmp_path, "nopid.jsonl", HEAD, step)
    rec = journal.incomplete(tmp_path)
    assert rec is not None and rec.path == odd
    odd.unlink()
    named = write(tmp_path, "20261129T120000.000000-x-install.jsonl", HEAD, step)
    rec = journal.incomplete(tmp_path)
    assert rec is not None and rec.path == named


def test_a_journal_of_another_user_s_live_process_is_not_incomplete(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def not_allowed(pid: int, sig: int) -> None:
        raise PermissionError(1, "Operation not permitted")

    from installer.engine import lock

    write(tmp_path, "20261129T120000.000000-1-install.jsonl", HEAD, {"op": "mkdir", "path": "x"})
    monkeypatch.setattr(os, "kill", not_allowed)
    monkeypatch.setattr(lock, "free", lambda agent_dir: False)  # held, by that process
    assert journal.incomplete(tmp_path) is None


@pytest.mark.parametrize(
    ("config", "keep"),
    [
        (None, 50),
        ("[journal]\nkeep = 3\n", 3),
        ("[journal]\nkeep = 1\n", 1),
        ("[journal]\nkeep = 0\n", 50),
        ("[journal]\nkeep = -2\n", 50),
        ("[journal]\nkeep = true\n", 50),
        ('[journal]\nkeep = "9"\n', 50),
        ("[journal]\n", 50),
        ("journal = 1\n", 50),
        ("[journal\n", 50),
        (b"\xff", 50),
    ],
)
def test_how_many_journals_are_kept(tmp_path: Path, config: str | bytes | None, keep: int) -> None:
    path = tmp_path / "config.toml"
    if isinstance(config, str):
        path.write_text(config)
    elif config is not None:
        path.write_bytes(config)
    assert journal.keep_setting(path) == keep


def test_trim_keeps_the_newest_and_leaves_other_files(tmp_path: Path) -> None:
    names = [f"2026112{d}T120000.000000-1-install.jsonl" for d in range(5)]
    for name in names:
        write(tmp_path, name, HEAD)
    (folder(tmp_path) / "notes.txt").write_text("mine")
    journal.trim(tmp_path, keep=2)
    assert sorted(p.name for p in folder(tmp_path).iterdir()) == [*names[3:], "notes.txt"]
    journal.trim(tmp_path, keep=5)
    assert len(list(folder(tmp_path).glob("*.jsonl"))) == 2


def test_trim_passes_over_a_journal_another_run_trimmed_meanwhile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A consent change journals and trims outside the agent lock: two trims can meet."""
    names = [f"2026112{d}T120000.000000-1-install.jsonl" for d in range(1, 4)]
    for name in names:
        write(tmp_path, name, HEAD)
    listed = journal._paths(tmp_path)
    gone = folder(tmp_path) / "20261120T120000.000000-1-install.jsonl"  # the oldest, removed
    monkeypatch.setattr(journal, "_paths", lambda agent: [*listed, gone])
    journal.trim(tmp_path, keep=1)
    assert [p.name for p in folder(tmp_path).iterdir()] == [names[-1]]


def test_trim_reads_the_setting_when_not_told(tmp_path: Path) -> None:
    from installer.updates.paths import user_config_path

    for d in range(3):
        write(tmp_path, f"2026112{d}T120000.000000-1-install.jsonl", HEAD)
    config = user_config_path()  # under this test's own HOME
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("[journal]\nkeep = 1\n")
    journal.trim(tmp_path)
    assert [p.name for p in folder(tmp_path).iterdir()] == [
        "20261122T120000.000000-1-install.jsonl"
    ]


@pytest.mark.parametrize(
    ("command", "running", "said"),
    [
        ("install", "install", "this run finishes the job (`ext undo` reverses it instead)"),
        ("install", "disable", "`ext install` finishes it, `ext undo` reverses it"),
        ("undo", "undo", "this run finishes it"),
        # helper-31: such a run marks the undo superseded, so no undo finishes it after it
        (
            "undo",
            "install",
            "`ext undo` would have finished it; this run goes on from where it stopped",
        ),
        ("undo", None, "`ext undo` finishes it"),
        (
            "disable",
            None,
            "`ext disable` again, as you typed it, finishes it; `ext undo` reverses it",
        ),
        ("consent move", None, "`ext undo` reverses it"),  # no command of that name
        # helper-33: a `disable b` after a killed `disable a` is no second try of it
        (
            "disable",
            "disable",
            "`ext disable` again, as you typed it, finishes it; `ext undo` reverses it",
        ),
    ],
)
def test_how_a_run_cut_short_is_settled_is_said_once_for_every_reader(
    command: str, running: str | None, said: str
) -> None:
    rec = journal.Record(Path("/a/.extset/journal/x.jsonl"), command, "2026-12-05T09", None, ())
    assert journal.settling(rec, running) == said


@pytest.mark.parametrize(
    ("command", "asked", "said"),
    [
        ("disable", ("notify",), "`ext disable notify` again finishes it; `ext undo` reverses it"),
        (
            "install",
            ("--skip", "notify"),
            "`ext install --skip notify` finishes it, `ext undo` reverses it",
        ),
    ],
)
def test_a_run_cut_short_is_named_as_it_was_asked(
    command: str, asked: tuple[str, ...], said: str
) -> None:
    """helper-76: its journal keeps what it was asked; `as you typed it` asked the person."""
    path = Path("/a/.extset/journal/x.jsonl")
    rec = journal.Record(path, command, "2026-12-05T09", None, (), asked=asked)
    assert journal.settling(rec) == said


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        (("--skip", "a,b"), ("--skip", "b,a"), True),
        (("--skip", "a", "--skip", "b"), ("--skip", "a,b"), True),
        (("--only", "a", "--reseed"), ("--reseed", "--only", "a"), True),
        (("--skip", "a"), ("--only", "a"), False),
        (("--skip", "a"), (), False),
        (("--skip", "a,b"), ("--skip", "a"), False),
    ],
)
def test_a_run_is_asked_the_same_whatever_the_order_of_its_words(
    a: tuple[str, ...], b: tuple[str, ...], same: bool
) -> None:
    """helper-78, helper-80: `--skip b,a` after a killed `--skip a,b` finishes it."""
    rec = journal.Record(Path("/a/.extset/journal/x.jsonl"), "install", "", None, (), asked=a)
    assert journal.finishes(rec, "install", b) is same
