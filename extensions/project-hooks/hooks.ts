/**
 * Claude Code's hook contract: which hooks an event runs (matchers), what a
 * hook is told (JSON on stdin), and what its answer means (exit code and JSON
 * on stdout). A hook can block; it can never pre-approve.
 *
 * Pure: imports nothing from pi, so tests import it directly.
 */

import type { HookConfig } from "./consent.js";
import type { Outcome } from "./run.js";
import { escape, visible } from "./screen.js";

export const EVENTS = ["PreToolUse", "PostToolUse", "UserPromptSubmit", "SessionStart", "Stop"] as const;
export type EventName = (typeof EVENTS)[number];

/** Events where a hook that cannot answer (timeout, crash) blocks rather than lets things through. */
const FAIL_CLOSED = new Set<EventName>(["PreToolUse", "UserPromptSubmit"]);

/** pi's tool names, as Claude Code's matchers spell them. */
const TOOL_NAMES: Record<string, string> = {
	bash: "Bash",
	read: "Read",
	edit: "Edit",
	write: "Write",
	grep: "Grep",
	find: "Glob",
	ls: "LS",
};

export interface Hook {
	source: string;
	event: EventName;
	matcher: string;
	command: string;
	timeoutS: number | undefined;
}

export interface Selection {
	hooks: Hook[];
	/** Hooks found but not run, and why (type not run here, bad matcher, bad shape). */
	skipped: string[];
}

/** The longest a hook runs, whatever its `timeout` says (Node's timer overflows past 2^31 ms
 * and would fire at once: helper-45). ext's preview says the same (installer/consent/hooks.py). */
export const MAX_TIMEOUT_S = 3600;

/** Why a matcher is not run, or undefined for one that is: a pattern that could take unbounded
 * time on a short subject. A group repeated more than once that holds a repeat or a choice;
 * more than 5 repeats and choices (`*`, `+`, `?`, `{n,m}`, a `|` inside a group) in one
 * top-level alternative, or 12 in all; a back-reference; unbalanced parentheses; over 256
 * UTF-16 units. JavaScript's regular expressions cannot be stopped once started (helper-45:
 * one froze pi at start; helper-50: each bound alone let some by), so the rule is kept
 * narrow, and no matcher is tried before its hooks are approved (index.ts). The same rule
 * as ext's (installer/consent/hooks.py), held to tests/hooks-run-vectors.json by both. */
export function unsafeMatcher(matcher: string): string | undefined {
	if (matcher.length > 256) return "is longer than 256 characters"; // UTF-16 units, as ext counts
	const groups: boolean[] = []; // per open group: whether it repeats or chooses inside
	let here = 0; // repeats and choices in this top-level alternative
	let total = 0; // and in all
	for (let i = 0; i < matcher.length; i++) {
		const c = matcher[i];
		if (c === "\\") {
			if (/[1-9k]/.test(matcher[i + 1] ?? "")) return "refers back to a group";
			i++;
		} else if (c === "[") {
			i++;
			while (i < matcher.length && matcher[i] !== "]") i += matcher[i] === "\\" ? 2 : 1;
		} else if (c === "(") {
			groups.push(false);
		} else if (c === ")") {
			// A `)` with no `(` would close the `^(?:…)$` it is tried in (helper-46).
			if (groups.length === 0) return "is not a balanced pattern";
			const inner = groups.pop() ?? false;
			if (inner && quantifier(matcher, i + 1) === "repeat") return "repeats a group that repeats or chooses inside it";
			if (inner && groups.length > 0) groups[groups.length - 1] = true;
		} else if (c === "|" && groups.length === 0) {
			here = 0; // a top-level alternative is tried on its own (helper-49)
		} else if (c === "|" || (quantifier(matcher, i) !== undefined && !modifies(matcher, i))) {
			here++;
			total++;
			if (groups.length > 0) groups[groups.length - 1] = true;
			if (here > 5 || total > 12) return "repeats or chooses more than 5 times in one alternative, or 12 in all";
		}
	}
	return groups.length > 0 ? "is not a balanced pattern" : undefined;
}

