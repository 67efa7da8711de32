/**
 * confirm-destructive: asks before the agent runs a bash command that is hard
 * to undo, and blocks it when there is nobody to ask (print/JSON mode). It
 * also asks before /new, /resume or /fork would drop a session that is not
 * saved (pi started with --no-session).
 *
 * The matcher reads the command the way a shell splits it (quotes, `;` `&&`
 * `|`, `$(…)`, `bash -c '…'`, redirections), so `git commit -m "drop rm -rf"`
 * is not a match while `find . -exec rm -rf {} +` is. A false match costs one
 * question; the list is in RULES.
 *
 * Everything above the default export is pure and imports nothing from pi, so
 * tests import this file directly.
 */

import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";

export type RuleId =
	| "rm-recursive"
	| "sudo"
	| "chmod-recursive"
	| "chmod-777"
	| "dd"
	| "mkfs"
	| "git-push-force"
	| "git-reset-hard"
	| "git-clean"
	| "dev-write"
	| "truncate-zero"
	| "find-delete";

export interface Match {
	rule: RuleId;
	label: string;
}

/** The documented list: what is asked about, in the words the dialog uses. */
export const RULES: Readonly<Record<RuleId, string>> = {
	"rm-recursive": "recursive delete (rm -r / -R / --recursive)",
	sudo: "runs as root (sudo, doas, pkexec)",
	"chmod-recursive": "recursive permission or owner change (chmod/chown/chgrp -R)",
	"chmod-777": "world-writable permissions (chmod 777, a+rwx)",
	dd: "raw disk copy (dd if=… / of=…)",
	mkfs: "formats a filesystem (mkfs, mke2fs, mkswap, wipefs)",
	"git-push-force": "rewrites a remote branch (git push --force / -f / +refspec)",
	"git-reset-hard": "discards uncommitted changes (git reset --hard)",
	"git-clean": "deletes untracked files (git clean -f)",
	"dev-write": "writes to a device (> /dev/…, tee /dev/…)",
	"truncate-zero": "empties a file (truncate -s 0)",
	"find-delete": "deletes what find matches (find … -delete)",
};

/** Device paths that are safe to write to; every other /dev/* write is a match. */
const SAFE_DEV = /^\/dev\/(null|zero|stdin|stdout|stderr|tty|fd\/\d+|pts\/\d+|shm\/.*)$/;
const WRITE_REDIRECTS = new Set([">", ">>", ">|", "&>", "&>>", "<>", ">&"]);
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "fish"]);
const MAX_DEPTH = 4;

interface Word {
	text: string;
	quoted: boolean;
}

type Token = { kind: "word"; word: Word } | { kind: "op"; op: string } | { kind: "redirect"; op: string };

interface Segment {
	words: Word[];
	redirects: { op: string; target: string }[];
}

/** The first rule that `command` matches, or undefined when it looks safe. */
export function findDestructive(command: string, depth = 0): Match | undefined {
	if (depth > MAX_DEPTH) return undefined;
	const nested: string[] = [];
	const tokens = lex(command, nested);
	for (const segment of segments(tokens)) {
		const rule = checkSegment(segment, depth);
		if (rule) return { rule, label: RULES[rule] };
	}
	for (const inner of nested) {
		const match = findDestructive(inner, depth + 1);
		if (match) return match;
	}
	return undefined;
}

// ---------------------------------------------------------------- lexer

