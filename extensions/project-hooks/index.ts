/**
 * project-hooks: runs a project's Claude-Code-style hooks (`.claude/settings.json`,
 * `.claude/settings.local.json`, `.pi/hooks.json`) inside pi: PreToolUse,
 * PostToolUse, UserPromptSubmit, SessionStart and Stop, with Claude Code's
 * matchers, JSON input on stdin and exit-code/JSON answers.
 *
 * Nothing runs without consent: the project's hook configuration must hash to
 * the value `ext consent approve` recorded (the same sha256, the same store).
 * An unknown or changed configuration is shown in full (with the diff against
 * the approved one) and asked about; "yes" is recorded through `ext` (so it is
 * journaled and `ext undo` takes it back), "no" lasts for this session. With
 * no one to ask (print mode) unapproved hooks do not run, and pi says so once.
 */

import { execFile } from "node:child_process";
import { randomInt } from "node:crypto";
import { accessSync, constants, fstatSync, realpathSync } from "node:fs";
import { delimiter, isAbsolute, join, resolve as absolute, sep } from "node:path";
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { type Approval, agentDir, canonical, type HookConfig, hookHash, projectConfig, projectKey, readStore } from "./consent.js";
import { claudeToolName, describe, type EventName, lineDiff, select, type Verdict, verdict } from "./hooks.js";
import { escape, shellWord, visible } from "./screen.js";
import { readCapped } from "./files.js";
import { DEFAULT_TIMEOUT_S, runHook } from "./run.js";

const RECORD_TIMEOUT_MS = 60_000;
/** What a yes approves, as `ext consent approve` says it (installer/render/consent.py). */
export const COVERS =
	"The approval covers these definitions only, not the scripts they call, the environment they run with, or what PATH finds: a change to those is not asked about again.";
/** The rows pi's dialog and screen take beside its title and message: Yes and No (or the
 * input line), borders, the editor and footer below (counted high: a message that would not
 * fit is never shown). */
const DIALOG_ROWS = 13;
const TITLE = "Run this project's hooks?";
/** pi started for a program (`--mode rpc` or `json`): its client answers pi's confirm, even with
 * pi's input a terminal (`pi --mode rpc | jq`: helper-68). */
const SCRIPTED = ((argv: string[]) => {
	const at = argv.indexOf("--mode");
	const mode = at >= 0 ? argv[at + 1] : argv.find((a) => a.startsWith("--mode="))?.slice(7);
	return mode === "rpc" || mode === "json";
})(process.argv);

/** Whether `lines` fit pi's confirm dialog whole on a terminal of `columns` x `rows`. */
export function fitsScreen(lines: string[], columns: number, rows: number): boolean {
	const width = Math.max(1, columns - 6);
	let used = 0;
	for (const line of [TITLE, ...lines]) used += wrappedRows(line, width);
	return used <= rows - DIALOG_ROWS;
}

/** The rows pi-tui's Text takes for `line` at `width` cells, or more, never fewer: it wraps
 * word by word (a run of spaces, U+0020 only, is where a row may end, dropped there; a word
 * wider than a row is cut), so a line of words just over half a row wide takes a row per
 * word, not cells / width (helper-54: a hook hid below the screen, Yes under the cursor).
 * pi 1.x also ends a word at each CJK character, pi 0.73 does not: the larger of the two.
 * A tab is three spaces, as pi-tui's Text draws it; widths are counted high: a character from
 * U+1100 on as 2, a zero-width one as 1. Held to pi-tui's own Text on each pi by tests/ts/project-hooks.test.mjs. */
export function wrappedRows(text: string, width: number): number {
	const line = text.replace(/\t/g, "   "); // as pi-tui's Text draws a tab, before it wraps
	return Math.max(rowsOf(line.match(/ +|[^ ]+/gu) ?? [], width), rowsOf(line.match(CJK_WORDS) ?? [], width));
}

/** pi 1.x's words (pi-tui's cjkBreakRegex): each CJK character one, spaces and the rest as above. */
const CJK_WORDS = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}\p{scx=Bopomofo}]| +|[^ \p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}\p{scx=Bopomofo}]+/gu;