/** What `text[at]` starts: a "repeat" (more than once), a "choice" (once or not), or undefined
 * (not a quantifier, or `{1}`). */
function quantifier(text: string, at: number): "repeat" | "choice" | undefined {
	const c = text[at];
	if (c === "*" || c === "+") return "repeat";
	if (c === "?") return "choice";
	const found = c === "{" ? /^\{(\d*)(,(\d*))?\}/.exec(text.slice(at)) : null;
	if (!found) return undefined;
	const most = found[2] === undefined ? found[1] : found[3];
	if (most === "" || Number(most) > 1) return "repeat";
	return Number(found[1] || 0) === 0 && most !== "0" ? "choice" : undefined;
}

/** Whether a `?` at `at` is syntax, not a choice: `(?:`, `(?=`, or a lazy `*?`. */
function modifies(text: string, at: number): boolean {
	return text[at] === "?" && at > 0 && "(*+?}".includes(text[at - 1]);
}

/** Why a hook's `timeout` is not run, or undefined: absent, or a positive number. */
export function badTimeout(timeout: unknown): string | undefined {
	if (timeout === undefined || timeout === null) return undefined;
	return typeof timeout === "number" && Number.isFinite(timeout) && timeout > 0 ? undefined : "its timeout is not a positive number";
}

/** Claude Code's name for a pi tool (unknown tools keep their own name). */
export function claudeToolName(piName: string): string {
	return TOOL_NAMES[piName] ?? piName;
}

/** Whether a matcher selects `subject`: empty or `*` is everything, else a regex over the whole name. */
export function matches(matcher: string, subject: string): boolean {
	if (matcher === "" || matcher === "*") return true;
	return new RegExp(`^(?:${matcher})$`).test(subject);
}

/** The command hooks an event runs for `subject` (a tool name, a session start source), in config order. */
export function select(config: HookConfig, event: EventName, subject: string | undefined): Selection {
	const hooks: Hook[] = [];
	const skipped: string[] = [];
	for (const [source, events] of Object.entries(config)) {
		const groups = events[event];
		if (groups === undefined) continue;
		if (!Array.isArray(groups)) {
			skipped.push(`${source}: ${event} is not a list of hook groups`);
			continue;
		}
		for (const group of groups as { matcher?: unknown; hooks?: unknown }[]) {
			if (!Array.isArray(group?.hooks)) {
				skipped.push(`${source}: a ${event} group has no "hooks" list`);
				continue;
			}
			const whyNot = groupNotRun(group.matcher);
			if (whyNot !== undefined) {
				// helper-45: a matcher that was no string ran for everything, one that backtracks froze pi
				skipped.push(`${source}: ${event} hooks whose matcher ${whyNot}`);
				continue;
			}
			const matcher = typeof group.matcher === "string" ? group.matcher : "";
			if (subject !== undefined) {
				let hit: boolean;
				try {
					hit = matches(matcher, subject);
				} catch {
					skipped.push(`${source}: ${event} matcher ${JSON.stringify(matcher)} is not a valid pattern`);
					continue;
				}
				if (!hit) continue;
			}
			for (const hook of group.hooks as { type?: unknown; command?: unknown; timeout?: unknown }[]) {
				if (hook?.type !== "command" || typeof hook.command !== "string") {
					const kind = typeof hook?.type === "string" ? hook.type : "untyped";
					skipped.push(`${source}: a ${event} hook of type ${JSON.stringify(kind)} (project-hooks runs only "command" hooks)`);
					continue;
				}
				const timeoutWhy = badTimeout(hook.timeout);
				if (timeoutWhy !== undefined) {
					skipped.push(`${source}: a ${event} hook whose timeout is not a positive number (${JSON.stringify(hook.timeout)})`);
					continue;
				}
				const timeoutS = typeof hook.timeout === "number" ? Math.min(hook.timeout, MAX_TIMEOUT_S) : undefined;
				hooks.push({ source, event, matcher, command: hook.command, timeoutS });
			}
		}
	}
	return { hooks, skipped };
}

