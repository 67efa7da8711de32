"""Many agents: one `ext install` into four hosts against four single-host installs, and its
no-op against the framework floor.

A set of skills and prompt templates goes into Claude Code, Codex CLI, OpenCode and Gemini
CLI: once with `[hosts] serve` naming all four (one process, the four plans in turn), and
once as four `ext --host H install --yes`, each into a HOME of its own. Targets (issue 32):
the four-host install costs at most the sum of the four single ones, measured round by
round side by side; a no-op over all four stays under `python -c "import typer"`.
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Callable
from pathlib import Path

from harness import (
    Cmd,
    Row,
    check_output,
    ext,
    fresh_dir,
    measure,
    ms,
    print_timings,
    python,
    rounds,
    sandbox_env,
    standalone,
)

HOSTS = ("claude", "codex", "opencode", "gemini")
# Each host's own dirs under HOME that an install writes in (Codex's skills: ~/.agents/skills).
DIRS = {
    "claude": (".claude",),
    "codex": (".codex", ".agents"),
    "opencode": (".config/opencode",),
    "gemini": (".gemini",),
}
FLOOR = 'python -c "import typer"'
SKILLS, PROMPTS = 50, 50


def build(dest: Path, serve: bool) -> Path:
    """A set of SKILLS skills and PROMPTS templates; `serve`: the manifest names all four."""
    for i in range(SKILLS):
        skill = dest / "skills" / f"s{i:03d}"
        skill.mkdir(parents=True)
        (skill / "SKILL.md").write_text(f"---\nname: s{i:03d}\ndescription: Skill {i}.\n---\nDo.\n")
    (dest / "prompts").mkdir()
    for i in range(PROMPTS):
        (dest / "prompts" / f"p{i:03d}.md").write_text(
            f"---\ndescription: P {i}\n---\n$ARGUMENTS\n"
        )
    hosts = ", ".join(f'"{h}"' for h in HOSTS)
    manifest = '[set]\nname = "many"\n' + (f"[hosts]\nserve = [{hosts}]\n" if serve else "")
    (dest / "extset.toml").write_text(manifest)
    return dest


def fresh(home: Path, hosts: tuple[str, ...], attic: Path) -> Callable[[], None]:
    def prepare() -> None:
        for h in hosts:
            for rel in DIRS[h]:
                fresh_dir(home / rel, attic)

    return prepare


def bench(tmp: Path, opts: argparse.Namespace) -> list[Row]:
    many_env = sandbox_env(tmp / "many")
    many_home = Path(many_env["HOME"])
    many = build(tmp / "many-set", serve=True)
    attic = tmp / "attic"
    cmds: dict[str, Cmd] = {
        "ext install --yes (4 hosts, fresh)": Cmd(
            [ext(), "install", "--yes"], many, many_env, fresh(many_home, HOSTS, attic)
        )
    }
    one = build(tmp / "one-set", serve=False)
    for h in HOSTS:
        env = sandbox_env(tmp / h)
        cmds[f"ext --host {h} install --yes (fresh)"] = Cmd(
            [ext(), "--host", h, "install", "--yes"],
            one,
            env,
            fresh(Path(env["HOME"]), (h,), attic),
        )
    n = rounds(opts, full=9, quick=3)
    t = measure(cmds, n)
    print_timings("four hosts in one install, against four single installs", t)
    labels = list(cmds)
    sums = [sum(t.runs[label][i] for label in labels[1:]) for i in range(n)]
    ratio = statistics.median(x / s for x, s in zip(t.runs[labels[0]], sums, strict=True))
    rows = [
        Row(
            "hosts",
            labels[0],
            ms(t.median(labels[0])),
            f"sum of the 4 single installs: {ms(statistics.median(sums))}",
            f"{ratio:.2f}x",
            "≤ 1.0x",
            ratio <= 1.0,
        )
    ]
    check_output([ext(), "install", "--yes"], many, many_env)  # installed: the next is a no-op
    noop = {
        FLOOR: Cmd([python(), "-c", "import typer"], many, many_env),
        "ext install --yes (4 hosts, no-op)": Cmd([ext(), "install", "--yes"], many, many_env),
    }
    t2 = measure(noop, rounds(opts, full=15, quick=5))
    print_timings("four hosts, no-op, against the framework floor", t2)
    r = t2.ratio("ext install --yes (4 hosts, no-op)", FLOOR)
    rows.append(
        Row(
            "hosts",
            "ext install --yes (4 hosts, no-op)",
            ms(t2.median("ext install --yes (4 hosts, no-op)")),
            f"{FLOOR}: {ms(t2.median(FLOOR))}",
            f"{r:.2f}x",
            "≤ 1.0x",
            r <= 1.0,
        )
    )
    return rows


if __name__ == "__main__":
    standalone(bench, __doc__ or "")
