"""The sets and the chains of steps the hosts' conformance suite plays, and how one case is
played and compared: `ext --host H --json list` against that host's own judge.

Each case is one set, one chain, one host, in a HOME of its own (Codex CLI links skills into
`~/.agents/skills`, which OpenCode and Gemini CLI also read: two cases in one HOME would see
each other's). The set sits outside that HOME, as a person's checkout does.
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from installer.cli.app import app
from installer.hosts import judges
from tests.helpers import build_tree
from tests.hosts import RealHost, environment

# Each host's config dir under a HOME, as it finds it with no variable set.
CONFIG = {
    "claude": ".claude",
    "codex": ".codex",
    "opencode": ".config/opencode",
    "gemini": ".gemini",
}
# The word a host's judge uses for each kind of the set's items it takes.
WORD = {"skill": "skill", "prompt": "command"}

CHAINS: dict[str, tuple[str, ...]] = {
    "install": ("install",),
    "only": ("install --only",),
    "skip": ("install --skip",),
    "disable": ("install", "disable"),
    "enable": ("install", "disable", "enable"),
    "uninstall": ("install", "uninstall"),
}

Files = dict[str, str]


def skill(name: str, about: str, body: str = "Follow the steps.\n") -> str:
    return f"---\nname: {name}\ndescription: {about}\n---\n\n# {name}\n\n{body}"


def corpus() -> Files:
    """A set laid out as public skill collections are: skills with scripts/ and references/,
    one two folders deep (a group folder), one whose frontmatter name is not its folder's,
    drafts without a description or without frontmatter (which some hosts skip), prompts
    with frontmatter and $ARGUMENTS, and one with $1 (refused for Gemini CLI)."""
    return {
        "extset.toml": '[set]\nname = "corpus"\n',
        "README.md": "# A collection\n",
        "skills/pdf-forms/SKILL.md": skill(
            "pdf-forms", "Fill PDF forms.", "Run scripts/fill.py; see references/fields.md.\n"
        ),
        "skills/pdf-forms/scripts/fill.py": "print('fill')\n",
        "skills/pdf-forms/references/fields.md": "# Fields\n",
        "skills/pdf-forms/LICENSE.txt": "Any licence.\n",
        "skills/webapp-check/SKILL.md": skill("webapp-check", "Check a web app in a browser."),
        "skills/webapp-check/scripts/serve.sh": "#!/bin/sh\necho serve\n",
        "skills/webapp-check/examples/basic.md": "An example.\n",
        "skills/doc-tools/sheet-maker/SKILL.md": skill("sheet-maker", "Make spreadsheets."),
        "skills/doc-tools/sheet-maker/templates/base.csv": "a,b\n",
        "skills/brand/SKILL.md": skill("brand-guidelines", "Apply the brand's colours."),
        # Drafts seen in collections: no description, and no frontmatter at all.
        "skills/draft-notes/SKILL.md": "---\nname: draft-notes\n---\n\nTake notes.\n",
        "skills/plain-steps/SKILL.md": "# Plain steps\n\nNo frontmatter yet.\n",
        "prompts/review-pr.md": "---\ndescription: Review a pull request\n---\n"
        "Review the pull request $ARGUMENTS and list the risks.\n",
        "prompts/explain.md": "---\ndescription: Explain code\nargument-hint: <path>\n---\n"
        "Explain $@ to a new reader.\n",
        "prompts/fix-issue.md": "Fix issue $1 in the repository $2.\n",
        "prompts/standup.md": "Write today's standup from the git log.\n",
    }


_WORDS = ("lint", "deploy", "triage", "notes", "bench", "audit", "sketch", "trace")


def generated(seed: int) -> Files:
    """A set drawn from `seed` (random.Random, so every run draws the same): 1-4 skills, each
    maybe nested in a group, maybe renamed by its frontmatter, with extra files; 1-3 prompts,
    each with or without frontmatter, $ARGUMENTS or $1."""
    rng = random.Random(seed)
    words = rng.sample(_WORDS, 7)
    files: Files = {"extset.toml": f'[set]\nname = "gen{seed}"\n'}
    for word in words[: rng.randint(1, 4)]:
        folder = f"skills/{f'group-{seed}/' if rng.random() < 0.3 else ''}{word}-skill"
        name = f"{word}-helper" if rng.random() < 0.3 else f"{word}-skill"
        files[f"{folder}/SKILL.md"] = skill(name, f"Helps with {word}.")
        if rng.random() < 0.5:
            files[f"{folder}/{rng.choice(('scripts', 'references'))}/{word}.txt"] = f"{word}\n"
    for word in words[4 : 4 + rng.randint(1, 3)]:
        args = rng.choice(("$ARGUMENTS", "$1", ""))
        head = f"---\ndescription: {word} it\n---\n" if rng.random() < 0.7 else ""
        files[f"prompts/{word}-it.md"] = f"{head}Do the {word} of {args or 'this'}.\n"
    return files


@dataclass
class Case:
    """One set, one chain of steps, one host, in a HOME of its own."""

    host: RealHost
    set_name: str
    chain: str
    set_root: Path
    home: Path
    log: list[str] = field(default_factory=list)

    @property
    def config(self) -> Path:
        return self.home / CONFIG[self.host.name]

    def env(self) -> dict[str, str]:
        env = environment(self.home, EXT_NO_UPDATE_CHECK="1", NO_COLOR="1")
        return {k: v for k, v in env.items() if k != "PATH"}

    def ext(self, *args: str) -> Any:
        """`ext --set S --host H ARGS`, in-process, with this case's HOME."""
        argv = ["--set", str(self.set_root), "--host", self.host.name, *args]
        result = CliRunner().invoke(app, argv, env=self.env())
        self.log.append(f"{' '.join(args)} (exit {result.exit_code})")
        return result

    def listing(self) -> list[dict[str, Any]]:
        result = self.ext("--json", "list")
        assert result.exit_code == 0, result.stderr
        self.log.pop()
        items: list[dict[str, Any]] = json.loads(result.stdout)["items"]
        return items

    def play(self) -> None:
        """Take the chain's steps; where a step names items, the first skill and the last
        prompt ext lists as enabled (or, before an install, the first and last of each)."""
        for step in CHAINS[self.chain]:
            if step == "uninstall":
                self._ok(self.ext("uninstall", "--yes"))
                continue
            names = self._names(step)
            if step == "install":
                self._ok(self.ext("install", "--yes"))
            elif step.startswith("install"):
                flag = step.split()[1]
                self._ok(self.ext("install", flag, ",".join(names), "--yes"))
            else:
                self._ok(self.ext(step, *names, "--yes"))

    def _names(self, step: str) -> list[str]:
        items = self.listing()
        if step == "disable":
            items = [i for i in items if i["state"] == "enabled"]
        elif step == "enable":
            items = [i for i in items if i["state"] == "disabled"]
        skills = [i for i in items if i["kind"] == "skill"]
        prompts = [i for i in items if i["kind"] == "prompt"]
        return [f"{i['kind']}:{i['name']}" for i in (skills[:1] + prompts[-1:])]

    def _ok(self, result: Any) -> None:
        assert result.exit_code == 0, f"{self.log[-1]}: {result.stderr}\n{self}"

    def judge(self, bin_dir: Path) -> judges.Judged:
        binary = self.host.offline_bin(bin_dir)
        return judges.judge(self.host.name, binary, self.config, self.home, environment(self.home))

    def __str__(self) -> str:
        return f"[{self.host.name} {self.set_name} {self.chain}] steps: {' -> '.join(self.log)}"


