/**
 * ext-command: `/ext` inside pi. Switch the set's items on and off without leaving the session.
 *
 * ext owns this file: `ext install` links `<agent>/extensions/ext-command.ts` to a copy of it for
 * every set, and records in `<agent>/.extset/state.json` which `ext` did so. `/ext` asks that
 * `ext` for the items and their states (`ext --json list`, the one source of truth), shows them
 * in pi's own SettingsList in the editor's place (pi's footer stays below it), stages switches with Space, and on Enter applies them as one ext plan
 * (`ext --json toggle --on … --off … --yes`), shows what ext did or why it refused, and reloads
 * pi so the change takes effect here. Escape cancels.
 *
 * The session knows its own flags (process.argv): an item whose `process` guard flag this session
 * was started with stays on, with the reason, and the rest of the batch still applies.
 * A guard only ext sees (another session's flag) makes ext refuse the plan and name the items
 * (`refused` in its JSON error): those stay on, with ext's reason, and the rest is applied.
 *
 * pi's UI components are imported at run time, from whichever scope this pi is published under
 * (a value import from the other scope would fail to load); everything else imports nothing from
 * pi, so the tests load this file directly and hand it the components.
 */

import { execFile } from "node:child_process";
import { closeSync, constants, existsSync, fstatSync, lstatSync, openSync, readSync } from "node:fs";
import { isAbsolute, join } from "node:path";

export interface Guard {
	process?: string;
	reason?: string;
	required_by?: string[];
}

/** One item as `ext --json list` reports it. */
export interface Item {
	name: string;
	kind: string;
	layout?: string;
	state: string;
	path?: string;
	note?: string;
	guard?: Guard;
	/** Not installed, an enable away (an install's --only/--skip left it out): can be put in. */
	left_out?: boolean;
}

/** A set that ext installed here with /ext, and the ext that did it. */
export interface Installed {
	root: string;
	name: string;
	ext: string | null;
}

export interface Problem {
	message: string;
	fix?: string;
	/** A guard ext checked refused these items (e.g. another session has the flag). */
	refused?: { name: string; why: string }[];
}

/** What running ext gave: its JSON, or a problem to show (never a throw). */
export interface Outcome {
	data?: Record<string, any>;
	problem?: Problem;
}

export type RunExt = (ext: string, args: string[]) => Promise<Outcome>;

export interface Row {
	id: string;
	set: Installed;
	item: Item;
	label: string;
	switchable: boolean;
	/** Why this session cannot switch it off (its guard flag is in process.argv), else null. */
	blocked: string | null;
}

export interface Batch {
	set: Installed;
	on: string[];
	off: string[];
	refused: string[];
}

const ON = "● on";
const OFF = "○ off";
const LEFT_OUT = "○ not installed";

// ---- pure: what ext said, what this session knows, what Enter does ----------------------------

// The state record names the ext binary /ext runs: it is read as ext reads its own files, and
// stricter. Never through a link, never a FIFO or device (O_NONBLOCK: no wait for a writer),
// only the user's own file, writable by nobody else, and of a size a record has.
const STATE_CAP = 1 << 20;

/** What /ext makes of ext's state record: the sets, or why it trusts none of them. */
export interface StateRead {
	sets: Installed[];
	problem?: Problem;
}

/** The sets whose install put /ext in this agent dir, from ext's state record. */
export function installedSets(agentDir: string): Installed[] {
	return readState(agentDir).sets;
}

