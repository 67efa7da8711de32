"""Two ext processes writing settings.json at the same moment never lose each other's keys."""

from __future__ import annotations

import functools
import multiprocessing
from pathlib import Path
from typing import Any

from installer.settings.seeds import apply_seeds
from installer.settings.store import update_settings

ROUNDS = 50


def _writer(path: str, prefix: str, rounds: int, barrier: Any) -> None:
    """Seed one key per round, each round started together with the other writer."""
    for n in range(rounds):
        barrier.wait(timeout=60)
        seeds = {f"{prefix}{n}": n, "shared": {f"{prefix}{n}": True}}
        update_settings(Path(path), functools.partial(_merge, seeds=seeds))


def _merge(data: dict[str, Any], seeds: dict[str, Any]) -> dict[str, Any]:
    out = apply_seeds(data, {k: v for k, v in seeds.items() if k != "shared"}).settings
    nested = {f"shared.{k}": v for k, v in seeds["shared"].items()}
    return apply_seeds(out, nested).settings


def test_two_processes_seeding_at_once_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{\n    "user": "kept"\n}\n')
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(2)
    writers = [
        ctx.Process(target=_writer, args=(str(path), prefix, ROUNDS, barrier))
        for prefix in ("a", "b")
    ]
    for proc in writers:
        proc.start()
    for proc in writers:
        proc.join(120)
    assert [proc.exitcode for proc in writers] == [0, 0]

    import json

    data = json.loads(path.read_text())
    expected = {f"{p}{n}" for p in "ab" for n in range(ROUNDS)}
    assert {k for k in data if k not in ("user", "shared")} == expected
    assert set(data["shared"]) == expected
    assert data["user"] == "kept"
    assert path.read_text().startswith('{\n    "user": "kept",\n    "')
    assert not (tmp_path / "settings.json.lock").exists()
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".tmp"] == []