/** Why a group's hooks are not run for its matcher (not a pattern, or one that could take
 * unbounded time), or undefined for an absent or runnable one. */
export function groupNotRun(matcher: unknown): string | undefined {
	if (matcher === undefined || matcher === null) return undefined;
	if (typeof matcher !== "string") return "is not a pattern";
	return unsafeMatcher(matcher);
}

/** What one hook said. */
export interface Verdict {
	/** Block the tool call / the prompt / the stop (for Stop: keep going), with this reason. */
	block?: string;
	/** Text to add to what the model sees (PostToolUse, UserPromptSubmit, SessionStart). */
	context?: string;
	/** Something to tell the user (a non-blocking error, an ignored field). */
	notice?: string;
}

/** Read a hook's outcome by Claude Code's contract; a hook never approves anything. */
export function verdict(event: EventName, hook: Hook, outcome: Outcome): Verdict {
	const who = `${event} hook \`${hook.command}\``;
	if (outcome.failure !== undefined || (outcome.code !== undefined && outcome.code >= 126)) {
		const why = outcome.failure ?? `exited ${outcome.code}${outcome.stderr ? `: ${outcome.stderr.trim()}` : ""}`;
		if (FAIL_CLOSED.has(event)) return { block: `${who} ${why}; blocked, since it could not decide.` };
		return { notice: `${who} ${why}.` };
	}
	if (outcome.code === 2) {
		return { block: outcome.stderr.trim() || `${who} blocked this (exit 2).` };
	}
	if (outcome.code !== 0) {
		return { notice: `${who} exited ${outcome.code}${outcome.stderr ? `: ${outcome.stderr.trim()}` : ""}` };
	}
	const answer = parseAnswer(outcome.stdout);
	if (answer === undefined) {
		// Plain stdout: context for the events that take it, else only for the transcript.
		const text = outcome.stdout.trim();
		return text && (event === "UserPromptSubmit" || event === "SessionStart") ? { context: text } : {};
	}
	const specific = (answer.hookSpecificOutput ?? {}) as Record<string, unknown>;
	const reason = str(answer.reason) ?? str(specific.permissionDecisionReason);
	const out: Verdict = {};
	const context = str(specific.additionalContext);
	if (context) out.context = context;
	if (answer.decision === "block" || specific.permissionDecision === "deny") {
		out.block = reason ?? `${who} blocked this.`;
	} else if (answer.continue === false) {
		out.block = str(answer.stopReason) ?? reason ?? `${who} asked to stop.`;
	} else if (answer.decision === "approve" || specific.permissionDecision === "allow") {
		out.notice = `${who} answered "allow": ignored, a project hook can block but never pre-approve.`;
	} else if (specific.permissionDecision === "ask") {
		out.notice = `${who} answered "ask": pi's own rules apply.`;
	}
	return out;
}

function parseAnswer(stdout: string): Record<string, unknown> | undefined {
	const text = stdout.trim();
	if (!text.startsWith("{")) return undefined;
	try {
		const value: unknown = JSON.parse(text);
		return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
	} catch {
		return undefined;
	}
}

function str(value: unknown): string | undefined {
	return typeof value === "string" && value.trim() ? value : undefined;
}

/**
 * Every hook of the config, for the consent dialog, as `ext consent approve` shows it:
 * when it fires (event, matcher, source, timeout), then what it runs, each line of a
 * multi-line command indented under the first. Every string is escaped (screen.ts).
 */