export function readState(agentDir: string): StateRead {
	const folder = join(agentDir, ".extset");
	const path = join(folder, "state.json");
	const refuse = (what: string, fix = `remove it (rm ${path}: only that entry goes), then run \`ext install\``) => ({
		sets: [],
		problem: { message: `${path} is ${what}: /ext trusts no ext it names`, fix },
	});
	try {
		if (!lstatSync(folder).isDirectory()) return refuse(`inside ${folder}, which is no folder of ext's`);
	} catch {
		return { sets: [] }; // nothing installed here yet
	}
	let text: string;
	let fd: number;
	try {
		fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
	} catch (err: any) {
		if (err?.code === "ENOENT") return { sets: [] };
		return refuse(err?.code === "ELOOP" ? "a symlink" : `unreadable (${err?.code ?? err})`);
	}
	try {
		const st = fstatSync(fd);
		if (!st.isFile()) return refuse("not a regular file");
		if (typeof process.getuid === "function" && st.uid !== process.getuid()) return refuse("another user's");
		if (st.mode & 0o022) return refuse("writable by group or others", `chmod go-w ${path}`);
		if (st.size > STATE_CAP) return refuse(`larger than ${STATE_CAP >> 10} KiB, more than a record holds`);
		const buf = Buffer.alloc(st.size);
		text = buf.subarray(0, readSync(fd, buf, 0, st.size, 0)).toString("utf8");
	} finally {
		closeSync(fd);
	}
	let state: any;
	try {
		state = JSON.parse(text);
	} catch {
		return { sets: [] };
	}
	const sets: any[] = Array.isArray(state?.sets) ? state.sets : [];
	return {
		sets: sets
			.filter((s) => s?.extra?.command && typeof s.root === "string")
			.map((s) => ({ root: s.root, name: String(s.name ?? s.root), ext: s.extra.command.ext ?? null })),
	};
}

// ---- what reaches the terminal -------------------------------------------------------------------

// The one escaping rule for text shown on a terminal, ext's (installer/ground/screen.py) and the
// project-hooks extension's (extensions/project-hooks/screen.ts): this file is copied alone into
// the agent dir, so it carries its own, held to tests/escape-vectors.json by
// tests/ts/ext-command.test.mjs. A set's text (its name, a guard's flag and reason, an item's
// name, ext's notes and errors that quote them) reaches /ext raw in ext's JSON (helper-82: an
// OSC 52 clipboard write in a guard's reason was drawn by pi's SettingsList as it was).
const UNPRINTABLE = /[\p{C}\p{Z}\u034F\u115F\u1160\u17B4\u17B5\u180B-\u180D\u180F\u2800\u3164\uFE00-\uFE0F\uFFA0\u{E0100}-\u{E01EF}]/gu;
const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\u001b": "\\x1b" };

/** text on one line, with every character a terminal could act on shown as an escape. */
export function escape(text: string): string {
	return text.replace(UNPRINTABLE, (c) => (c === " " || c === "\t" ? c : escapedChar(c)));
}

function escapedChar(c: string): string {
	const named = NAMED[c];
	if (named) return named;
	const code = c.codePointAt(0) ?? 0;
	const hex = (width: number) => code.toString(16).padStart(width, "0");
	if (code < 0x100) return `\\x${hex(2)}`;
	return code < 0x10000 ? `\\u${hex(4)}` : `\\U${hex(8)}`;
}

/** True when the session was started with `flag` (`--x` or `--x=value`), as ext's rule has it. */
export function hasFlag(argv: readonly string[], flag: string): boolean {
	return argv.slice(2).some((a) => a === flag || a.startsWith(`${flag}=`));
}

/** ext's name for an item: `notify`, `skill:review`. */
export function labelOf(item: Item): string {
	return item.kind === "extension" ? item.name : `${item.kind}:${item.name}`;
}

export function blockedHere(item: Item, argv: readonly string[]): string | null {
	const flag = item.guard?.process;
	if (!flag || item.state !== "enabled" || !hasFlag(argv, flag)) return null;
	const why = `this session was started with ${flag}`;
	return item.guard?.reason ? `${why} (${item.guard.reason})` : why;
}

export function rowsOf(lists: { set: Installed; items: Item[] }[], argv: readonly string[]): Row[] {
	const many = lists.length > 1;
	return lists.flatMap(({ set, items }) =>
		items.map((item) => ({
			id: `${set.root}\u0000${labelOf(item)}`,
			set,
			item,
			label: many ? `${set.name}: ${labelOf(item)}` : labelOf(item),
			switchable: item.state === "enabled" || item.state === "disabled" || item.left_out === true,
			blocked: blockedHere(item, argv),
		})),
	);
}

/** `b is enabled and needs it`, as ext says it; one the batch switches on is said as such
 * (helper-87: "top is enabled" of top, off until then). */