function rowsOf(tokens: string[], width: number): number {
	let rows = 1;
	let used = 0;
	for (const token of tokens) {
		const chars = [...token];
		const cells = chars.reduce((sum, c) => sum + cellsOf(c), 0);
		const space = token.startsWith(" ");
		if (!space && cells > width) {
			if (used > 0) rows += 1;
			used = 0;
			for (const c of chars) {
				if (used + cellsOf(c) > width) {
					rows += 1;
					used = 0;
				}
				used += cellsOf(c);
			}
		} else if (used > 0 && used + cells > width) {
			rows += 1;
			used = space ? 0 : cells;
		} else {
			used += cells;
		}
	}
	return rows;
}

function cellsOf(c: string): number {
	return (c.codePointAt(0) ?? 0) >= 0x1100 ? 2 : 1;
}

/** Stop hooks may keep the agent going; this many times in a row at most. */
const MAX_STOP_CONTINUATIONS = 3;

export default function (pi: ExtensionAPI) {
	pi.registerFlag("no-project-hooks", {
		description: "Run no project hooks (.claude/settings.json …) this session",
		type: "boolean",
		default: false,
	});

	// hash -> the answer that holds for this session: every "no", and a "yes" that could not be
	// recorded. A recorded "yes" lives in the store alone, so `ext consent revoke` ends it at once.
	const decided = new Map<string, boolean>();
	const asking = new Map<string, Promise<boolean>>();
	const said = new Set<string>();
	let sessionContext: string[] = [];
	let continuations = 0;

	// Every notice goes out escaped: it may carry a path, a hook's stderr or a parse error.
	const say = (ctx: ExtensionContext, text: string) => {
		const message = escape(text);
		if (said.has(message)) return;
		said.add(message);
		if (ctx.hasUI) ctx.ui.notify(message, "warning");
		else process.stderr.write(`${message}\n`);
	};

	/** The project's config when its hooks may run now, after asking if need be. */
	const consented = async (ctx: ExtensionContext, config: HookConfig): Promise<boolean> => {
		const hash = hookHash(config);
		if (hash === undefined) return false;
		const known = decided.get(hash);
		if (known !== undefined) return known;
		const key = projectKey(ctx.cwd);
		let held: Approval | undefined;
		try {
			const store = readStore(agentDir());
			if (store.unsafe) {
				// No approval can be read or recorded until the store is safe: not asked, nor told
				// to approve (helper-45: the approve it named failed while the store was unsafe).
				say(ctx, `project-hooks: ${store.unsafe}, so the approvals store holds no approvals; no hooks run. Run \`ext consent list\` for the fix.`);
				return false;
			}
			held = store.approvals[key];
		} catch (error) {
			say(ctx, `project-hooks: cannot read the approvals store (${(error as Error).message}); no hooks run. Run \`ext consent list\` for the fix.`);
			return false;
		}
		if (held?.sha256 === hash) return true;
		if (!ctx.hasUI) {
			const state = held ? "changed since they were approved" : "have never been approved";
			say(ctx, `project-hooks: the hooks in ${key} ${state}, so they do not run. Review and approve them with: ${approveCommand(key)}`);
			return false;
		}
		let pending = asking.get(hash);
		if (!pending) {
			pending = ask(ctx, key, config, hash, held).finally(() => asking.delete(hash));
			asking.set(hash, pending);
		}
		return pending;
	};

	const ask = async (ctx: ExtensionContext, key: string, config: HookConfig, hash: string, held: Approval | undefined) => {
		const lines = [
			`Hooks in ${escape(key)} (${hash.slice(7, 19)}).`, // each hook's line names its file
			"They run as you, whenever the agent acts in this project:",
			...describe(config),
			"",
			COVERS,
		];
		if (held) {
			lines.push("", `Changed since the approval on ${held.approved_at}:`);
			lines.push(...diffOf(held.config, config));
		}
		// pi's full screen takes the keys whenever its input is a terminal, its output piped too
		// (pi 0.73 then draws into the pipe: helper-66); rpc reads its input from a pipe.
		const interactive = !SCRIPTED && (process.stdin.isTTY === true || process.stdout.isTTY === true);
		const screen = process.stdout.isTTY ? { columns: process.stdout.columns, rows: process.stdout.rows } : undefined;
		const code = interactive ? String(randomInt(1000, 10000)) : undefined;
		if (code) lines.push(`To run them, type ${code}, then Enter (anything else: no).`);
		if (interactive && !(screen && fitsScreen(lines, screen.columns, screen.rows))) {
			// pi 1.x clips a message taller than the screen; piped, its size is unknown: an answer
			// could approve hooks never shown. Not asked here, so none is approved unseen.
			// the terminal is too small, not the hooks too long (helper-70: three one-line hooks)
			const why = screen ? `hooks too many or too long to show whole in this ${screen.columns}x${screen.rows} terminal` : "pi's output is no terminal, so its hooks cannot be shown whole here";
			say(ctx, `project-hooks: ${why}, so they do not run: those in ${key}. Review and approve them in a shell: ${approveCommand(key)}`);
			return false;
		}
		const answer = await asked(ctx, lines.join("\n"), code);
		const yes = answer === true;
		const failed = yes ? await record(key, hash) : undefined;
		if (!yes || failed !== undefined) decided.set(hash, yes);
		// a typo reads otherwise as a no (helper-70); what was typed is not repeated
		const typo = answer === "typed" ? " (what was typed is not the code)" : "";
		if (!yes) say(ctx, `project-hooks: not approved${typo}, so the hooks in ${key} do not run in this session. To approve them: ${approveCommand(key)}`);
		if (yes && failed === undefined && code) ctx.ui.notify(`project-hooks: approved, so the hooks in ${key} run from now on (\`ext consent revoke\` ends it)`, "info");
		if (failed !== undefined) {
			say(ctx, `project-hooks: approved for this session only; recording it failed (${failed}). Record it with: ${approveCommand(key)}`);
		}
		return yes;
	};

	/** The config, when hooks of `event` for `subject` would run and may (consent asked when needed). */
	const gate = async (ctx: ExtensionContext, event: EventName, subject: string | undefined) => {
		if (pi.getFlag("no-project-hooks") === true) return undefined;
		let config: HookConfig;
		try {
			config = projectConfig(ctx.cwd);
		} catch (error) {
			say(ctx, `project-hooks: cannot read the hooks of ${ctx.cwd} (${(error as Error).message}); none run. \`ext consent check\` says more.`);
			return undefined;
		}
		// No matcher of a project is tried before its hooks are approved: a pattern can run
		// without end, and JavaScript cannot stop it (helper-45, helper-50). Consent is asked
		// for the event's hooks whatever they match; the matchers, once approved, choose.
		const found = select(config, event, undefined);
		for (const why of found.skipped) say(ctx, `project-hooks: skipped ${why}`);
		if (found.hooks.length === 0) return undefined;
		if (distrusted(ctx)) {
			say(ctx, `project-hooks: pi does not trust ${ctx.cwd}, so its hooks do not run (not asked about). Trust it with /trust, or start pi with --approve.`);
			return undefined;
		}
		if (!(await consented(ctx, config))) return undefined;
		if (subject === undefined) return found.hooks;
		const { hooks, skipped } = select(config, event, subject);
		for (const why of skipped) if (!found.skipped.includes(why)) say(ctx, `project-hooks: skipped ${why}`);
		return hooks.length > 0 ? hooks : undefined;
	};

	/** Run the hooks of an event in order; the verdicts, stopping at the first block. */
	const fire = async (ctx: ExtensionContext, event: EventName, subject: string | undefined, input: Record<string, unknown>) => {
		const hooks = await gate(ctx, event, subject);
		const verdicts: Verdict[] = [];
		if (!hooks) return verdicts;
		const payload = JSON.stringify({
			session_id: ctx.sessionManager.getSessionId(),
			transcript_path: ctx.sessionManager.getSessionFile() ?? null,
			cwd: ctx.cwd,
			permission_mode: "default",
			hook_event_name: event,
			...input,
		});
		const env = { ...process.env, CLAUDE_PROJECT_DIR: ctx.cwd };
		for (const hook of hooks) {
			const outcome = await runHook(hook.command, payload, { cwd: ctx.cwd, env, timeoutS: hook.timeoutS ?? DEFAULT_TIMEOUT_S });
			const found = verdict(event, hook, outcome);
			if (found.notice) say(ctx, `project-hooks: ${found.notice}`);
			verdicts.push(found);
			if (found.block !== undefined) break;
		}
		return verdicts;
	};

	const blockOf = (verdicts: Verdict[]) => verdicts.find((v) => v.block !== undefined)?.block;
	const contextOf = (verdicts: Verdict[]) => verdicts.flatMap((v) => (v.context ? [v.context] : []));

	pi.on("session_start", async (event, ctx) => {
		decided.clear();
		asking.clear();
		said.clear();
		sessionContext = [];
		continuations = 0;
		const source = { startup: "startup", reload: "startup", new: "clear", resume: "resume", fork: "resume" }[event.reason];
		const verdicts = await fire(ctx, "SessionStart", source, { source });
		// A session cannot be blocked from starting: as in Claude Code, exit 2 is shown to the user only.
		const block = blockOf(verdicts);
		if (block !== undefined) say(ctx, `project-hooks: a SessionStart hook said: ${block}`);
		sessionContext = contextOf(verdicts);
	});

	pi.on("input", async (event, ctx) => {
		continuations = 0;
		const verdicts = await fire(ctx, "UserPromptSubmit", undefined, { prompt: event.text });
		const block = blockOf(verdicts);
		if (block !== undefined) {
			say(ctx, `project-hooks: a UserPromptSubmit hook blocked this prompt: ${block}`);
			return { action: "handled" as const };
		}
		const added = contextOf(verdicts);
		return added.length ? { action: "transform" as const, text: [event.text, ...added].join("\n\n") } : undefined;
	});

	pi.on("before_agent_start", async () => {
		if (sessionContext.length === 0) return undefined;
		const content = sessionContext.join("\n\n");
		sessionContext = [];
		return { message: { customType: "project-hooks", content, display: false } };
	});

	pi.on("tool_call", async (event, ctx) => {
		const tool = claudeToolName(event.toolName);
		const verdicts = await fire(ctx, "PreToolUse", tool, { tool_name: tool, tool_input: claudeInput(event.input) });
		const block = blockOf(verdicts);
		return block === undefined ? undefined : { block: true, reason: visible(block) };
	});

	pi.on("tool_result", async (event, ctx) => {
		const tool = claudeToolName(event.toolName);
		const text = event.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("\n");
		const response = { content: text, is_error: event.isError };
		const verdicts = await fire(ctx, "PostToolUse", tool, { tool_name: tool, tool_input: claudeInput(event.input), tool_response: response });
		const notes = [...verdicts.flatMap((v) => (v.block !== undefined ? [`PostToolUse hook: ${visible(v.block)}`] : [])), ...contextOf(verdicts)];
		if (notes.length === 0) return undefined;
		return { content: [...event.content, ...notes.map((note) => ({ type: "text" as const, text: note }))] };
	});

	pi.on("agent_end", async (_event, ctx) => {
		const active = continuations > 0;
		const block = blockOf(await fire(ctx, "Stop", undefined, { stop_hook_active: active }));
		if (block === undefined) {
			continuations = 0;
			return;
		}
		if (continuations >= MAX_STOP_CONTINUATIONS) {
			say(ctx, `project-hooks: a Stop hook asked to keep going ${MAX_STOP_CONTINUATIONS} times in a row; stopped anyway.`);
			return; // until the user writes again
		}
		continuations++;
		pi.sendUserMessage(`A Stop hook of this project asks you to continue: ${visible(block)}`);
	});
}