def build(
    tmp: Path,
    host: RealHost,
    sets: dict[str, Files],
    chains: Mapping[str, Iterable[str]] | None = None,
) -> list[Case]:
    """Every set once under `tmp`, and a case (with its HOME and config dir) per chain: every
    chain, or those `chains` names for the set."""
    cases = []
    for set_name, files in sets.items():
        root = build_tree(tmp / set_name / "set", dict(files))
        for chain in (chains or {}).get(set_name, CHAINS):
            home = tmp / set_name / chain / "home"
            (home / CONFIG[host.name]).mkdir(parents=True)
            cases.append(Case(host, set_name, chain, root, home))
    return cases


def host_name(item: dict[str, Any]) -> str:
    """The name the host gives an item, by ext's list: `host_name` where it differs."""
    name: str = item.get("host_name") or item["name"]
    return name


def host_kind(item: dict[str, Any]) -> str:
    """The kind the host takes an item as, by ext's list: `host_kind` where it differs."""
    kind: str = item.get("host_kind") or WORD[item["kind"]]
    return kind


def differences(case: Case, listing: list[dict[str, Any]], judged: judges.Judged) -> list[str]:
    """What ext lists as enabled (less what it says the host refuses) against what the host
    loads (kind and name), both ways; anything ext lists as off, or says the host refuses,
    that the host loads; and what the host complained of."""
    on = [i for i in listing if i["state"] == "enabled" and "host_refuses" not in i]
    # Counted, not a set: two skills of one name that the host loads once must not agree.
    says = Counter((host_kind(i), host_name(i)) for i in on)
    loads = Counter((item.kind, item.name) for item in judged.loaded)
    off = {
        (host_kind(i), host_name(i))
        for i in listing
        if i["kind"] in WORD
        and (i["state"] in ("disabled", "not-installed") or "host_refuses" in i)
    }
    found = []
    if says != loads:
        found.append(
            f"ext says enabled, {case.host.name} does not load: {sorted((says - loads).items())}; "
            f"{case.host.name} loads, ext does not say enabled: {sorted((loads - says).items())}"
        )
    if off & set(loads):
        found.append(f"ext lists as off, {case.host.name} loads: {sorted(off & set(loads))}")
    found += [f"{case.host.name} complained: {p}" for p in judged.problems]
    return [f"{case}\n    {d}" for d in found]


def run_all(cases: list[Case], bin_dir: Path, check: Callable[[Case], list[str]]) -> list[str]:
    """Play every case, then judge them four at a time (each judge is its own sandbox)."""
    from concurrent.futures import ThreadPoolExecutor

    for case in cases:
        case.play()
    listings = [case.listing() for case in cases]
    # The offline wrapper is written here, once, before any thread starts the host: written
    # while another thread forks, its open file would make the exec fail (ETXTBSY).
    cases[0].host.offline_bin(bin_dir)
    with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
        verdicts = list(pool.map(lambda c: c.judge(bin_dir), cases))
    # Two empty views agree: a judge that saw nothing at all would pass every case.
    kinds = {item.kind for judged in verdicts for item in judged.loaded}
    out = [
        f"{cases[0].host.name} loaded no {k} in any case" for k in WORD.values() if k not in kinds
    ]
    for case, listing, judged in zip(cases, listings, verdicts, strict=True):
        out += differences(case, listing, judged)
        out += check(case)
    return out
