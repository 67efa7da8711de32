"""What `ext init` and `ext add` write: Python strings, so no data files ship beside the code."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from installer.host.pi import HostInfo

DEFAULT_PACKAGE = "@mariozechner/pi-coding-agent"

EXAMPLE = """\
/**
 * {flag}: the example extension of {name}. It registers one flag and does
 * nothing unless that flag is given: `pi --{flag}` greets you when the
 * session starts.
 *
 * The shape to keep: a default export that registers what the extension
 * needs, and no side effects when the module loads. Flag names are shared by
 * every installed extension, so they start with a short prefix. `import type`
 * is erased when pi loads the file, so it works whichever scope your pi is
 * published under. Delete this file once you have your own.
 */

import type {{ ExtensionAPI }} from "{package}";

export default function (pi: ExtensionAPI): void {{
\tpi.registerFlag("{flag}", {{
\t\tdescription: "Say hello when the session starts (the example extension of {name})",
\t\ttype: "boolean",
\t\tdefault: false,
\t}});

\tpi.on("session_start", async (_event, ctx) => {{
\t\tif (pi.getFlag("{flag}") === true && ctx.hasUI) ctx.ui.notify("Hello from {name}", "info");
\t}});
}}
"""

EXTENSION = """\
/**
 * {name}: say here what it does, in a sentence or two.
 *
 * pi calls the default export once, when it loads the extension. Register
 * what you need there (flags, commands, tools, event handlers), and nothing
 * at module load: an extension stays inert until its flag or event fires.
 * Flag names are shared by every installed extension: prefix them ("{name}-").
 */

import type {{ ExtensionAPI }} from "{package}";

export default function (pi: ExtensionAPI): void {{
\t// pi.registerFlag("{name}-off", {{ description: "…", type: "boolean", default: false }});
\t// pi.on("session_start", async (_event, ctx) => {{ … }});
}}
"""

SKILL = """\
---
name: {name}
description: Say what this skill does and when to use it; the agent reads this line to decide.
---

# {name}

The steps the agent follows when it uses this skill.
"""

PROMPT = """\
---
description: What /{name} asks the agent to do
---
Write the prompt here; $ARGUMENTS stands for what is typed after /{name}.
"""

GITIGNORE = """\
# Dependencies an extension folder may install, and editor or OS litter.
node_modules/
*.log
.DS_Store
# Backups ext makes in the set (`ext adopt --prefer agent` keeps the set's earlier version).
*.bak.*
.bak/
"""

README = """\
# {name}

My set of pi coding-agent extensions, installed with `ext`.

```
extensions/   pi extensions: <name>.ts, or <name>/index.ts when one grows
skills/       skills: <name>/SKILL.md
prompts/      prompt templates: <name>.md (typed as /<name>)
themes/       themes: <name>.json
extset.toml   what ext needs to know; each section is explained inside
```

## Use it

```sh
ext install          # link everything into the agent dir (backs up what is in the way)
ext list             # what is installed, and how
ext disable NAME     # switch one off (ext enable NAME turns it back on)
ext doctor           # is everything healthy? each problem comes with its fix
ext undo             # reverse the last change ext made
```

Run these inside this folder, or name it: `ext --set PATH install`.

## Grow it

```sh
ext add NAME                 # a new extension from a template (--dir for a folder)
ext add NAME --kind skill    # or a skill, a prompt, a theme
ext adopt --all --from ~/.pi/agent   # move extensions you copied there by hand into this set
```

`tsconfig.json` points the editor at the installed pi's types, so the
`import type` lines type-check without a build step; pi loads the `.ts`
files as they are.
"""


def flag_prefix(name: str) -> str:
    """A flag-safe form of a set name: `My Set!` -> `my-set`."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return slug or "my-set"


def example_file(name: str) -> str:
    """The example extension's file name: the set's own, as its flag is, so that the examples
    of two sets made by `ext init` can be installed into one agent dir side by side."""
    return f"{flag_prefix(name)}-hello.ts"


def example(name: str, package: str) -> str:
    # The name lands in a comment and in string literals: keep only what is safe in both.
    shown = re.sub(r"[^\w .@+-]", "", name) or flag_prefix(name)
    return EXAMPLE.format(name=shown, package=package, flag=f"{flag_prefix(name)}-hello")