/**
 * Whether pi was told not to trust this project (pi 1.x: `/trust`, `--no-approve`,
 * `defaultProjectTrust`). Then its hooks never run, whatever ext's consent says: pi's
 * "no" comes first. pi 0.73 has no project trust (`isProjectTrusted` is absent).
 */
function distrusted(ctx: ExtensionContext): boolean {
	const probe = (ctx as { isProjectTrusted?: () => boolean }).isProjectTrusted;
	return typeof probe === "function" && probe.call(ctx) === false;
}

/** pi's tool input with Claude Code's names added (`file_path` for `path`). */
function claudeInput(input: Record<string, unknown>): Record<string, unknown> {
	return typeof input.path === "string" && input.file_path === undefined ? { ...input, file_path: input.path } : input;
}

function pretty(config: HookConfig): string {
	return JSON.stringify(JSON.parse(canonical(config)), null, 2);
}

/** The diff lines for the dialog, escaped; an approved config that cannot be shown is said, not thrown. */
function diffOf(before: HookConfig, after: HookConfig): string[] {
	try {
		return lineDiff(pretty(before), pretty(after)).map(escape);
	} catch {
		return ["  (the approved config cannot be shown: `ext consent approve` shows the diff)"];
	}
}

/** The person's answer. pi's yes-or-no takes the keys typed for the editor: an Enter meant to
 * send the next message approved the hooks for good, unseen (helper-63, both pis: the Stop
 * dialog opens as the agent finishes), and with No first a `j` in the text moved to Yes
 * (helper-65). In pi's terminal the answer is a code of four digits, new each time, typed
 * whole: no text typed ahead is it. Elsewhere (rpc) the client answers pi's confirm itself.
 * pi 1.x reports an open dialog's title to a terminal that asks for it (OSC 7501, a
 * "question", cut past 2 KiB): here that title holds the hooks and, for most, the code, where
 * its confirm would say only TITLE. The terminal is the person's own; the project cannot read
 * it, and a typed-ahead key cannot be the code (helper-66). */
