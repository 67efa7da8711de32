"""The commented extset.toml that `ext init` writes, built with tomlkit so it stays valid TOML."""

from __future__ import annotations

from typing import Any

_HEAD = """\
extset.toml: what `ext` needs to know about this set of pi extensions.

A set is a folder holding this file and the resources ext installs:
  extensions/<name>.ts or extensions/<name>/index.ts   pi extensions
  skills/<name>/SKILL.md                               skills
  prompts/<name>.md                                    prompt templates
  themes/<name>.json                                   themes
`ext add NAME` starts a new one from a template; `ext install` links them all
into the agent dir; `ext list` and `ext doctor` say how they are doing.
Every section is optional; a key ext does not know is reported, never used."""

_MODE = """\
How the set reaches the agent dir:
  "link"      one symlink per extension, skill, prompt and theme; `ext disable`
              parks a single link, and anything of yours in the way is backed up
  "register"  this folder becomes one local-path entry in settings.json
              "packages"; pi loads it in place"""

_SWITCH = """\
How `ext disable` switches an item off in link mode:
  "rename"  its link becomes <name>.off (a folder's is parked in .off/); holds
            even when pi cannot read settings.json, but `pi config` cannot list it
  "pi"      the link stays, and settings.json gets the `-path` that `pi config`
            writes: `pi config` lists the item and can switch it back on"""

_TESTED = """\
The pi versions these extensions were checked on, as an npm version range:
comparators separated by spaces all must hold (">=1.6.0 <1.7.0"; a comma is
refused), `||` separates alternatives ("~0.73.0 || ~1.6.0"), and "~1.6.0"
means 1.6.x. Outside the range ext warns and carries on: pi renames settings
and flags between minor versions, so widen it only after checking a newer pi."""

_UNTESTED = """\
pi was not found when this set was made. Once it is installed, name the
versions you checked these extensions on, e.g. (today's pi, 1.6):
tested = ">=1.6.0 <1.7.0\""""

_TARGET = """\
[target]
Where ext installs, when neither --agent-dir, EXT_AGENT_DIR nor
PI_CODING_AGENT_DIR says: without it, ext uses an isolated agent dir of its
own, and `ext launch` (or `eval "$(ext env)"`) points pi at it. To install
into pi's usual one:
agent_dir = "~/.pi/agent\""""

_SEED = """\
First-run settings: each is written to settings.json only when the key is
absent there; a key you have set, whatever its value, is never changed.
Names are pi's own (pi's docs/settings.md). For example:
quietStartup = true"""

_RETIRED = """\
[settings.retired] names keys pi no longer reads, with why; ext warns while
settings.json still has one. [settings.renamed] maps an old key to its new
name; `ext settings migrate` moves the value. For example:
[settings.renamed]
queueMode = "steeringMode\""""

_GUARDS = """\
Guards make `ext disable NAME` refuse (exit 3) while disabling would break
something live, and [extensions.NAME] says which extensions one needs:
[guards.NAME]
process = "--a-flag-of-NAME"   # refuse while a pi session runs with this flag
required_by = ["other"]        # refuse while these are enabled
reason = "why disabling it now would hurt"
[extensions.other]
requires = ["NAME"]"""

_UPDATES = """\
Whether ext may look for newer versions of itself, pi and this set (a cached,
non-blocking notice; `ext update --check` asks now). false: never."""


def tested_range(version: str | None) -> str | None:
    """`0.73.1` -> `>=0.73.0 <0.74.0`: the minor series a set was made on."""
    if not version:
        return None
    parts = version.split(".")
    if len(parts) < 2 or not all(p.isdigit() for p in parts[:2]):
        return None
    major, minor = int(parts[0]), int(parts[1])
    return f">={major}.{minor}.0 <{major}.{minor + 1}.0"


def manifest_text(name: str, pi_version: str | None, origin: str | None = None) -> str:
    """The manifest of a new set; `origin` says where it came from (an install.sh)."""
    import tomlkit

    doc = tomlkit.document()
    _comments(doc, _HEAD)
    if origin:
        doc.add(tomlkit.nl())
        _comments(doc, origin)
    doc.add(tomlkit.nl())
    doc.add("set", _table(("The name `ext list` and `ext doctor` show.", "name", name),
                          (_MODE, "mode", "link"), (_SWITCH, "switch", "rename")))  # fmt: skip
    tested = tested_range(pi_version)
    host = _table(("The agent that loads the set: a command on PATH, or a path to it (a\n"
                   "relative path is taken from this folder, wherever ext runs).",
                   "command", "pi"))  # fmt: skip
    if tested:
        _comments(host, _TESTED)
        host.add("tested", tested)
    else:
        _comments(host, _UNTESTED)
    doc.add("host", host)
    doc.add(tomlkit.nl())
    _comments(doc, _TARGET)
    settings = tomlkit.table(is_super_table=True)
    seed = tomlkit.table()
    _comments(seed, _SEED)
    settings.add("seed", seed)
    doc.add("settings", settings)
    doc.add(tomlkit.nl())
    _comments(doc, _RETIRED)
    doc.add(tomlkit.nl())
    _comments(doc, _GUARDS)
    doc.add(tomlkit.nl())
    doc.add("updates", _table((_UPDATES, "check", True)))
    return tomlkit.dumps(doc)


def _table(*rows: tuple[str, str, Any]) -> Any:
    import tomlkit

    table = tomlkit.table()
    for text, key, value in rows:
        _comments(table, text)
        table.add(key, value)
    return table


def _comments(container: Any, text: str) -> None:
    import tomlkit

    for line in text.splitlines():
        container.add(tomlkit.comment(line))