def readme(name: str) -> str:
    return README.format(name=name)


def tsconfig(package: str | None, package_dir: Path | None) -> str:
    """Type-check only (pi runs the .ts itself); `paths` find the installed pi's types."""
    options: dict[str, object] = {
        "target": "ES2022",
        "module": "ESNext",
        "moduleResolution": "Bundler",
        "strict": True,
        "noEmit": True,
        "skipLibCheck": True,
        "allowImportingTsExtensions": True,
    }
    if package and package_dir is not None:
        options["paths"] = {package: [str(package_dir)]}
    body = {"compilerOptions": options, "include": ["extensions/**/*.ts"]}
    return json.dumps(body, indent=2) + "\n"


def theme(name: str, base: dict[str, object] | None) -> str:
    """A theme is all of pi's colour tokens; start from the installed pi's dark one."""
    body = dict(base or _DARK)
    body.pop("$schema", None)
    body["name"] = name
    return json.dumps(body, indent=2) + "\n"


# pi 0.73's built-in dark theme: every one of the 51 colour tokens a theme must define.
_DARK: dict[str, object] = {
    "name": "dark",
    "vars": {
        "cyan": "#00d7ff",
        "blue": "#5f87ff",
        "green": "#b5bd68",
        "red": "#cc6666",
        "yellow": "#ffff00",
        "gray": "#808080",
        "dimGray": "#666666",
        "darkGray": "#505050",
        "accent": "#8abeb7",
        "selectedBg": "#3a3a4a",
        "userMsgBg": "#343541",
        "toolPendingBg": "#282832",
        "toolSuccessBg": "#283228",
        "toolErrorBg": "#3c2828",
        "customMsgBg": "#2d2838",
    },
    "colors": {
        "accent": "accent",
        "border": "blue",
        "borderAccent": "cyan",
        "borderMuted": "darkGray",
        "success": "green",
        "error": "red",
        "warning": "yellow",
        "muted": "gray",
        "dim": "dimGray",
        "text": "",
        "thinkingText": "gray",
        "selectedBg": "selectedBg",
        "userMessageBg": "userMsgBg",
        "userMessageText": "",
        "customMessageBg": "customMsgBg",
        "customMessageText": "",
        "customMessageLabel": "#9575cd",
        "toolPendingBg": "toolPendingBg",
        "toolSuccessBg": "toolSuccessBg",
        "toolErrorBg": "toolErrorBg",
        "toolTitle": "",
        "toolOutput": "gray",
        "mdHeading": "#f0c674",
        "mdLink": "#81a2be",
        "mdLinkUrl": "dimGray",
        "mdCode": "accent",
        "mdCodeBlock": "green",
        "mdCodeBlockBorder": "gray",
        "mdQuote": "gray",
        "mdQuoteBorder": "gray",
        "mdHr": "gray",
        "mdListBullet": "accent",
        "toolDiffAdded": "green",
        "toolDiffRemoved": "red",
        "toolDiffContext": "gray",
        "syntaxComment": "#6A9955",
        "syntaxKeyword": "#569CD6",
        "syntaxFunction": "#DCDCAA",
        "syntaxVariable": "#9CDCFE",
        "syntaxString": "#CE9178",
        "syntaxNumber": "#B5CEA8",
        "syntaxType": "#4EC9B0",
        "syntaxOperator": "#D4D4D4",
        "syntaxPunctuation": "#D4D4D4",
        "thinkingOff": "darkGray",
        "thinkingMinimal": "#6e6e6e",
        "thinkingLow": "#5f87af",
        "thinkingMedium": "#81a2be",
        "thinkingHigh": "#b294bb",
        "thinkingXhigh": "#d183e8",
        "bashMode": "green",
    },
}


def host_package(host: HostInfo | None) -> tuple[str, Path | None]:
    """The host's package name (for `import type`) and the folder it is installed in."""
    if host is None or host.package is None:
        return DEFAULT_PACKAGE, None
    from installer.host.pi import package_dir

    return host.package, package_dir(host)