async function asked(ctx: ExtensionContext, message: string, code: string | undefined): Promise<boolean | "typed"> {
	if (!code) return ctx.ui.confirm(TITLE, message);
	const typed = (await ctx.ui.input(`${TITLE}\n${message}`, code))?.trim();
	return typed === code || (typed ? "typed" : false);
}

/** Record the approval through `ext`, which writes the store under its lock and journals it; an error text, or undefined. */
function record(project: string, hash: string): Promise<string | undefined> {
	const ext = findExt(project);
	if (!ext) return Promise.resolve("no `ext` found: none recorded in this agent dir's .extset/state.json, none on PATH outside this project");
	const args = ["--agent-dir", agentDir(), "consent", "approve", project, "--yes", "--expect", hash];
	return new Promise((resolve) => {
		execFile(ext, args, { cwd: project, timeout: RECORD_TIMEOUT_MS }, (error, _stdout, stderr) => {
			resolve(error ? stderr.trim().split("\n")[0] || error.message : undefined);
		});
	});
}

/** The `ext` that records a yes: $EXTSET_EXT; else the one that installed this agent dir (its
 * state record names it, as /ext runs it); else the first on PATH from an absolute entry. Never
 * one inside the project asked about, nor in a node_modules folder (helper-63: a project's
 * `node_modules/.bin/ext`, found through a relative PATH entry, ran on Yes, and the dialog had
 * shown only `echo hello`). */