/** Split shell source into words, operators and redirections; `$(…)`/backtick bodies go to `nested`. */
function lex(src: string, nested: string[]): Token[] {
	const tokens: Token[] = [];
	const heredocs: { delimiter: string; strip: boolean; expand: boolean }[] = [];
	let text = "";
	let quoted = false;
	let inWord = false;
	let expectHeredoc: { strip: boolean } | undefined;

	const endWord = () => {
		if (!inWord) return;
		if (expectHeredoc) {
			heredocs.push({ delimiter: text, strip: expectHeredoc.strip, expand: !quoted });
			expectHeredoc = undefined;
		} else {
			tokens.push({ kind: "word", word: { text, quoted } });
		}
		text = "";
		quoted = false;
		inWord = false;
	};
	const add = (s: string) => {
		text += s;
		inWord = true;
	};

	let i = 0;
	while (i < src.length) {
		const c = src[i] as string;
		const next = src[i + 1];
		if (c === " " || c === "\t" || c === "\r") {
			endWord();
			i++;
		} else if (c === "\n") {
			endWord();
			tokens.push({ kind: "op", op: ";" });
			i++;
			if (heredocs.length > 0) i = skipHeredocBodies(src, i, heredocs.splice(0), nested);
		} else if (c === "#" && !inWord) {
			while (i < src.length && src[i] !== "\n") i++;
		} else if (c === "\\") {
			if (next === "\n") i += 2;
			else {
				add(next ?? "");
				quoted = true;
				i += 2;
			}
		} else if (c === "'") {
			const end = src.indexOf("'", i + 1);
			const stop = end === -1 ? src.length : end;
			add(src.slice(i + 1, stop));
			quoted = true;
			i = stop + 1;
		} else if (c === '"') {
			i = readDoubleQuoted(src, i + 1, nested, add);
			quoted = true;
		} else if (c === "$" && next === "(") {
			const [inner, end] = readBalanced(src, i + 2);
			nested.push(inner);
			add(src.slice(i, end));
			i = end;
		} else if (c === "`") {
			const end = src.indexOf("`", i + 1);
			const stop = end === -1 ? src.length : end;
			nested.push(src.slice(i + 1, stop));
			add(src.slice(i, stop + 1));
			i = stop + 1;
		} else if (c === ">" || c === "<" || (c === "&" && next === ">")) {
			// `2>` or `10>`: the digits name a file descriptor, not a word.
			if (inWord && !quoted && /^\d+$/.test(text)) {
				text = "";
				inWord = false;
			}
			endWord();
			const op = readRedirect(src, i);
			if (op === "<<" || op === "<<-") expectHeredoc = { strip: op === "<<-" };
			tokens.push({ kind: "redirect", op });
			i += op.length;
		} else if (c === ";" || c === "&" || c === "|" || c === "(" || c === ")") {
			endWord();
			const two = c + (next ?? "");
			const op = ["&&", "||", ";;", "|&"].includes(two) ? two : c;
			tokens.push({ kind: "op", op });
			i += op.length;
		} else {
			add(c);
			i++;
		}
	}
	endWord();
	return tokens;
}

function readRedirect(src: string, i: number): string {
	for (const op of ["&>>", "<<<", "<<-", "&>", ">>", ">|", ">&", "<<", "<&", "<>", ">", "<"]) {
		if (src.startsWith(op, i)) return op;
	}
	return src[i] as string;
}

function readDoubleQuoted(src: string, start: number, nested: string[], add: (s: string) => void): number {
	let i = start;
	let out = "";
	while (i < src.length && src[i] !== '"') {
		const c = src[i] as string;
		if (c === "\\" && i + 1 < src.length) {
			out += src[i + 1];
			i += 2;
		} else if (c === "$" && src[i + 1] === "(") {
			const [inner, end] = readBalanced(src, i + 2);
			nested.push(inner);
			out += src.slice(i, end);
			i = end;
		} else if (c === "`") {
			const end = src.indexOf("`", i + 1);
			const stop = end === -1 ? src.length : end;
			nested.push(src.slice(i + 1, stop));
			out += src.slice(i, stop + 1);
			i = stop + 1;
		} else {
			out += c;
			i++;
		}
	}
	add(out);
	return i + 1;
}

/** The text up to the `)` that closes an already opened `(`, and the index after it. */
function readBalanced(src: string, start: number): [string, number] {
	let depth = 1;
	let i = start;
	while (i < src.length) {
		const c = src[i];
		if (c === "\\") i += 2;
		else if (c === "'" || c === '"') {
			const end = src.indexOf(c, i + 1);
			i = end === -1 ? src.length : end + 1;
		} else if (c === "(") {
			depth++;
			i++;
		} else if (c === ")") {
			depth--;
			if (depth === 0) return [src.slice(start, i), i + 1];
			i++;
		} else i++;
	}
	return [src.slice(start), src.length];
}

/** Step over here-document bodies; substitutions in an unquoted one still run, so they are kept. */
function skipHeredocBodies(
	src: string,
	start: number,
	docs: { delimiter: string; strip: boolean; expand: boolean }[],
	nested: string[],
): number {
	let i = start;
	for (const doc of docs) {
		const body: string[] = [];
		while (i < src.length) {
			const eol = src.indexOf("\n", i);
			const stop = eol === -1 ? src.length : eol;
			const line = src.slice(i, stop);
			i = stop + 1;
			if ((doc.strip ? line.replace(/^\t+/, "") : line) === doc.delimiter) break;
			body.push(line);
		}
		if (doc.expand) collectSubstitutions(body.join("\n"), nested);
	}
	return Math.min(i, src.length);
}

function collectSubstitutions(text: string, nested: string[]): void {
	let i = 0;
	while (i < text.length) {
		if (text.startsWith("$(", i)) {
			const [inner, end] = readBalanced(text, i + 2);
			nested.push(inner);
			i = end;
		} else if (text[i] === "`") {
			const end = text.indexOf("`", i + 1);
			const stop = end === -1 ? text.length : end;
			nested.push(text.slice(i + 1, stop));
			i = stop + 1;
		} else i++;
	}
}

