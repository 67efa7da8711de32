"""Link or register: which mode an install takes, and what link mode cannot express."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from installer.engine import journal
from installer.ground.context import Context
from installer.ground.errors import Rerun, UsageError, Way
from installer.ground.manifest import MODES
from installer.ground.state import load_state
from installer.sets.resources import Resource


def install_mode(ctx: Context, explicit: str | None) -> str:
    """--mode > an interrupted install's mode > the mode this set was installed with here >
    the manifest."""
    if explicit is not None:
        if explicit not in MODES:
            import difflib

            close = difflib.get_close_matches(explicit, MODES, n=1, cutoff=0.5)
            fix = "use --mode link or --mode register"
            raise UsageError(
                f"unknown mode {explicit!r}", f"did you mean {close[0]!r}? {fix}" if close else fix
            )
        return explicit
    if not ctx.on.is_pi:
        return "link"  # register mode is pi's packages entry: another host has only links
    cut_short = journal.incomplete(ctx.agent_dir)
    if cut_short is not None and cut_short.command == "install" and cut_short.mode in MODES:
        return cut_short.mode  # finishing it means finishing it in its own mode
    record = load_state(ctx.agent_dir).record_of(ctx.set_root, ctx.manifest.name)
    return record.mode if record else ctx.manifest.mode


def refuse_unlinkable(chosen: tuple[Resource, ...], registers: bool = True) -> None:
    """Link mode installs only what a link in the agent dir makes pi load exactly as the set.
    `registers`: register mode is a way out (pi's; another host has links alone)."""
    bad = [r for r in chosen if r.unlinkable]
    if not bad:
        return
    why = "; ".join(f"{r.label}: {r.unlinkable}" for r in bad)
    raise _register_or_skip(
        f"link mode cannot install what pi loads from this set ({why}); nothing was changed",
        "pi then loads the set as a package" if registers else None,
        [r.label for r in bad],
    )


def _register_or_skip(message: str, then: str | None, labels: Sequence[str]) -> Rerun:
    """Link mode cannot take these items: install in register mode (`then`: what pi does
    then; None: no register mode here), or without them."""
    from installer.ground.shellword import skip_flag

    skip = Way("leave these out with", "--skip", ",".join(labels))
    if then is None:
        return Rerun(message, f"leave these out with {skip_flag(labels)}", (skip,))
    fix = (
        f"install it with `ext install --mode register` ({then}), "
        f"or leave these out with {skip_flag(labels)}"
    )
    return Rerun(message, fix, (Way("install it with", "--mode", "register", f" ({then})"), skip))


def refuse_unloadable_entries(linked: Sequence[Resource]) -> None:
    """Refuse to install an item pi cannot load (`unloadable`), naming each and the way out."""
    bad = unloadable(linked)
    if not bad:
        return
    from installer.ground.readfile import CAP
    from installer.ground.shellword import skip_flag

    raise UsageError(
        f"pi cannot load {', '.join(label for label, _ in bad)} "
        f"({'; '.join(f'{label}: {why}' for label, why in bad)}): {UNLOADABLE}; nothing was "
        "changed",
        f"make each a regular file of at most {CAP // (1024 * 1024)} MiB (a prompt's or skill's "
        f"frontmatter of at most {NESTS:,} `[` and `{{`), or leave them out with "
        f"{skip_flag(b[0] for b in bad)}",
    )


# The `[` and `{` a prompt's or skill's frontmatter may hold: pi's YAML reader takes about
# 1 kB of memory for each level they nest (tests/e2e/test_pi_facts.py), and one of 15 MB of
# them ran pi 1.6 and 0.73 out of memory at every start (helper-92). 20,000 bytes cannot
# hold more, so only a larger file is read.
NESTS = 20_000
# Why an item `unloadable` names cannot be installed (doctor says it of one installed too).
UNLOADABLE = "pi reads each whole when it starts, and would hang or run out of memory"


def unloadable(linked: Sequence[Resource]) -> list[tuple[str, str]]:
    """Each item (label, why) whose file pi reads whole when it starts (an extension's entry,
    `index.ts` or a manifest's file; a prompt, a theme, a skill's SKILL.md) if pi cannot: not a
    regular file (pi would wait on a FIFO forever, and read a link to /dev/zero until it runs
    out of memory; pi 1.6 aborts), or larger than ext reads a file (helper-57: a 2 GB sparse
    extension was linked, and pi's loader took 2.25 GB and failed; helper-63: a 400 MB prompt
    took each pi start to 1 GB, a 3 GB one was dropped by pi with an error only `doctor --deep`
    showed). A top-level file that is no regular file is no item to begin with."""
    import stat

    from installer.ground.readfile import CAP

    bad = []
    for r in linked:
        for entry in r.loaded():
            try:
                st = os.stat(entry)  # one call, the link followed: the common case costs no more
            except OSError:
                continue  # missing: the engine and doctor say so
            mode = st.st_mode
            regular = stat.S_ISREG(mode) and st.st_size <= CAP
            deep = regular and st.st_size > NESTS and r.kind in ("prompt", "skill")
            if regular and not (deep and _nests(entry)):
                continue
            what = "is a FIFO" if stat.S_ISFIFO(mode) else "is not a regular file"
            if stat.S_ISREG(mode):
                what = f"is {st.st_size // (1024 * 1024)} MiB, over {CAP // (1024 * 1024)} MiB"
            if regular:  # too deep
                what = (
                    f"has a frontmatter of more than {NESTS:,} `[` and `{{`, which pi's YAML "
                    "reader nests at about 1 kB each"
                )
            real = os.path.realpath(entry)
            inside = real.startswith(os.path.realpath(r.source) + os.sep)
            shown = os.path.relpath(real, r.source) if inside else f"its entry, {real},"
            if r.layout == "file":
                shown = "it"
            bad.append((r.label, f"{shown} {what}"))
            break
    return bad


def _nests(path: str) -> bool:
    """Whether the file's frontmatter, cut as pi 1.x cuts it (a BOM dropped; none without a
    closing `---` line), holds more than NESTS flow brackets."""
    from installer.ground.readfile import read_text
    from installer.sets.piskill import frontmatter

    try:
        head = frontmatter(read_text(path))
    except (OSError, ValueError):
        return False
    return head is not None and head.count("[") + head.count("{") > NESTS


def refuse_lost_imports(ctx: Context, linked: Sequence[Resource]) -> None:
    """On a pi that resolves a linked extension's imports from the link (0.73), refuse to link
    one whose imports the link would lose: pi could not load it. No pi found: nothing to ask."""
    extensions = [r for r in linked if r.kind == "extension"]
    pi = _resolving_from_links(ctx) if extensions else None
    if pi is None:
        return
    from installer.sets.link_imports import escapes, said

    root = Path(os.path.realpath(ctx.set_root))
    lost: list[str] = []
    names: list[str] = []
    link_dir = ctx.agent_dir / "extensions"
    for r in extensions:
        home = r.real or os.path.realpath(r.source)
        entries = [home] if r.layout == "file" else r.entries()
        found = escapes(home, entries, link_dir)
        if found:
            lost.append(said(found[0], r.label, r.layout == "dir", root, len(found) - 1))
            names.append(r.label)
    if not lost:
        return
    raise _register_or_skip(
        f"link mode cannot install {', '.join(names)} for {pi}, which resolves a linked "
        f"extension's imports from its link in the agent dir: {'; '.join(lost)}; "
        "nothing was changed",
        "pi then loads the set in place",
        names,
    )


def _resolving_from_links(ctx: Context) -> str | None:
    """`pi 0.73.1` when the pi found resolves a linked extension's imports from the link;
    None for one that resolves them from the set, and when no pi is found (the one a person
    installs next is today's)."""
    from installer.host.lines import line_of
    from installer.host.pi import package_here

    # From pi's package.json, never run: inspecting a set runs nothing of it.
    found = package_here(ctx.manifest.host_command, ctx.env.environ.get("PATH"))
    if found is None:
        return None
    version, package = found
    line = line_of(version, package)
    command = ctx.manifest.host_command
    return f"{command} {version or line.tested}" if line.imports_from == "link" else None
