"""10,000 extensions: a no-op install under 1 s, and a cost per item that stays flat.

The per-item cost is what a no-op install takes beyond ext's own floor (the same
no-op on a set of one extension: start-up, manifest, state, settings), divided
by the number of items beyond it, at 1,000 and at 10,000 (each the median of the
per-round differences); growth is linear when the 10k figure is no more than 1.5x
the 1k one. (The framework floor, `python -c
"import typer"`, does not apply here: the everyday commands import no CLI framework.)
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from harness import (
    Cmd,
    Row,
    Timings,
    build_set,
    check_output,
    count_links,
    ext,
    isolated_agent_dir,
    measure,
    ms,
    print_timings,
    rounds,
    sandbox_env,
    standalone,
)

FLOOR = "ext install --yes (no-op, 1 item)"
SIZES = (1000, 10000)
LIMIT_10K = 1.0
GROWTH = 1.5


def installed_set(tmp: Path, count: int) -> Cmd:
    """A set of `count` extensions in its own sandbox, installed once; its no-op install."""
    root = tmp / f"n{count}"
    env = sandbox_env(root)
    set_dir = build_set(root / "set", count)
    cmd = Cmd([ext(), "install", "--yes"], set_dir, env)
    check_output(cmd.argv, set_dir, env)
    links = count_links(isolated_agent_dir(env) / "extensions")
    if links != count:
        raise RuntimeError(f"ext made {links} links, not {count}")
    return cmd


def label(count: int) -> str:
    return FLOOR if count == 1 else f"ext install --yes (no-op, {count // 1000}k)"


def per_item(t: Timings, count: int, base: int = 1) -> float:
    """Seconds per item from `base` items to `count`: the median of the per-round differences.

    Paired by round, as the ratios of the other benches are: a difference of two medians
    taken apart carries the noise of both, as large as the whole 1k figure here.
    """
    pairs = zip(t.runs[label(count)], t.runs[label(base)], strict=True)
    return statistics.median((a - b) / (count - base) for a, b in pairs)


def bench(tmp: Path, opts: argparse.Namespace) -> list[Row]:
    cmds: dict[str, Cmd] = {}
    for count in (1, *SIZES):
        cmds[label(count)] = installed_set(tmp, count)
    t = measure(cmds, rounds(opts, full=11, quick=3))
    print_timings("no-op install at 1k and 10k, vs the same on one extension", t)
    big = t.median(label(10000))
    small_cost, big_cost = per_item(t, 1000), per_item(t, 10000)
    marginal = per_item(t, 10000, base=1000)
    at_1k, at_10k = f"{small_cost * 1e6:.0f} µs", f"{big_cost * 1e6:.0f} µs"
    print(f"  per item beyond the floor: {at_1k} at 1k, {at_10k} at 10k")
    print(f"  marginal cost per item from 1k to 10k: {marginal * 1e6:.0f} µs")
    floor = f"{FLOOR}: {ms(t.median(FLOOR))}"
    return [
        Row(
            "10k no-op",
            label(10000),
            ms(big),
            floor,
            ms(big),
            f"< {LIMIT_10K:.0f} s",
            big < LIMIT_10K,
        ),
        Row("per item", label(1000), f"{small_cost * 1e6:.0f} µs/item", floor, "—", "—", None),
        Row(
            "per item",
            label(10000),
            f"{big_cost * 1e6:.0f} µs/item",
            floor,
            f"{big_cost / small_cost:.2f}x the 1k cost; marginal {marginal * 1e6:.0f} µs/item",
            f"linear (≤ {GROWTH}x)",
            big_cost <= GROWTH * small_cost,
        ),
    ]


if __name__ == "__main__":
    standalone(bench, __doc__ or "")