function segments(tokens: Token[]): Segment[] {
	const out: Segment[] = [];
	let current: Segment = { words: [], redirects: [] };
	for (let i = 0; i < tokens.length; i++) {
		const token = tokens[i] as Token;
		if (token.kind === "op") {
			out.push(current);
			current = { words: [], redirects: [] };
		} else if (token.kind === "redirect") {
			const target = tokens[i + 1];
			if (target?.kind === "word") {
				current.redirects.push({ op: token.op, target: target.word.text });
				i++;
			}
		} else {
			current.words.push(token.word);
		}
	}
	out.push(current);
	return out.filter((s) => s.words.length > 0 || s.redirects.length > 0);
}

// ---------------------------------------------------------------- rules

function isDeviceWrite(path: string): boolean {
	return path.startsWith("/dev/") && !SAFE_DEV.test(path);
}

/** Whether a short-option bundle (`-rf`) before `--` holds one of `letters`, or a long option is present. */
function hasOption(args: string[], letters: string, long: string[] = []): boolean {
	for (const arg of args) {
		if (arg === "--") return false;
		if (long.some((l) => arg === l || arg.startsWith(`${l}=`))) return true;
		if (/^-[A-Za-z0-9]+$/.test(arg) && [...arg.slice(1)].some((ch) => letters.includes(ch))) return true;
	}
	return false;
}

