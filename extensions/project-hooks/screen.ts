/**
 * The one escaping rule for text that reaches a terminal: the same as ext's
 * (installer/ground/screen.py), held to tests/escape-vectors.json by both test
 * suites. A character is shown as an escape unless it is printable (a tab is
 * kept): C0 and C1 controls, DEL, bidi controls, zero-width and format
 * characters, tags, line and paragraph separators, and the rest of Unicode's
 * "Other" and "Separator" classes but the space.
 *
 * Pure: imports nothing from pi, so tests import it directly.
 */

const UNPRINTABLE = /[\p{C}\p{Z}]/gu;
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