export function describe(config: HookConfig): string[] {
	const lines: string[] = [];
	for (const [source, events] of Object.entries(config)) {
		for (const [event, groups] of Object.entries(events)) {
			// An event that is not a list of groups is shown whole, as not run (select() skips it).
			const listOf = Array.isArray(groups);
			for (const group of listOf ? (groups as { matcher?: unknown; hooks?: unknown }[]) : [groups as { matcher?: unknown; hooks?: unknown }]) {
				const listed = listOf && Array.isArray(group?.hooks) ? (group.hooks as unknown[]) : undefined;
				const named = listed ? group.matcher : undefined;
				const matcher = named === undefined || named === null ? undefined : typeof named === "string" ? named : JSON.stringify(named);
				const notRun = listed ? groupNotRun(named) : undefined;
				for (const hook of listed ?? [group]) lines.push("", ...describeHook(source, event, matcher, hook, notRun && `its matcher ${notRun}`));
			}
		}
	}
	return lines;
}

function describeHook(source: string, event: string, matcher: string | undefined, hook: unknown, notRun?: string): string[] {
	// The matcher in quotes as JSON writes it (a `"` or `\\` escaped): one of its own could
	// otherwise close the quote and draw notes of its choosing after it (helper-79).
	const when = [escape(event), ...(matcher === undefined ? [] : [`matcher "${escape(quoted(matcher))}"`])];
	const notes = [escape(source)];
	const h = (typeof hook === "object" && hook !== null ? hook : {}) as Record<string, unknown>;
	const text = h.type === "command" ? h.command : h.prompt;
	const timeoutOk = h.timeout === undefined || h.timeout === null || typeof h.timeout === "number";
	let shown: string;
	let marker = "$";
	if (typeof hook !== "object" || hook === null || typeof h.type !== "string" || typeof text !== "string" || !timeoutOk) {
		shown = JSON.stringify(hook) ?? String(hook);
		notes.push("not in the usual hooks format; shown as written");
		marker = ">";
	} else {
		shown = text;
		if (typeof h.timeout === "number") notes.push(`timeout ${shownTimeout(h.timeout)} s`);
		if (h.type !== "command") {
			notes.push(`${escape(h.type)} hook, not run here`);
			marker = ">";
		}
		// What select() passes over is shown as not run, never as a hook that runs (helper-45).
		const why = notRun ?? (h.type === "command" ? badTimeout(h.timeout) : undefined);
		if (why !== undefined && marker === "$") {
			notes.push(`not run: ${escape(why)}`);
			marker = ">";
		}
	}
	const [first, ...rest] = visible(shown).split("\n");
	return [`  ${when.join("  ")}  (${notes.join(", ")})`, `    ${marker} ${first}`, ...rest.map((line) => `      ${line}`)];
}

/** A timeout as it is used: at most MAX_TIMEOUT_S. */
function shownTimeout(timeout: number): string {
	return timeout > MAX_TIMEOUT_S ? `${MAX_TIMEOUT_S} (of ${timeout})` : String(timeout);
}

const MAX_DIFF_CELLS = 4_000_000;
export const TOO_LONG = "  (too long to show here: `ext consent approve` shows the diff)";

/** A line diff (approved -> current) of two texts: "-", "+" and " " lines, by longest common subsequence. */
export function lineDiff(before: string, after: string): string[] {
	const a = before.split("\n");
	const b = after.split("\n");
	// The table is a × b cells: past this, two configs near the cap would stall pi's start.
	if ((a.length + 1) * (b.length + 1) > MAX_DIFF_CELLS) return [TOO_LONG];
	const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
	for (let i = a.length - 1; i >= 0; i--) {
		for (let j = b.length - 1; j >= 0; j--) {
			lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
		}
	}
	const out: string[] = [];
	let i = 0;
	let j = 0;
	while (i < a.length || j < b.length) {
		if (i < a.length && j < b.length && a[i] === b[j]) {
			out.push(`  ${a[i]}`);
			i++;
			j++;
		} else if (j < b.length && (i === a.length || lcs[i][j + 1] >= lcs[i + 1][j])) {
			out.push(`+ ${b[j++]}`);
		} else {
			out.push(`- ${a[i++]}`);
		}
	}
	return out;
}

/** `text` as the inside of a JSON string: `\\` and `"` escaped, as the settings file spells it. */
function quoted(text: string): string {
	return text.replace(/[\\"]/g, (c) => `\\${c}`);
}