export function findExt(project: string, env: NodeJS.ProcessEnv = process.env, dir: string = agentDir()): string | undefined {
	if (env.EXTSET_EXT) return env.EXTSET_EXT;
	const root = realOr(project);
	const outside = (path: string) => {
		const real = realOr(path);
		const inside = real === root || real.startsWith(root.endsWith(sep) ? root : root + sep);
		// nor a package's bin, in any node_modules (`npm run` puts those of every folder above
		// the project on PATH, absolute: helper-64); ext is no npm package
		return !inside && !real.split(sep).includes("node_modules");
	};
	const candidates = [recordedExt(dir), ...(env.PATH ?? "").split(delimiter).filter(isAbsolute).map((d) => join(d, "ext"))];
	for (const candidate of candidates) {
		if (!candidate || !outside(candidate)) continue;
		try {
			accessSync(candidate, constants.X_OK);
			return candidate;
		} catch {
			// not here
		}
	}
	return undefined;
}

/** The ext an install of this agent dir recorded (`extra.command.ext` of its state record, the
 * newest first), if the record is the user's own regular file that no one else could write. */
function recordedExt(dir: string): string | undefined {
	const path = join(dir, ".extset", "state.json");
	let state: { sets?: Array<{ extra?: { command?: { ext?: unknown } } }> };
	try {
		state = JSON.parse(readCapped(path, 4 << 20, "a state record", path, (fd) => {
			const info = fstatSync(fd);
			const mine = typeof process.getuid !== "function" || info.uid === process.getuid();
			if (!mine || info.mode & 0o022) throw new Error(`${path} could be written by another user`);
		}));
	} catch {
		return undefined;
	}
	const sets = Array.isArray(state?.sets) ? state.sets : [];
	for (const set of [...sets].reverse()) {
		const ext = set?.extra?.command?.ext;
		if (typeof ext === "string" && isAbsolute(ext)) return ext;
	}
	return undefined;
}

function realOr(path: string): string {
	try {
		return realpathSync(path);
	} catch {
		return absolute(path);
	}
}

/** The command that approves a project's hooks in a shell, for this pi's agent dir (an ext run
 * elsewhere resolves its own), each path one word however it is named (helper-38: a project
 * at `r $(touch PWNED)` ran the `touch` when pasted). */
export function approveCommand(key: string, dir: string = agentDir()): string {
	return `ext --agent-dir ${shellWord(dir)} consent approve ${shellWord(key)}`;
}

