"""The static scanners: imports (value or type-only), scope drift, registered flags."""

from __future__ import annotations

from installer.host.lines import LINES
from installer.sets.scan_source import (
    FlagRef,
    ImportRef,
    ScopeDrift,
    portable,
    registered_flags,
    scan_imports,
    scope_drift,
)

EW = "@earendil-works/pi-coding-agent"
MZ = "@mariozechner/pi-coding-agent"
OLD, NEW = LINES  # pi 0.73 (@mariozechner only) and 1.x (both scopes)


def one(source: str, *, typescript: bool = True) -> ImportRef:
    (ref,) = scan_imports(source, typescript=typescript)
    return ref


# ---- value or type-only -------------------------------------------------------


def test_import_type_is_type_only() -> None:
    ref = one(f'import type {{ ExtensionAPI }} from "{EW}";\n')
    assert ref == ImportRef(1, EW, type_only=True, kind="import")
    assert not ref.loads_value


def test_inline_type_names_only_are_type_only() -> None:
    assert one(f'import {{ type A, type B as C }} from "{EW}";').type_only
    assert one(f"import {{type A}} from '{EW}'").type_only


def test_one_value_name_among_type_names_is_a_value() -> None:
    ref = one(f'import {{ type A, getAgentDir }} from "{EW}";\ngetAgentDir();\n')
    assert not ref.type_only and ref.loads_value


def test_names_called_type_are_values() -> None:
    # `type` alone, `type as t` and a default named `type` bind a value called type.
    assert not one(f'import {{ type }} from "{EW}"; type();').type_only
    assert not one(f'import {{ type as t }} from "{EW}"; t();').type_only
    assert not one(f'import type from "{EW}"; type();').type_only
    assert not one(f'import typeish from "{EW}"; typeish();').type_only


def test_other_type_only_shapes() -> None:
    assert one(f'import type * as pi from "{EW}";').type_only
    assert one(f'import type{{ A }} from "{EW}";').type_only
    assert one(f'import type Default from "{EW}";').type_only


def test_empty_braces_still_load_the_module() -> None:
    # pi 0.73.1 keeps `import {} from "x"`: it fails to load like a value import.
    assert one(f'import {{}} from "{EW}";').loads_value


def test_default_namespace_and_mixed_clauses_are_values() -> None:
    refs = scan_imports(
        f'import pi from "{EW}";\n'
        f'import * as ns from "{EW}";\n'
        f'import def, {{ type A, b }} from "{EW}";\n'
        "pi(); ns.x(); def(); b();\n"
    )
    assert [(r.line, r.type_only, r.loads_value) for r in refs] == [
        (1, False, True),
        (2, False, True),
        (3, False, True),
    ]


def test_a_typescript_import_no_name_of_which_is_used_is_dropped() -> None:
    # The transpiler erases it, so pi never loads the module (checked on pi 0.73.1).
    ref = one(f'import {{ getAgentDir }} from "{EW}";\nexport default () => {{}};\n')
    assert ref.unused and not ref.loads_value


def test_a_name_mentioned_only_in_comments_strings_or_as_a_property_is_unused() -> None:
    source = (
        f'import {{ getAgentDir }} from "{EW}";\n'
        "// getAgentDir();\n"
        "/* getAgentDir() */\n"
        'const s = "getAgentDir" + `getAgentDir`;\n'
        "obj.getAgentDir();\n"
    )
    assert one(source).unused


def test_a_name_used_in_a_template_expression_or_spread_is_used() -> None:
    assert not one(f'import {{ dir }} from "{EW}";\nconst s = `${{dir()}}`;\n').unused
    assert not one(f'import {{ opts }} from "{EW}";\nconst o = {{ ...opts }};\n').unused


def test_javascript_keeps_an_unused_import() -> None:
    ref = one(f'import {{ getAgentDir }} from "{EW}";\n', typescript=False)
    assert not ref.unused and ref.loads_value


# ---- statement shapes -----------------------------------------------------------


