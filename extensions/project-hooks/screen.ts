/**
 * The one escaping rule for text that reaches a terminal: the same as ext's
 * (installer/ground/screen.py), held to tests/escape-vectors.json by both test
 * suites. A character is shown as an escape unless it is printable (a tab is
 * kept): C0 and C1 controls, DEL, bidi controls, zero-width and format
 * characters, tags, line and paragraph separators, the rest of Unicode's
 * "Other" and "Separator" classes but the space, and the characters that draw as
 * nothing or a blank (variation selectors, Hangul fillers, the braille blank).
 *
 * Pure: imports nothing from pi, so tests import it directly.
 */

// Unicode's Other and Separator classes, and what draws as nothing or a blank though Python
// calls it printable (installer/ground/screen.py's BLANKS; helper-54).
const UNPRINTABLE = /[\p{C}\p{Z}\u034F\u115F\u1160\u17B4\u17B5\u180B-\u180D\u180F\u2800\u3164\uFE00-\uFE0F\uFFA0\u{E0100}-\u{E01EF}]/gu;
const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\u001b": "\\x1b" };

/** text on one line, with every character a terminal could act on shown as an escape. */
export function escape(text: string): string {
	return text.replace(UNPRINTABLE, (c) => (c === " " || c === "\t" ? c : escaped(c)));
}

/** text escaped as `escape` does, line by line: its newlines are kept, for indenting. */
export function visible(text: string): string {
	return text.split("\n").map(escape).join("\n");
}

function escaped(c: string): string {
	const named = NAMED[c];
	if (named) return named;
	const code = c.codePointAt(0) ?? 0;
	if (code < 0x100) return `\\x${hex(code, 2)}`;
	return code < 0x10000 ? `\\u${hex(code, 4)}` : `\\U${hex(code, 8)}`;
}

function hex(code: number, width: number): string {
	return code.toString(16).padStart(width, "0");
}

/** A value as one word to paste into a POSIX shell, as ext's fixes write it
 * (installer/ground/shellword.py): bare when plain, in single quotes, or as `$'…'` when it holds
 * a character `escape` would show as an escape (in quotes that escape would be pasted as is). */
export function shellWord(text: string): string {
	if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(text)) return text;
	if (escape(text) === text && !text.includes("\t")) return `'${text.replaceAll("'", "'\\''")}'`;
	const inner = [...text]
		.map((c) => {
			if (c === "\\" || c === "'") return `\\${c}`;
			if (c === "\t") return "\\t";
			if (c === " ") return c;
			const shown = escape(c);
			if (shown === c) return c;
			const code = c.codePointAt(0) ?? 0;
			if (code < 0x20 || code === 0x7f) return shown; // \n, \r, \x1b, \xNN: bash reads them so
			// Its UTF-8 bytes: bash reads `\u200b` only in a UTF-8 locale, `\xe2\x80\x8b` in any.
			return [...Buffer.from(c, "utf8")].map((b) => `\\x${hex(b, 2)}`).join("");
		})
		.join("");
	return `$'${inner}'`;
}
