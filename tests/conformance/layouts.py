"""Sets to hold ext against pi: hypothesis strategies over pi's package rules, and a corpus.

A layout is a name and a file tree (`build_tree` spec). Every file is valid content for
pi (an extension that loads, a skill with a description, a theme pi accepts), and names
are unique within a layout: a difference is then about where things are, never what
they hold. One corpus set apart, `skill-frontmatters`: skills whose frontmatter pi reads
one way or the other, where ext must say which of them pi skips. Themes are written by
`materialise`, from a theme pi ships.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import NamedTuple

from hypothesis import strategies as st

Tree = dict[str, str | None]
THEME = "<theme>"  # a placeholder materialise turns into a valid theme named after the file

POOL = (
    "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india",
    "juliet", "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo",
    "sierra", "tango", "uniform", "victor", "whiskey", "xray", "yankee", "zulu",
    "amber", "basalt", "cobalt", "dune", "ember", "flint",
)  # fmt: skip


class Layout(NamedTuple):
    """One set: what to call it in a failure, and its files."""

    name: str
    files: Tree


def extension(name: str) -> str:
    return f"export default function {name.replace('-', '_')}(pi) {{}}\n"


def skill(name: str) -> str:
    return f"---\nname: {name}\ndescription: the {name} skill\n---\nDo {name}.\n"


def prompt(name: str) -> str:
    return f"---\ndescription: the {name} prompt\n---\nPlease {name}.\n"


def manifest(name: str) -> str:
    return f'[set]\nname = "{name}"\n'


def package_json(name: str, pi: dict[str, object]) -> str:
    return json.dumps({"name": name, "version": "1.0.0", "type": "module", "pi": pi}, indent=2)


def materialise(files: Tree, theme: dict[str, object]) -> Tree:
    """The tree with each theme placeholder replaced by `theme` renamed after its file."""
    out: Tree = {}
    for rel, text in files.items():
        stem = rel.rpartition("/")[2].removesuffix(".json")
        out[rel] = json.dumps({**theme, "name": f"ext-{stem}"}, indent=2) if text == THEME else text
    return out


# ---- strategies: one per rule of pi's package layout -------------------------


class Names:
    """Hands out unique names from one shuffled pool."""

    def __init__(self, shuffled: list[str]) -> None:
        self._it: Iterator[str] = iter(shuffled)

    def __call__(self) -> str:
        return next(self._it)


@st.composite
def extensions(draw: st.DrawFn, name: Names) -> Tree:
    """extensions/: files (.ts/.js); folders with index.ts/.js, declared entries, a bare pi key."""
    files: Tree = {}
    for _ in range(draw(st.integers(1, 2))):
        n = name()
        files[f"extensions/{n}.{draw(st.sampled_from(['ts', 'js']))}"] = extension(n)
    for _ in range(draw(st.integers(1, 2))):
        n = name()
        shape = draw(
            st.sampled_from(["index.ts", "index.js", "declared", "declared-two", "pi-key"])
        )
        base = f"extensions/{n}"
        if shape.startswith("index"):
            files[f"{base}/{shape}"] = extension(n)
        elif shape.startswith("declared"):
            entries = [f"./{n}.ts"] + ([f"./{n}-extra.ts"] if shape == "declared-two" else [])
            files[f"{base}/package.json"] = package_json(n, {"extensions": entries})
            for e in entries:
                stem = e.removeprefix("./").removesuffix(".ts")
                files[f"{base}/{stem}.ts"] = extension(stem)
            if draw(st.booleans()):  # an index.ts beside declared entries: pi takes the manifest
                files[f"{base}/index.ts"] = extension(f"{n}_index")
        else:  # a pi key without extensions: not an extension, whatever else it holds
            files[f"{base}/package.json"] = package_json(n, {"skills": []})
            files[f"{base}/helper.ts"] = extension(f"{n}_helper")
    return files


@st.composite
def skills(draw: st.DrawFn, name: Names) -> Tree:
    """skills/: SKILL.md folders at depth one, two and three, and root .md files."""
    files: Tree = {}
    for _ in range(draw(st.integers(1, 3))):
        shape = draw(st.sampled_from(["folder", "collection", "deep", "root-md", "nested"]))
        n = name()
        if shape == "folder":
            files[f"skills/{n}/SKILL.md"] = skill(n)
        elif shape == "collection":
            c, m = n, name()
            files[f"skills/{c}/{m}/SKILL.md"] = skill(m)
            files[f"skills/{c}/{m}-two/SKILL.md"] = skill(f"{m}-two")
        elif shape == "nested":  # a skill holding a sub-skill of its own
            m = name()
            files[f"skills/{n}/SKILL.md"] = skill(n)
            files[f"skills/{n}/{m}/SKILL.md"] = skill(m)
        elif shape == "deep":
            files[f"skills/{n}/group/{n}-leaf/SKILL.md"] = skill(f"{n}-leaf")
        else:
            files[f"skills/{n}.md"] = skill(n)
    return files


@st.composite
def prompts(draw: st.DrawFn, name: Names) -> Tree:
    """prompts/: top-level .md files, and .md files in subfolders (a package's are recursive)."""
    files: Tree = {}
    for _ in range(draw(st.integers(1, 2))):
        n = name()
        files[f"prompts/{n}.md"] = prompt(n)
    if draw(st.booleans()):
        sub = name()
        files[f"prompts/{sub}/{name()}.md"] = prompt(sub)
    return files


@st.composite
def themes(draw: st.DrawFn, name: Names) -> Tree:
    return {f"themes/{name()}.json": THEME for _ in range(draw(st.integers(1, 2)))}


@st.composite
def pi_package(draw: st.DrawFn, name: Names) -> Tree:
    """A root package.json `pi` manifest: folders, files, globs and !exclusions, per kind."""
    files: Tree = {}
    pi: dict[str, list[str]] = {}
    if draw(st.booleans()):
        a, b, wip = name(), name(), name()
        for n in (a, b, wip):
            files[f"src/tools/{n}.ts"] = extension(n)
        how = draw(st.sampled_from(["glob", "folder", "files", "same-basename"]))
        if how == "same-basename":  # two entries one link cannot hold: link mode must refuse
            files[f"src/{a}/tool.ts"] = extension(f"{a}_tool")
            files[f"src/{b}/tool.ts"] = extension(f"{b}_tool")
            pi["extensions"] = ["./src/*/tool.ts", "./src/tools"]
        elif how == "glob":
            pi["extensions"] = ["./src/tools/*.ts", f"!**/{wip}.ts"]
        elif how == "folder":
            pi["extensions"] = ["./src/tools", f"!src/tools/{wip}.ts"]
        else:
            pi["extensions"] = [f"./src/tools/{a}.ts", f"./src/tools/{b}.ts"]
    if draw(st.booleans()):
        a, b = name(), name()
        files[f"agent-skills/{a}/SKILL.md"] = skill(a)
        files[f"agent-skills/set/{b}/SKILL.md"] = skill(b)
        pi["skills"] = ["./agent-skills"]
    if draw(st.booleans()):
        a, b = name(), name()
        files[f"templates/{a}.md"] = prompt(a)
        files[f"templates/{b}.md"] = prompt(b)
        files["templates/notes.txt"] = "not a prompt: pi takes only .md\n"
        pi["prompts"] = draw(
            st.sampled_from([["./templates"], ["./templates/*.md", f"!{b}.md"], ["./templates/*"]])
        )
    if draw(st.booleans()):
        a = name()
        files[f"looks/{a}.json"] = THEME
        files["looks/README.txt"] = "not a theme: pi takes only .json\n"
        pi["themes"] = draw(st.sampled_from([[f"./looks/{a}.json"], ["./looks/*"]]))
    files["package.json"] = package_json(name(), dict(pi))
    return files


@st.composite
def layouts(draw: st.DrawFn) -> Layout:
    """A set: the conventional folders, a pi package, or a pi package beside the folders."""
    name = Names(draw(st.permutations(POOL)))
    files: Tree = {"extset.toml": manifest("gen")}
    style = draw(st.sampled_from(["conventional", "conventional", "package", "package+folders"]))
    if style != "package":
        files |= draw(extensions(name)) | draw(skills(name)) | draw(prompts(name))
        files |= draw(themes(name))
        if draw(st.integers(0, 7)) == 0:  # pi would take extensions/ whole: ext must refuse
            files["extensions/index.ts"] = extension("whole_folder")
    if style != "conventional":
        files |= draw(pi_package(name))
    return Layout(style, files)


# ---- the corpus: sets modelled on public pi extension repositories -------------

# A SKILL.md per way of writing (or not) its frontmatter, by the skill's folder name, and
# whether pi 1.x loads it (pi 0.73 the same, but for `bom`: installer.host.lines strips_bom).
FRONTMATTERS: dict[str, tuple[bool, str]] = {
    "plain": (True, "---\nname: plain\ndescription: does plain things\n---\nx\n"),
    "none": (False, "# no frontmatter at all\n"),
    "nodesc": (False, "---\nname: nodesc\n---\nx\n"),
    "emptyval": (False, "---\ndescription:\n---\nx\n"),
    "quotedempty": (False, '---\ndescription: ""\n---\nx\n'),
    "blankquoted": (False, "---\ndescription: '   '\n---\nx\n"),
    "number": (False, "---\ndescription: 42\n---\nx\n"),
    "boolean": (False, "---\ndescription: true\n---\nx\n"),
    "tilde": (False, "---\ndescription: ~\n---\nx\n"),
    "listed": (False, "---\ndescription:\n  - one\n  - two\n---\nx\n"),
    "mapped": (False, "---\ndescription:\n  short: one\n---\nx\n"),
    "flow": (False, "---\ndescription: [one, two]\n---\nx\n"),
    "twice": (False, "---\ndescription: one\ndescription: two\n---\nx\n"),
    "commented": (False, "---\ndescription: # said later\n---\nx\n"),
    "unclosed": (False, "---\ndescription: never closed\nx\n"),
    "quoted": (True, '---\ndescription: "a: quoted # one"\n---\nx\n'),
    "folded": (True, "---\ndescription: >-\n  folded\n  text\n---\nx\n"),
    "literal": (True, "---\ndescription: |\n  literal\n---\nx\n"),
    "emptyblock": (False, "---\ndescription: |\nname: emptyblock\n---\nx\n"),
    "nextline": (True, "---\ndescription:\n  on the next line\n---\nx\n"),
    "trailing": (True, "---\ndescription: text # and a comment\n---\nx\n"),
    "numberish": (True, "---\ndescription: 42 things\n---\nx\n"),
    "version": (True, "---\ndescription: 1.2.3\n---\nx\n"),
    "crlf": (True, "---\r\ndescription: windows\r\n---\r\nx\r\n"),
    "spaced": (True, "---\ndescription   :   spaced key\n---\nx\n"),
    "colon": (
        False,
        "---\nname: colon\ndescription: Use when the user asks: fix the build\n---\nx\n",
    ),
    "hintcolon": (
        False,
        "---\nname: hintcolon\ndescription: does x\nwhen_to_use: when: always\n---\nx\n",
    ),
    "hintflow": (
        False,
        "---\nname: hintflow\ndescription: does x\nargument-hint: [file] [options]\n---\nx\n",
    ),
    "nametwice": (False, "---\nname: nametwice\nname: other\ndescription: does x\n---\nx\n"),
    "backtick": (False, "---\ndescription: `ext` helper for things\n---\nx\n"),
    "starred": (False, "---\ndescription: *very* useful skill\n---\nx\n"),
    "quotemore": (False, '---\ndescription: "Quoted" then more\n---\nx\n'),
    # helper-77: a quote never closed; one closed on a line below, with and without text after
    "openquote": (False, '---\nname: openquote\ndescription: "never closed\n---\nx\n'),
    "openapos": (False, "---\ndescription: 'never closed\n---\nx\n"),
    "quotedlines": (True, '---\ndescription: "first\n  second"\n---\nx\n'),
    "quotedthen": (False, '---\ndescription: "first\n  second" more\n---\nx\n'),
    "emptytodo": (False, '---\ndescription: "" # todo\n---\nx\n'),
    "tabbed": (False, "---\ndescription:\n\tindented by tab\n---\nx\n"),
    "nextcolon": (False, "---\ndescription: first\n  second: line\n---\nx\n"),
    "mapcolon": (False, "---\ndescription: a\nmetadata:\n  k: v: w\n---\nx\n"),
    "egcolon": (
        False,
        "---\nname: egcolon\ndescription: Formats things (e.g., dates: ISO)\n---\nb\n",
    ),
    # helper-86: a flow list never closed is no YAML; one closed on a line below is a list
    "openflow": (False, "---\ndescription: [never closed\n---\nx\n"),
    "flowlines": (False, "---\ndescription: [one,\n  two]\n---\nx\n"),
    "taggedint": (False, "---\ndescription: !!int 42\n---\nx\n"),
    "listcol0": (False, "---\ndescription:\n- a\n- b\n---\nx\n"),
    "taggedstr": (True, "---\ndescription: !!str 42\n---\nx\n"),
    "url": (
        True,
        "---\nname: url\ndescription: See https://example.com/docs for details\n---\nb\n",
    ),
    "clock": (True, "---\nname: clock\ndescription: Runs at 10:30 every day\n---\nb\n"),
    "tools": (True, "---\nname: tools\ndescription: Good\ntools:\n- Bash\n- Read\n---\nb\n"),
    "meta": (
        True,
        '---\nname: meta\ndescription: Reviews code\nmetadata:\n  version: "1.0"\n'
        "  author: me\n---\nb\n",
    ),
    "bom": (True, "\ufeff---\ndescription: with bom\n---\nx\n"),
    "longline": (True, "---\nname: longline\ndescription: " + "word " * 4000 + "\n---\nx\n"),
    "quotedkey": (True, '---\n"description": quoted key\n---\nx\n'),
    "indentedmap": (True, "---\n  name: indentedmap\n  description: indented doc\n---\nx\n"),
    "explicitkey": (True, "---\n? description\n: text\n---\nx\n"),
    "flowmap": (True, "---\n{description: hi}\n---\nx\n"),
}


def corpus() -> list[Layout]:
    """Realistic sets, each shaped like a kind of repository pi users publish."""
    return [
        # A pi package whose manifest names its extensions by glob and leaves one out,
        # with a skills folder and prompts it names explicitly (a "toolkit" repo).
        Layout(
            "toolkit-package",
            {
                "extset.toml": manifest("toolkit"),
                "package.json": package_json(
                    "pi-toolkit",
                    {
                        "extensions": ["./extensions/*.ts", "!**/experimental.ts"],
                        "skills": ["./skills"],
                        "prompts": ["./prompts/review.md", "./prompts/commit.md"],
                    },
                ),
                "extensions/answer.ts": extension("answer"),
                "extensions/todos.ts": extension("todos"),
                "extensions/experimental.ts": extension("experimental"),
                "skills/librarian/SKILL.md": skill("librarian"),
                "skills/web/fetch-page/SKILL.md": skill("fetch-page"),
                "prompts/review.md": prompt("review"),
                "prompts/commit.md": prompt("commit"),
                "prompts/drafts.md": prompt("drafts"),
                "README.md": "# pi toolkit\n",
            },
        ),
        # Folder extensions whose entries are declared in their own package.json, one
        # with npm dependencies declared (and a vendored node_modules), one with an index.ts.
        Layout(
            "declared-entries",
            {
                "extset.toml": manifest("tabs"),
                "extensions/tab/package.json": package_json("tab", {"extensions": ["./tab.ts"]}),
                "extensions/tab/tab.ts": extension("tab"),
                "extensions/tab/util.ts": "export const width = 80;\n",
                "extensions/fetcher/package.json": json.dumps(
                    {
                        "name": "fetcher",
                        "type": "module",
                        "dependencies": {"left-pad": "^1.3.0"},
                        "pi": {"extensions": ["./src/main.ts"]},
                    }
                ),
                "extensions/fetcher/src/main.ts": (
                    'import pad from "left-pad";\nexport default function f(pi) { pad("x", 2); }\n'
                ),
                "extensions/fetcher/node_modules/left-pad/package.json": json.dumps(
                    {"name": "left-pad", "version": "1.3.0", "main": "index.js"}
                ),
                "extensions/fetcher/node_modules/left-pad/index.js": (
                    "module.exports = function (s, n) { return String(s).padStart(n); };\n"
                ),
                "extensions/status/index.ts": extension("status"),
                "extensions/notify.ts": extension("notify"),
            },
        ),
        # A skills collection: folders of SKILL.md folders, and root .md skills.
        Layout(
            "skills-collection",
            {
                "extset.toml": manifest("skills"),
                "skills/office/docx/SKILL.md": skill("docx"),
                "skills/office/pdf/SKILL.md": skill("pdf"),
                "skills/office/pdf/reference.md": "# forms\n",
                "skills/office/xlsx/SKILL.md": skill("xlsx"),
                "skills/brainstorm/SKILL.md": skill("brainstorm"),
                "skills/tdd.md": skill("tdd"),
            },
        ),
        # Prompts sorted into subfolders (a package's prompts/ is searched at any depth); themes.
        Layout(
            "prompts-and-themes",
            {
                "extset.toml": manifest("looks"),
                "prompts/explain.md": prompt("explain"),
                "prompts/git/rebase.md": prompt("rebase"),
                "prompts/git/bisect.md": prompt("bisect"),
                "themes/nord.json": THEME,
                "themes/solar.json": THEME,
            },
        ),
        # A pi package whose manifest lists entry files one by one, in folders of their own
        # (one with its own package.json), and skills by their SKILL.md, one nested in
        # another (the shape of tmustier/pi-extensions).
        Layout(
            "manifest-of-files",
            {
                "extset.toml": manifest("bundle"),
                "package.json": package_json(
                    "bundle",
                    {
                        "extensions": [
                            "./guidance/guidance.ts",
                            "./arcade/ping.ts",
                            "./arcade/tetris.ts",
                            "./arcade/platformer/platformer.ts",
                            "./code-actions/index.ts",
                            "./tab-status/tab-status.ts",
                        ],
                        "skills": [
                            "./extending/SKILL.md",
                            "./extending/skill-creator/SKILL.md",
                            "./loop/SKILL.md",
                        ],
                    },
                ),
                "guidance/guidance.ts": extension("guidance"),
                "arcade/ping.ts": extension("ping"),
                "arcade/tetris.ts": extension("tetris"),
                "arcade/shared.ts": "export const fps = 30;\n",
                "arcade/platformer/platformer.ts": extension("platformer"),
                "code-actions/index.ts": extension("code_actions"),
                "tab-status/package.json": package_json(
                    "tab-status", {"extensions": ["./tab-status.ts"]}
                ),
                "tab-status/tab-status.ts": extension("tab_status"),
                "extending/SKILL.md": skill("extending"),
                "extending/skill-creator/SKILL.md": skill("skill-creator"),
                "loop/SKILL.md": skill("loop"),
                "loop/index.ts": extension("loop"),
            },
        ),
        # A pi package whose manifest names folders with other names than pi's: helpers in
        # a lib/ below the extensions, skills with scripts and reference .md files, prompts
        # in commands/, themes in their own folder (the shape of mitsuhiko/agent-stuff).
        Layout(
            "manifest-of-folders",
            {
                "extset.toml": manifest("stuff"),
                "package.json": package_json(
                    "stuff",
                    {
                        "extensions": ["./pi-extensions"],
                        "skills": ["./skills"],
                        "prompts": ["./commands"],
                        "themes": ["./pi-themes"],
                    },
                ),
                "pi-extensions/answer.ts": extension("answer"),
                "pi-extensions/review.ts": extension("review"),
                "pi-extensions/lib/utils.ts": "export const tidy = (s) => s.trim();\n",
                "skills/tmux/SKILL.md": skill("tmux"),
                "skills/tmux/scripts/wait.sh": "#!/bin/sh\n",
                "skills/testing/SKILL.md": skill("testing"),
                "skills/testing/references/properties.md": "# properties\n",
                "commands/commit.md": prompt("commit"),
                "commands/changelog.md": prompt("changelog"),
                "pi-themes/night.json": THEME,
            },
        ),
        # A placeholder manifest beside conventional folders: to pi 0.73 `"pi": {}` is a
        # manifest (JavaScript calls {} true) naming nothing; to pi 1.x a `pi` object with no
        # resource field is no manifest, and the folders load (hasManifestResourceFields).
        Layout(
            "placeholder-manifest",
            {
                "extset.toml": manifest("later"),
                "package.json": json.dumps({"name": "later", "pi": {}}),
                "extensions/soon.ts": extension("soon"),
                "skills/draft/SKILL.md": skill("draft"),
            },
        ),
        # A `pi` key of gallery metadata only (the shape of a package published to pi's
        # gallery): the same rule as `{}`, on each line.
        Layout(
            "metadata-pi-key",
            {
                "extset.toml": manifest("gallery"),
                "package.json": package_json(
                    "gallery", {"image": "./preview.png", "changelogPath": "./NEWS.md"}
                ),
                "extensions/shown.ts": extension("shown"),
                "extensions/widget/index.ts": extension("widget"),
                "prompts/tour.md": prompt("tour"),
                "themes/gallery.json": THEME,
                "NEWS.md": "# news\n",
            },
        ),
        # Folder extensions whose own package.json has a `pi` key of metadata, or `{}`: both
        # lines read only its `extensions` there, then fall back to index.ts / index.js.
        Layout(
            "folder-pi-metadata",
            {
                "extset.toml": manifest("folders"),
                "extensions/meta/package.json": package_json("meta", {"image": "./meta.png"}),
                "extensions/meta/index.ts": extension("meta"),
                "extensions/bare/package.json": package_json("bare", {}),
                "extensions/bare/index.js": extension("bare"),
                "extensions/plain.ts": extension("plain"),
            },
        ),
        # Extensions that import from outside what their link carries: a shared lib/ above a
        # folder extension, a package in the set's root node_modules (a monorepo of tools).
        # pi 0.73 resolves them from the link and cannot load them; ext's link mode refuses
        # there, and registered (or on 1.x linked) they load.
        Layout(
            "imports-out-of-folders",
            {
                "extset.toml": manifest("monorepo"),
                "lib/util.ts": "export const tidy = (s) => s.trim();\n",
                "node_modules/left-pad/package.json": json.dumps(
                    {"name": "left-pad", "version": "1.3.0", "main": "index.js"}
                ),
                "node_modules/left-pad/index.js": "module.exports = (s, n) => String(s);\n",
                "extensions/tidy/index.ts": (
                    'import { tidy } from "../../lib/util";\n'
                    "export default function t(pi) { tidy(' '); }\n"
                ),
                "extensions/pad.ts": (
                    'import pad from "left-pad";\nexport default function p(pi) { pad("x", 2); }\n'
                ),
                "skills/monorepo/SKILL.md": skill("monorepo"),
            },
        ),
        # Skills as people write their frontmatter, half of which pi skips: no frontmatter, no
        # description, an empty or a non-text one, a key given twice; and the forms that are
        # text (quoted, folded, literal, on the next lines, with a comment, a CRLF file).
        Layout(
            "skill-frontmatters",
            {
                "extset.toml": manifest("frontmatters"),
                **{f"skills/{name}/SKILL.md": text for name, (_, text) in FRONTMATTERS.items()},
                "skills/loose.md": "---\ndescription: a root file skill\n---\nDo it.\n",
                "skills/bare.md": "# a root file with no frontmatter\n",
            },
        ),
        # A set with nothing in it yet (a fresh `ext init`, before the first extension).
        Layout("empty-set", {"extset.toml": manifest("fresh"), "README.md": "# my set\n"}),
        # A pi package beside conventional folders: the manifest names extensions only, so
        # pi loads none of extensions/, skills/, prompts/ or themes/.
        Layout(
            "package-plus-folders",
            {
                "extset.toml": manifest("mixed"),
                "package.json": package_json("mixed", {"extensions": ["./src/index.ts"]}),
                "src/index.ts": extension("mixed"),
                "src/lib.ts": "export const x = 1;\n",
                "extensions/ignored.ts": extension("ignored"),
                "skills/deploy/SKILL.md": skill("deploy"),
                "prompts/ship.md": prompt("ship"),
                "themes/dusk.json": THEME,
            },
        ),
    ]