def test_multi_line_import_reports_the_line_it_starts_on() -> None:
    source = (
        f'// header\n\nimport {{\n  type A,\n  getAgentDir,\n}} from\n  "{EW}";\ngetAgentDir();\n'
    )
    ref = one(source)
    assert (ref.line, ref.module, ref.type_only) == (3, EW, False)


def test_side_effect_dynamic_and_require_are_values() -> None:
    refs = scan_imports(
        'import "./side-effect";\n'
        "const a = await import('dyn');\n"
        'const b = require("req");\n'
        "const c = require ( 'spaced' );\n"
        "const d = import(`tpl`);\n"
    )
    assert [(r.line, r.module, r.kind, r.loads_value) for r in refs] == [
        (1, "./side-effect", "import", True),
        (2, "dyn", "dynamic", True),
        (3, "req", "require", True),
        (4, "spaced", "require", True),
        (5, "tpl", "dynamic", True),
    ]


def test_computed_specifiers_and_lookalikes_are_not_imports() -> None:
    source = (
        "const m = import(`${name}`);\n"
        "const r = require(name);\n"
        "require.resolve('not-loaded');\n"
        "obj.require('method');\n"
        "const x = import.meta.url;\n"
        "importantFrom('x');\n"
    )
    assert scan_imports(source) == []


def test_export_from() -> None:
    refs = scan_imports(
        'export * from "a";\n'
        'export * as ns from "b";\n'
        'export { x, y as z } from "c";\n'
        'export type { T } from "d";\n'
        'export { type U } from "e";\n'
        'export type * from "f";\n'
        "export const notAnImport = 1;\n"
    )
    assert [(r.module, r.kind, r.type_only) for r in refs] == [
        ("a", "export", False),
        ("b", "export", False),
        ("c", "export", False),
        ("d", "export", True),
        ("e", "export", True),
        ("f", "export", True),
    ]


def test_imports_in_comments_and_strings_are_ignored() -> None:
    source = (
        f'// import {{ a }} from "{EW}";\n'
        f'/* import {{ b }} from "{EW}";\n'
        f'   require("{EW}") */\n'
        f"const s = \"import {{ c }} from '{EW}'\";\n"
        f"const t = `require('{EW}')`;\n"
        "const re = /import \"x\" from 'y'/g;\n"
        "const url = 'http://example.invalid/path'; // a // in a string is no comment\n"
        'import { real } from "real";\n'
        "real();\n"
    )
    assert [(r.line, r.module) for r in scan_imports(source)] == [(8, "real")]


def test_regex_literals_with_quotes_and_slashes_open_no_string() -> None:
    source = (
        "function f(s) { return /it's/.test(s); }\n"
        'const a = x.split(/[/"]/);\n'
        "const b = /* why */ /\\/\\//g;\n"
        "const c = (n) / 2 / 'str'.length;\n"
        "const d = require('after');\n"
    )
    assert [(r.line, r.module) for r in scan_imports(source)] == [(5, "after")]


def test_a_division_is_not_a_regex() -> None:
    source = 'const half = total / 2; const q = a / b;\nconst m = require("after-division");\n'
    assert [r.module for r in scan_imports(source)] == ["after-division"]


def test_require_inside_a_template_expression_is_found() -> None:
    (ref,) = scan_imports("const s = `x ${require('inner')} y`;\n")
    assert (ref.module, ref.kind) == ("inner", "require")


def test_nested_templates_keep_track_of_braces() -> None:
    source = "const s = `a ${ {k: `b ${c}`}.k } d`;\nconst z = require('after');\n"
    assert [(r.line, r.module) for r in scan_imports(source)] == [(2, "after")]


def test_an_unclosed_comment_or_string_does_not_crash() -> None:
    assert scan_imports('/* never closed\nimport { a } from "x";') == []
    assert scan_imports("const s = 'never closed\nrequire('ok');\n")[0].module == "ok"


# ---- scope drift ------------------------------------------------------------------