function needingSaid(needing: readonly string[], switchedOn: (name: string) => boolean): string {
	const now = needing.filter((n) => !switchedOn(n));
	const turned = needing.filter(switchedOn);
	const be = (names: readonly string[]) => (names.length === 1 ? "is" : "are");
	if (now.length === 0 || turned.length === 0) {
		const state = turned.length === 0 ? "enabled" : "switched on by this run";
		return `${andList(needing)} ${be(needing)} ${state} and ${needing.length === 1 ? "needs" : "need"} it`;
	}
	const all = needing.length === 2 ? "both" : "all";
	return `${andList(now)} ${be(now)} enabled and ${andList(turned)} ${be(turned)} switched on by this run; ${all} need it`;
}

/** The staged rows as one batch per set: what to switch on, off, and what this session refuses.
 * An item another one needs (ext's `requires`) stays on while that one stays on, as ext would
 * refuse it, and with it the whole plan: here the rest of the batch still applies. */
export function batches(rows: readonly Row[], staged: ReadonlySet<string>): Batch[] {
	const out = new Map<string, Batch>();
	const kept = new Map<string, string>(); // row id -> why it stays on
	for (const row of rows) if (staged.has(row.id) && row.switchable && row.blocked) kept.set(row.id, row.blocked);
	const goesOff = (row: Row) => row.item.state === "enabled" && row.switchable && staged.has(row.id) && !kept.has(row.id);
	const enabledNow = (set: Installed, name: string) =>
		rows.some((r) => r.set.root === set.root && labelOf(r.item) === name && r.item.state === "enabled");
	const onAfter = (set: Installed, name: string) =>
		rows.some((r) => r.set.root === set.root && labelOf(r.item) === name && (r.item.state !== "enabled" ? staged.has(r.id) && r.switchable : !goesOff(r)));
	for (let changed = true; changed; ) {
		changed = false;
		for (const row of rows.filter(goesOff)) {
			// Every one that needs it, and the manifest's reason, as ext says it (helper-44).
			const needing = (row.item.guard?.required_by ?? []).filter((name) => onAfter(row.set, name));
			if (needing.length > 0) {
				const reason = row.item.guard?.reason ? ` (${row.item.guard.reason})` : "";
				kept.set(row.id, `${needingSaid(needing, (name) => !enabledNow(row.set, name))}${reason}`);
				changed = true;
			}
		}
	}
	for (const row of rows) {
		if (!staged.has(row.id) || !row.switchable) continue;
		const b = out.get(row.set.root) ?? { set: row.set, on: [], off: [], refused: [] };
		out.set(row.set.root, b);
		const name = labelOf(row.item);
		if (row.item.state !== "enabled") b.on.push(name); // off, or left out: put in
		else if (kept.has(row.id)) b.refused.push(`${name} stays on: ${kept.get(row.id)}`);
		else b.off.push(name);
	}
	return [...out.values()];
}