function commandName(word: Word): string {
	return word.text.slice(word.text.lastIndexOf("/") + 1);
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * Commands that run the command named by a later word, with the short options
 * of theirs that take a separate value (so `xargs -I {} rm -r {}` finds `rm`).
 */
const WRAPPERS: Readonly<Record<string, string>> = {
	busybox: "",
	builtin: "",
	command: "",
	env: "uCS",
	exec: "a",
	ionice: "cnp",
	nice: "n",
	nohup: "",
	setsid: "",
	stdbuf: "ioe",
	time: "fo",
	timeout: "sk",
	watch: "nd",
	xargs: "adEIlLnPs",
};

/** Index of the command a wrapper at `at` runs, or -1. */
function wrappedCommand(name: string, words: Word[], at: number): number {
	const withValue = WRAPPERS[name];
	if (withValue === undefined) return -1;
	let i = at;
	while (i < words.length) {
		const text = (words[i] as Word).text;
		if (text === "--") return i + 1;
		if (name === "env" && ASSIGNMENT.test(text)) i++;
		else if (/^-[A-Za-z]$/.test(text) && withValue.includes(text[1] as string)) i += 2;
		else if (text.startsWith("-") && text.length > 1) i++;
		else break;
	}
	// `timeout 10 cmd`: the first operand is the duration.
	return name === "timeout" ? i + 1 : i;
}

/** Indexes of the words that a shell would run as commands in one simple command. */
function commandPositions(words: Word[]): number[] {
	const positions: number[] = [];
	let i = 0;
	while (i < words.length) {
		while (i < words.length && ASSIGNMENT.test((words[i] as Word).text)) i++;
		if (i >= words.length) break;
		positions.push(i);
		i = wrappedCommand(commandName(words[i] as Word), words, i + 1);
		if (i === -1) break;
	}
	words.forEach((w, j) => {
		if (/^-(exec|execdir|ok|okdir)$/.test(w.text) && j + 1 < words.length) positions.push(j + 1);
	});
	return positions;
}

function checkSegment(segment: Segment, depth: number): RuleId | undefined {
	for (const { op, target } of segment.redirects) {
		if (WRITE_REDIRECTS.has(op) && isDeviceWrite(target)) return "dev-write";
	}
	const words = segment.words;
	for (const at of commandPositions(words)) {
		const args = words.slice(at + 1).map((w) => w.text);
		const rule = checkCommand(commandName(words[at] as Word), args, depth);
		if (rule) return rule;
	}
	return undefined;
}

function checkCommand(name: string, args: string[], depth: number): RuleId | undefined {
	switch (name) {
		case "sudo":
		case "doas":
		case "pkexec":
			return "sudo";
		case "rm":
			return hasOption(args, "rR", ["--recursive"]) ? "rm-recursive" : undefined;
		case "chmod":
		case "chown":
		case "chgrp":
			if (hasOption(args, "R", ["--recursive"])) return "chmod-recursive";
			if (name === "chmod" && args.some((a) => /^0?777$|^(a|ugo)\+rwx$/.test(a))) return "chmod-777";
			return undefined;
		case "dd":
			return args.some((a) => a.startsWith("if=") || a.startsWith("of=")) ? "dd" : undefined;
		case "mke2fs":
		case "mkswap":
		case "wipefs":
			return "mkfs";
		case "git":
			return checkGit(args);
		case "truncate":
			return truncatesToZero(args) ? "truncate-zero" : undefined;
		case "tee":
			return args.some((a) => isDeviceWrite(a)) ? "dev-write" : undefined;
		case "find":
			return args.includes("-delete") ? "find-delete" : undefined;
		case "eval":
			return findDestructive(args.join(" "), depth + 1)?.rule;
		default:
			if (name === "mkfs" || name.startsWith("mkfs.")) return "mkfs";
			if (SHELLS.has(name)) return checkShellScript(args, depth);
			return undefined;
	}
}

function checkShellScript(args: string[], depth: number): RuleId | undefined {
	const flag = args.findIndex((a) => /^-[A-Za-z]*c[A-Za-z]*$/.test(a));
	const script = flag === -1 ? undefined : args[flag + 1];
	return script === undefined ? undefined : findDestructive(script, depth + 1)?.rule;
}

const GIT_OPTIONS_WITH_VALUE = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env"]);

function checkGit(args: string[]): RuleId | undefined {
	let i = 0;
	while (i < args.length && (args[i] as string).startsWith("-")) {
		i += GIT_OPTIONS_WITH_VALUE.has(args[i] as string) ? 2 : 1;
	}
	const sub = args[i];
	const rest = args.slice(i + 1);
	if (sub === "push") {
		const force = hasOption(rest, "f", ["--force", "--force-with-lease"]);
		const plusRefspec = rest.some((a) => a.startsWith("+") && a.length > 1);
		return force || plusRefspec ? "git-push-force" : undefined;
	}
	if (sub === "reset") return rest.includes("--hard") ? "git-reset-hard" : undefined;
	if (sub === "clean") return hasOption(rest, "f", ["--force"]) ? "git-clean" : undefined;
	return undefined;
}

function truncatesToZero(args: string[]): boolean {
	for (let i = 0; i < args.length; i++) {
		const a = args[i] as string;
		if (a === "-s0" || a === "--size=0") return true;
		if ((a === "-s" || a === "--size") && args[i + 1] === "0") return true;
	}
	return false;
}

// ---------------------------------------------------------------- extension

function userMessageCount(ctx: ExtensionContext): number {
	return ctx.sessionManager
		.getEntries()
		.filter((e) => e.type === "message" && (e as { message?: { role?: string } }).message?.role === "user").length;
}

export default function (pi: ExtensionAPI) {
	pi.registerFlag("no-confirm-destructive", {
		description: "Run destructive bash commands without asking (this session only)",
		type: "boolean",
		default: false,
	});
	pi.registerFlag("confirm-destructive-block", {
		description: "Block destructive bash commands without asking, even with a UI (unattended runs)",
		type: "boolean",
		default: false,
	});

	const off = () => pi.getFlag("no-confirm-destructive") === true;

	pi.on("tool_call", async (event, ctx) => {
		if (event.toolName !== "bash" || off()) return undefined;
		const command = String((event.input as { command?: unknown }).command ?? "");
		const match = findDestructive(command);
		if (!match) return undefined;
		const tail = "Do not retry it another way; tell the user what you wanted to run and why.";
		if (pi.getFlag("confirm-destructive-block") === true) {
			return { block: true, reason: `confirm-destructive blocked a ${match.label} (--confirm-destructive-block). ${tail}` };
		}
		if (!ctx.hasUI) {
			return { block: true, reason: `confirm-destructive blocked a ${match.label}: no UI to ask. ${tail}` };
		}
		const ok = await ctx.ui.confirm(`Run a destructive command? ${match.label}`, command);
		return ok ? undefined : { block: true, reason: `The user declined this ${match.label}. ${tail}` };
	});

	// A saved session survives /new, /resume and /fork; one started with --no-session does not.
	const confirmLeaving = async (ctx: ExtensionContext, verb: string) => {
		if (off() || !ctx.hasUI || ctx.sessionManager.getSessionFile() !== undefined) return undefined;
		const count = userMessageCount(ctx);
		if (count === 0) return undefined;
		const ok = await ctx.ui.confirm(
			"Leave an unsaved session?",
			`This session is not saved (--no-session); ${verb} loses its ${count} message${count === 1 ? "" : "s"}.`,
		);
		return ok ? undefined : { cancel: true };
	};
	pi.on("session_before_switch", async (event, ctx) =>
		confirmLeaving(ctx, event.reason === "new" ? "/new" : "/resume"),
	);
	pi.on("session_before_fork", async (_event, ctx) => confirmLeaving(ctx, "/fork"));
}