def test_on_pi_0_73_a_value_import_from_the_new_scope_fails() -> None:
    imports = scan_imports(
        f'import type {{ ExtensionAPI }} from "{EW}";\n'
        f'import {{ getAgentDir }} from "{EW}";\n'
        'import { Text } from "@earendil-works/pi-tui";\n'
        f'import {{ other }} from "{MZ}";\n'
        'import { thing } from "@earendil-works/not-pi";\n'
        "getAgentDir(); Text(); other(); thing();\n"
    )
    drift = scope_drift(imports, OLD)
    assert drift == [
        ScopeDrift(2, EW, MZ, fails_here=True, fails_on=("0.73",)),
        ScopeDrift(3, "@earendil-works/pi-tui", "@mariozechner/pi-tui", True, ("0.73",)),
    ]
    assert MZ in drift[0].fix and "import type" in drift[0].fix


def test_on_pi_1_x_the_old_scope_is_mapped_and_loads_on_every_line() -> None:
    # pi 1.x aliases @mariozechner/pi-* onto its own modules (dist/core/extensions/loader.js).
    imports = scan_imports(f'const {{ x }} = require("{MZ}");\nimport {{ y }} from "{MZ}";\ny();\n')
    assert scope_drift(imports, NEW) == []
    assert scope_drift(imports, OLD) == []


def test_on_pi_1_x_the_new_scope_loads_here_and_fails_on_0_73() -> None:
    imports = scan_imports(f'import {{ getAgentDir }} from "{EW}";\ngetAgentDir();\n')
    [drift] = scope_drift(imports, NEW)
    assert drift == ScopeDrift(1, EW, MZ, fails_here=False, fails_on=("0.73",))
    assert drift.fix.startswith(f'import from "{MZ}" instead of "{EW}"')


def test_the_fix_names_the_old_scope_every_line_loads() -> None:
    assert portable(f"{EW}/dist/foo.js", NEW) == f"{MZ}/dist/foo.js"
    assert portable("@earendil-works/pi-ai/oauth", OLD) == "@mariozechner/pi-ai/oauth"


def test_the_rule_asks_the_table_of_lines() -> None:
    # A line that loaded only the new scope would fail the old one, and vice versa.
    only_new = NEW._replace(name="2.x", scopes=("@earendil-works",))
    imports = scan_imports(f'import {{ a }} from "{MZ}";\na();\n')
    [drift] = scope_drift(imports, only_new, (OLD, only_new))
    assert (drift.fails_here, drift.fails_on) == (True, ("2.x",))
    assert drift.replacement == EW  # no scope loads everywhere: the one this pi loads


def test_no_drift_for_type_unused_or_non_pi_imports() -> None:
    imports = scan_imports(
        f'import type {{ B }} from "{EW}";\n'
        f'import {{ unused }} from "{EW}";\n'
        'import { Type } from "@sinclair/typebox";\n'
        'import { Value } from "typebox/value";\n'
        'import { z } from "@earendil-works/not-pi";\n'
        "Type; Value; z;\n"
    )
    assert scope_drift(imports, OLD) == []
    assert scope_drift(imports, NEW) == []


# ---- flags --------------------------------------------------------------------------


def test_registered_flags_with_either_quote_and_their_lines() -> None:
    source = (
        'pi.registerFlag("plan", { type: "boolean" });\n'
        "pi.registerFlag(\n  'review-mode',\n  {},\n);\n"
        "registerFlag(`tpl`, {});\n"
    )
    assert registered_flags(source) == [
        FlagRef(1, "plan"),
        FlagRef(2, "review-mode"),
        FlagRef(6, "tpl"),
    ]


def test_flags_in_comments_strings_or_computed_are_not_counted() -> None:
    source = (
        '// pi.registerFlag("commented", {});\n'
        '/* pi.registerFlag("block") */\n'
        "const s = \"pi.registerFlag('in-string')\";\n"
        "pi.registerFlag(name, {});\n"
        "pi.registerFlag(`x-${n}`, {});\n"
        "pi.unregisterFlag('other');\n"
    )
    assert registered_flags(source) == []