/** `a`, `a and b`, `a, b and c`, as ext joins names. */
export function andList(names: readonly string[]): string {
	return names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** A label as ext picks exactly that item: a bare name may also be a skill's (`uv`), and a bare
 * name would switch both, so an extension goes as `extension:NAME`. */
export function exactName(label: string): string {
	return label.includes(":") ? label : `extension:${label}`;
}

export function toggleArgs(agentDir: string, b: Batch): string[] {
	const on = b.on.flatMap((n) => ["--on", exactName(n)]);
	const names = [...on, ...b.off.flatMap((n) => ["--off", exactName(n)])];
	return ["--agent-dir", agentDir, "--set", b.set.root, "--json", "toggle", ...names, "--yes"];
}

export function listArgs(agentDir: string, set: Installed): string[] {
	return ["--agent-dir", agentDir, "--set", set.root, "--json", "list"];
}

/** What ext did, one line each: the switches (links renamed, patterns in settings.json), its
 * warnings, or that nothing changed. A switch names the item's live place, where pi loads it
 * from: an enable's new path (its target), a disable's old one. */
export function resultLines(data: Record<string, any>): string[] {
	const actions: any[] = Array.isArray(data.actions) ? data.actions : [];
	const lines = actions.flatMap((a) => {
		if (a.action === "enable") return [`+ enabled  ${a.target ?? a.path}`];
		if (a.action === "disable") return [`- disabled ${a.path}`];
		// an item an install left out, put in: on, or parked (`.off`) off for good
		if (a.action === "link") return [`+ put in   ${a.path}`];
		// register mode, or pi config's -path cleared: the switch is a pattern in settings.json
		// (a claim: ext's own filter of a --skip, the user's switch now)
		return a.action === "filter" || a.action === "claim" ? [`~ ${a.detail ?? a.path}`] : [];
	});
	for (const w of Array.isArray(data.warnings) ? data.warnings : []) lines.push(`! ${w}`);
	if (!data.changed) lines.push("nothing changed");
	return lines;
}

/** A word as a POSIX shell reads it back: bare when safe, else in single quotes; a path
 * under the home as `~/…`, the `~/` outside the quotes so the shell expands it (as ext's
 * ground/shellword.py: `~/'my agent'`, never `'~/my agent'`, which a later tilde() made). */
export function shellWord(word: string, home: string | undefined = process.env.HOME): string {
	const h = (home ?? "").replace(/\/+$/, "");
	if (h && word.startsWith(`${h}/`)) return `~/${shellWord(word.slice(h.length + 1), "")}`;
	return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/** A line with the home folder shown as `~`, as ext shows paths (people paste these). */
export function tilde(text: string, home: string | undefined = process.env.HOME): string {
	const h = (home ?? "").replace(/\/+$/, "");
	if (!h) return text;
	// Only where a path starts (helper-34: `/data/home/me/x` became `/data~/x`), and never
	// inside quotes: a quoted word keeps its `~/` outside them (shellWord), or stays whole.
	const escaped = h.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
	return text.replace(new RegExp(`(^|[\\s(=\`])${escaped}/`, "g"), "$1~/");
}

export function problemLines(p: Problem): string[] {
	return p.fix ? [`✗ ${p.message}`, `  fix: ${p.fix}`] : [`✗ ${p.message}`];
}

/** The ext to run for a set: the one that installed /ext, by the absolute path ext recorded.
 * Never a PATH lookup: whatever `ext` PATH finds (a relative entry such as `.` is the project's)
 * is not the ext the user installed. Gone or not recorded: null, and /ext says so (extGone). */
export function extFor(set: Installed): string | null {
	return set.ext && isAbsolute(set.ext) && existsSync(set.ext) ? set.ext : null;
}

/** What /ext says when the ext recorded for a set is gone: no other ext is run in its place. */
export function extGone(set: Installed): Problem {
	const what = set.ext ? `the ext that installed /ext (${set.ext}) is gone` : "ext's record names no ext for /ext";
	return {
		message: `${what}; /ext does not run another ext from PATH`,
		fix: `install ext again, then run \`ext --set ${set.root} install\` with it (that records its path for /ext)`,
	};
}

/** Run ext and read its JSON; a missing ext, a refusal or a crash becomes a Problem. */
export function runExt(ext: string, args: string[]): Promise<Outcome> {
	return new Promise((resolve) => {
		execFile(ext, args, { timeout: 120_000, maxBuffer: 16 << 20 }, (err: any, stdout, stderr) => {
			if (err?.code === "ENOENT") {
				resolve({
					problem: {
						message: `the ext that installed /ext (${ext}) is gone`,
						fix: "install ext again, then run `ext install` with it (that records its path for /ext)",
					},
				});
				return;
			}
			let data: Record<string, any> | undefined;
			try {
				data = JSON.parse(String(stdout));
			} catch {
				data = undefined;
			}
			if (data && typeof data.error === "string") {
				const refused = Array.isArray(data.refused) ? data.refused : undefined;
				resolve({ problem: { message: data.error, fix: data.fix, ...(refused ? { refused } : {}) } });
			} else if (err || !data) {
				const said = String(stderr).trim().split("\n").slice(-1)[0] || String(err?.message ?? "no output");
				resolve({ problem: { message: `ext failed: ${said}`, fix: "run the same in a shell with --debug" } });
			} else {
				resolve({ data });
			}
		});
	});
}

// ---- the panel ---------------------------------------------------------------------------------

/** The widest label pi's SettingsList lines its values up after, when the list cannot be asked
 * (30 on pi 0.73, the narrower: a cut that was not needed, never a value pushed off). */
export const LABEL_WIDTH = 30;

/** The widest label this pi's SettingsList lines its values up after (30 on pi 0.73, 36 on 1.x),
 * read off the list itself: a short label's value starts where the column ends, so two lists
 * that differ only in their other label's length (2, then past any column) tell its width. */
export function labelWidth(SettingsList: any): number {
	const plain = (text: string) => text;
	const theme = { label: plain, value: plain, description: plain, cursor: "> ", hint: plain };
	const valueAt = (other: string): number => {
		const items = ["a", other].map((label, i) => ({ id: String(i), label, currentValue: "=V=" }));
		const lines: string[] = new SettingsList(items, 2, theme, () => {}, () => {}).render(1000);
		return lines.find((l) => l.includes("=V="))?.indexOf("=V=") ?? -1;
	};
	try {
		const width = valueAt("x".repeat(200)) - valueAt("bb") + 2;
		return width >= 10 && width <= 100 ? width : LABEL_WIDTH;
	} catch {
		return LABEL_WIDTH;
	}
}

/** A label cut to the column, its start and end kept around an ellipsis (a set's prefix, and the
 * end of a name that tells two long ones apart). */
export function fitLabel(label: string, width = LABEL_WIDTH): string {
	const chars = [...label];
	if (chars.length <= width) return label;
	const head = Math.ceil((width - 1) / 2);
	return `${chars.slice(0, head).join("")}…${chars.slice(chars.length - (width - 1 - head)).join("")}`;
}

/** The parts of pi this file uses, as loaded from pi (or handed in by a test). */
export interface PiParts {
	SettingsList: any;
	theme: any; // a SettingsListTheme
	matchesKey: (data: string, key: string) => boolean;
	truncateToWidth: (text: string, width: number) => string;
	wrapTextWithAnsi: (text: string, width: number) => string[];
}

export interface PanelDeps {
	parts: PiParts;
	agentDir: string;
	argv: readonly string[];
	sets: Installed[];
	/** Why ext's state record was not trusted (then `sets` is empty). */
	stateProblem?: Problem;
	run: RunExt;
	requestRender: () => void;
	/** Close the panel; true when ext changed something (then pi reloads). */
	done: (changed: boolean) => void;
}

type Phase = "loading" | "list" | "busy" | "done";

export class ExtPanel {
	phase: Phase = "loading";
	rows: Row[] = [];
	staged = new Set<string>();
	messages: string[] = [];
	changed = false;
	private list: any = null;
	private readonly width: number; // of the list's label column

	constructor(private deps: PanelDeps) {
		this.width = labelWidth(deps.parts.SettingsList);
	}

	/** Ask ext for each set's items; problems become lines of the panel. */
	async load(): Promise<void> {
		const { sets, run, agentDir, argv, stateProblem } = this.deps;
		if (stateProblem) {
			this.finish(problemLines(stateProblem));
			return;
		}
		if (sets.length === 0) {
			this.finish([
				...problemLines({
					message: `ext has installed no set with /ext in ${agentDir}`,
					fix: "run `ext install` for this agent dir",
				}),
			]);
			return;
		}
		const lists: { set: Installed; items: Item[] }[] = [];
		const problems: string[] = [];
		for (const set of sets) {
			const ext = extFor(set);
			if (ext === null) {
				problems.push(...problemLines(extGone(set)));
				continue;
			}
			const got = await run(ext, listArgs(agentDir, set));
			if (got.problem) problems.push(...problemLines(got.problem));
			else lists.push({ set, items: Array.isArray(got.data?.items) ? got.data.items : [] });
		}
		this.rows = rowsOf(lists, argv);
		if (this.rows.length === 0) {
			this.finish(problems.length ? problems : ["the set has no items"]);
			return;
		}
		this.messages = problems;
		this.list = this.makeList();
		this.phase = "list";
		this.deps.requestRender();
	}

	private makeList(): any {
		const { parts } = this.deps;
		const items = this.rows.map((row) => ({
			id: row.id,
			label: fitLabel(escape(row.label), this.width),
			currentValue: this.value(row, false),
			values: row.switchable ? [this.value(row, false), this.value(row, true)] : undefined,
			description: this.described(row),
		}));
		const hint = (text: string) =>
			parts.theme.hint(/Enter\/Space/.test(text) ? "  Space stages · Enter applies · Esc cancels" : text);
		return new parts.SettingsList(
			items,
			Math.min(items.length, 12),
			{ ...parts.theme, hint },
			(id: string, value: string) => {
				const row = this.rows.find((r) => r.id === id);
				if (row && value === this.value(row, true)) this.staged.add(id);
				else this.staged.delete(id);
			},
			() => this.deps.done(false),
		);
	}

	value(row: Row, staged: boolean): string {
		const on = row.item.state === "enabled";
		if (!row.switchable) return escape(String(row.item.state));
		if (!staged) return on ? ON : row.item.left_out ? LEFT_OUT : OFF;
		if (on && row.blocked) return `${ON} (refused here)`; // it stays on: show what will be
		return `${on ? OFF : ON} (on Enter)`;
	}

	/** What the selected row says below the list; a name cut to fit is said in full first. */
	described(row: Row): string | undefined {
		const why = this.describe(row);
		const label = escape(row.label);
		const said = fitLabel(label, this.width) === label ? why : why === undefined ? row.label : `${row.label}: ${why}`;
		return said === undefined ? undefined : escape(said);
	}

	describe(row: Row): string | undefined {
		if (row.blocked) return `guarded here: ${row.blocked}; /ext keeps it on`;
		const why: string[] = [];
		const needs = row.item.guard?.required_by ?? [];
		if (needs.length) why.push(`needed by ${needs.join(", ")}`);
		const flag = row.item.guard?.process;
		if (flag) why.push(`kept on while a session started with ${flag} runs`);
		// A row ext cannot switch (stale, in conflict) says why first: its guard is for later.
		const note = row.item.note === undefined ? undefined : tilde(row.item.note);
		const guarded = why.length ? `guarded: ${why.join("; ")}` : undefined;
		if (!row.switchable && note !== undefined) return guarded ? `${note}; ${guarded}` : note;
		return guarded ?? note;
	}

	/** Enter: apply each set's batch as one ext plan, then show what happened. */
	async apply(): Promise<void> {
		const todo = batches(this.rows, this.staged);
		if (todo.length === 0) {
			this.deps.done(false);
			return;
		}
		this.phase = "busy";
		this.messages = ["applying with ext… (it waits up to 30 s for another ext run)"];
		this.deps.requestRender();
		const lines: string[] = [];
		for (const b of todo) {
			for (const r of b.refused) lines.push(`✗ refused: ${r}`);
			lines.push(...(await this.applyBatch(b)));
		}
		this.finish(lines);
	}

	/** One set's batch as one ext plan. When a guard only ext can check (another session's
	 * flag) refuses some items, nothing was written: they stay on, with ext's reason, and the
	 * rest is applied as one plan again. */
	private async applyBatch(batch: Batch): Promise<string[]> {
		const lines: string[] = [];
		let b = batch;
		while (b.on.length + b.off.length > 0) {
			const ext = extFor(b.set);
			if (ext === null) return [...lines, ...problemLines(extGone(b.set))];
			const got = await this.deps.run(ext, toggleArgs(this.deps.agentDir, b));
			const held = (got.problem?.refused ?? []).filter((r) => b.off.includes(r.name));
			if (held.length > 0) {
				for (const r of held) lines.push(`✗ refused: ${r.name} stays on: ${r.why}`);
				const names = held.map((r) => r.name);
				// ext's own fix (the recorder switched off, say), and the disable as a shell runs it
				// here: this dir, this set (helper-32: `ext disable x --force` from pi's cwd found
				// no such item, or another set).
				const first = (got.problem?.fix ?? "").split(", or pass --force")[0] || "stop what needs it first";
				const where = ["--agent-dir", this.deps.agentDir, "--set", b.set.root];
				const shell = [ext, ...where, "disable", ...names, "--force"].map((w) => shellWord(w)).join(" ");
				lines.push(`  fix: ${first}, or in a shell: ${shell}`);
				b = { ...b, off: b.off.filter((n) => !names.includes(n)) };
				continue;
			}
			if (got.problem) lines.push(...problemLines(got.problem));
			else {
				lines.push(...resultLines(got.data ?? {}));
				this.changed ||= Boolean(got.data?.changed);
			}
			break;
		}
		return lines;
	}

	private finish(lines: string[]): void {
		this.messages = lines;
		this.phase = "done";
		this.deps.requestRender();
	}

	handleInput(data: string): void {
		const { matchesKey } = this.deps.parts;
		if (this.phase === "done") {
			if (matchesKey(data, "enter") || matchesKey(data, "escape")) this.deps.done(this.changed);
			return;
		}
		if (this.phase === "loading" && matchesKey(data, "escape")) this.deps.done(false);
		if (this.phase !== "list") return; // applying: a plan is not cancelled half-way
		if (matchesKey(data, "enter")) void this.apply();
		else this.list.handleInput(data);
		this.deps.requestRender();
	}

	render(width: number): string[] {
		const { theme, truncateToWidth, wrapTextWithAnsi } = this.deps.parts;
		// Drawn in the editor's place, above pi's footer (an overlay, centred on the terminal,
		// covered pi 0.73's footer, which stands mid-screen while the session is short).
		const rule = "─".repeat(Math.max(1, width));
		const lines = [rule, theme.label(" ext: switch the set's items", true), ""];
		if (this.phase === "loading") lines.push(theme.hint("  asking ext…"));
		if (this.list && this.phase !== "done") lines.push(...this.list.render(width));
		const wrapped = this.messages.flatMap((m) => wrapTextWithAnsi(escape(tilde(m)), Math.max(10, width - 4)));
		if (wrapped.length) lines.push("", ...wrapped.map((m) => `  ${m}`));
		if (this.phase === "done") {
			const close = this.changed ? "Enter closes and reloads pi" : "Enter or Esc closes";
			lines.push("", theme.hint(`  ${close}`));
		}
		lines.push(rule);
		return lines.map((l) => truncateToWidth(l, width));
	}

	invalidate(): void {
		this.list?.invalidate();
	}
}

// ---- pi -------------------------------------------------------------------------------------

const SCOPES = ["@mariozechner", "@earendil-works"];

/** A pi package from this pi's own scope (the specifier is built so either pi can load it). */
async function piPackage(name: string): Promise<any> {
	let last: unknown;
	for (const scope of SCOPES) {
		try {
			return await import(`${scope}/${name}`);
		} catch (err) {
			last = err;
		}
	}
	throw last;
}

interface Host {
	registerCommand(name: string, options: { description: string; handler: (args: string, ctx: any) => unknown }): void;
	on(event: string, handler: (event: any, ctx: any) => unknown): void;
}

/** What `ext launch` warned of before exec-ing pi (one warning a line), for pi's own notices:
 * printed on the terminal, it is wiped at once by pi's screen. */
export const LAUNCH_NOTICE = "EXTSET_LAUNCH_NOTICE";

/** Show ext launch's warnings once, as pi's notices; gone from the environment after, so a
 * reload, a new session or a process pi starts does not say them again. */
export function showLaunchNotice(ctx: any, env: Record<string, string | undefined> = process.env): void {
	const text = env[LAUNCH_NOTICE];
	delete env[LAUNCH_NOTICE];
	if (!text || !ctx?.hasUI) return;
	for (const line of text.split("\n")) if (line.trim()) ctx.ui.notify(`ext launch: ${escape(tilde(line))}`, "warning");
}

function stateOf(read: StateRead): { sets: Installed[]; stateProblem?: Problem } {
	return read.problem ? { sets: [], stateProblem: read.problem } : { sets: read.sets };
}

export default function extCommand(pi: Host): void {
	pi.on("session_start", (_event, ctx) => showLaunchNotice(ctx));
	pi.registerCommand("ext", {
		description: "Switch the set's extensions, skills, prompts and themes on and off (ext)",
		handler: async (_args, ctx) => {
			if (!ctx.hasUI) return;
			let changed = false;
			try {
				const [tui, agent] = await Promise.all([piPackage("pi-tui"), piPackage("pi-coding-agent")]);
				const agentDir: string = agent.getAgentDir();
				changed = await ctx.ui.custom(
					(ui: any, _theme: any, _kb: any, done: (changed: boolean) => void) => {
						const panel = new ExtPanel({
							parts: {
								SettingsList: tui.SettingsList,
								theme: agent.getSettingsListTheme(),
								matchesKey: tui.matchesKey,
								truncateToWidth: tui.truncateToWidth,
								wrapTextWithAnsi: tui.wrapTextWithAnsi,
							},
							agentDir,
							argv: process.argv,
							...stateOf(readState(agentDir)),
							run: runExt,
							requestRender: () => ui.requestRender(),
							done,
						});
						void panel.load();
						return panel;
					},
				);
			} catch (err) {
				ctx.ui.notify(`/ext: ${escape(err instanceof Error ? err.message : String(err))}`, "error");
				return;
			}
			if (changed) await ctx.reload();
		},
	});
}
