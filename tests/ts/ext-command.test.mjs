// `/ext` (installer/agent/ext-command.ts): what it makes of ext's answers and of this session's
// flags, the overlay driven key by key on pi's real SettingsList, and ext run as a real process.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { fakePi, loadAgentFile, piPackageJson, piTui } from "./helpers.mjs";

const mod = await loadAgentFile("ext-command.ts");
const tui = await piTui();

// The recorded ext must be an absolute path that exists: any real file stands in for it.
const EXT = process.execPath;
const SET = { root: "/sets/mine", name: "mine", ext: EXT };
const GUARD = { process: "--block", reason: "unattended runs rely on it", required_by: [] };
const ITEMS = [
	{ name: "guarded", kind: "extension", state: "enabled", guard: GUARD },
	{ name: "notify", kind: "extension", state: "enabled" },
	{ name: "timer", kind: "extension", state: "disabled" },
	{ name: "review", kind: "skill", state: "enabled" },
	{ name: "gone", kind: "extension", state: "stale", note: "its target is gone; `ext install` fixes it" },
];
const LISTED = { set: SET.root, agent_dir: "/agent", mode: "link", items: ITEMS };
const DOWN = "\x1b[B";
const plain = (t) => t;
const THEME = { label: plain, value: plain, description: plain, cursor: "→ ", hint: plain };

/** An overlay on pi's real SettingsList, with ext scripted by `answers` (by command). */
function panel({ argv = ["node", "pi"], answers = {}, sets = [SET] } = {}) {
	const calls = [];
	const closed = [];
	const p = new mod.ExtPanel({
		parts: {
			SettingsList: tui.SettingsList,
			theme: THEME,
			matchesKey: tui.matchesKey,
			truncateToWidth: tui.truncateToWidth,
			wrapTextWithAnsi: tui.wrapTextWithAnsi,
		},
		agentDir: "/agent",
		argv,
		sets,
		run: async (ext, args) => {
			calls.push([ext, ...args]);
			const verb = args.includes("toggle") ? "toggle" : "list";
			const answer = answers[verb] ?? (verb === "list" ? { data: LISTED } : { data: { changed: false } });
			return typeof answer === "function" ? answer(args) : answer;
		},
		requestRender: () => {},
		done: (changed) => closed.push(changed),
	});
	return { p, calls, closed, screen: () => p.render(100).join("\n") };
}

const settle = () => new Promise((r) => setImmediate(r));

/** base, which `requiredBy` need, on; notify on; timer off: their rows, and a label's row id. */
function neededBy(requiredBy) {
	const needed = { process: undefined, required_by: requiredBy };
	const items = [
		{ name: "base", kind: "extension", state: "enabled", guard: needed },
		{ name: "notify", kind: "extension", state: "enabled" },
		{ name: "timer", kind: "extension", state: "disabled" },
	];
	const rows = mod.rowsOf([{ set: SET, items }], ["node", "pi"]);
	return { rows, id: (label) => rows.find((r) => r.label === label).id };
}

describe("what /ext makes of ext's list and this session", () => {
	test("the sets come from ext's state record: only those whose install put /ext here", () => {
		const agent = mkdtempSync(join(tmpdir(), "ext-command-"));
		assert.deepEqual(mod.installedSets(agent), []);
		mkdirSync(join(agent, ".extset"));
		const sets = [
			{ root: "/a", name: "a", extra: { command: { ext: "/bin/ext" } } },
			{ root: "/b", name: "b", extra: {} },
		];
		writeFileSync(join(agent, ".extset", "state.json"), JSON.stringify({ version: 1, sets }));
		chmodSync(join(agent, ".extset", "state.json"), 0o600); // as ext writes it, whatever the umask
		assert.deepEqual(mod.installedSets(agent), [{ root: "/a", name: "a", ext: "/bin/ext" }]);
		writeFileSync(join(agent, ".extset", "state.json"), "{not json");
		assert.deepEqual(mod.installedSets(agent), []);
	});

	test("a state record ext would not write is trusted for nothing: said at once, never waited on", () => {
		const record = JSON.stringify({ version: 1, sets: [{ root: "/a", name: "a", extra: { command: { ext: "/bin/sh" } } }] });
		const agent = () => {
			const dir = mkdtempSync(join(tmpdir(), "ext-command-state-"));
			mkdirSync(join(dir, ".extset"));
			return { dir, state: join(dir, ".extset", "state.json") };
		};
		const refused = (dir) => mod.readState(dir);

		const fifo = agent();
		execFileSync("mkfifo", [fifo.state]); // no writer: a blocking open would hang pi here
		const got = refused(fifo.dir);
		assert.deepEqual(got.sets, []);
		assert.match(got.problem.message, /state\.json is not a regular file: \/ext trusts no ext it names/);
		assert.match(got.problem.fix, /^remove it \(rm .*state\.json: only that entry goes\), then run `ext install`/);

		const linked = agent();
		const real = join(linked.dir, "elsewhere.json");
		writeFileSync(real, record);
		chmodSync(real, 0o600);
		symlinkSync(real, linked.state);
		assert.match(refused(linked.dir).problem.message, /is a symlink: /);

		const loose = agent();
		writeFileSync(loose.state, record);
		chmodSync(loose.state, 0o666);
		const wide = refused(loose.dir);
		assert.match(wide.problem.message, /is writable by group or others/);
		assert.equal(wide.problem.fix, `chmod go-w ${loose.state}`);

		if (process.getuid?.() === 0) {
			const theirs = agent();
			writeFileSync(theirs.state, record);
			chmodSync(theirs.state, 0o600);
			chownSync(theirs.state, 4242, 4242);
			assert.match(refused(theirs.dir).problem.message, /is another user's/);
		}

		const big = agent();
		writeFileSync(big.state, " ".repeat((1 << 20) + 1));
		chmodSync(big.state, 0o600);
		assert.match(refused(big.dir).problem.message, /larger than 1024 KiB/);
	});

	test("the overlay says why it trusts no set, and runs nothing", async () => {
		const problem = { message: "/agent/.extset/state.json is a symlink: /ext trusts no ext it names", fix: "remove it" };
		const calls = [];
		const p = new mod.ExtPanel({
			parts: {
				SettingsList: tui.SettingsList,
				theme: THEME,
				matchesKey: tui.matchesKey,
				truncateToWidth: tui.truncateToWidth,
				wrapTextWithAnsi: tui.wrapTextWithAnsi,
			},
			agentDir: "/agent",
			argv: ["node", "pi"],
			sets: [],
			stateProblem: problem,
			run: async (...args) => calls.push(args),
			requestRender: () => {},
			done: () => {},
		});
		await p.load();
		assert.match(p.render(200).join("\n"), /✗ \/agent\/\.extset\/state\.json is a symlink: \/ext trusts no ext it names\n\s+fix: remove it/);
		assert.deepEqual(calls, []);
	});

	test("a guard flag this session was started with blocks switching that item off, with why", () => {
		const [guarded] = ITEMS;
		assert.equal(mod.blockedHere(guarded, ["node", "pi"]), null);
		assert.equal(mod.blockedHere(guarded, ["node", "pi", "--blocker"]), null);
		assert.match(mod.blockedHere(guarded, ["node", "pi", "--block"]), /started with --block \(unattended/);
		assert.ok(mod.blockedHere(guarded, ["node", "pi", "--block=yes"]));
		assert.equal(mod.blockedHere({ ...guarded, state: "disabled" }, ["node", "pi", "--block"]), null);
	});

	test("the staged rows become one batch per set: on, off, and what this session refuses", () => {
		const rows = mod.rowsOf([{ set: SET, items: ITEMS }], ["node", "pi", "--block"]);
		assert.deepEqual(
			rows.map((r) => [r.label, r.switchable]),
			[
				["guarded", true],
				["notify", true],
				["timer", true],
				["skill:review", true],
				["gone", false],
			],
		);
		const [b] = mod.batches(rows, new Set(rows.map((r) => r.id)));
		assert.deepEqual(b.on, ["timer"]);
		assert.deepEqual(b.off, ["notify", "skill:review"]);
		assert.equal(b.refused.length, 1);
		assert.match(b.refused[0], /^guarded stays on: this session was started with --block/);
		assert.deepEqual(mod.toggleArgs("/agent", b), [
			"--agent-dir",
			"/agent",
			"--set",
			"/sets/mine",
			"--json",
			"toggle",
			"--on",
			"extension:timer",
			"--off",
			"extension:notify",
			"--off",
			"skill:review",
			"--yes",
		]);
	});

	test("an item another one needs stays on while that one stays on; the rest still applies", () => {
		const { rows, id } = neededBy(["notify"]);

		const [b] = mod.batches(rows, new Set([id("base"), id("timer")]));
		assert.deepEqual([b.on, b.off], [["timer"], []]);
		assert.deepEqual(b.refused, ["base stays on: notify is enabled and needs it"]);

		const [both] = mod.batches(rows, new Set([id("base"), id("notify")]));
		assert.deepEqual([both.off, both.refused], [["base", "notify"], []]); // both off: fine
	});

	test("a dependent the batch switches on is said as such, not as enabled", () => {
		// helper-87: `toggle --on top --off base`, top off until then, said "top is enabled"
		const { rows, id } = neededBy(["notify", "timer"]);
		const [one] = mod.batches(rows, new Set([id("base"), id("notify"), id("timer")]));
		assert.deepEqual(one.refused, ["base stays on: timer is switched on by this run and needs it"]);
		const [two] = mod.batches(rows, new Set([id("base"), id("timer")]));
		assert.deepEqual(two.refused, [
			"base stays on: notify is enabled and timer is switched on by this run; both need it",
		]);
	});

	test("a refusal names every item that needs it and the manifest's reason, as ext does", () => {
		// helper-44: `/ext` named the first dependent only and dropped the reason
		const needed = { process: undefined, required_by: ["notify", "timer"], reason: "they import its helpers" };
		const items = [
			{ name: "base", kind: "extension", state: "enabled", guard: needed },
			{ name: "notify", kind: "extension", state: "enabled" },
			{ name: "timer", kind: "extension", state: "enabled" },
		];
		const rows = mod.rowsOf([{ set: SET, items }], ["node", "pi"]);
		const [b] = mod.batches(rows, new Set([rows[0].id]));
		assert.deepEqual(b.refused, ["base stays on: notify and timer are enabled and need it (they import its helpers)"]);
	});

	test("ext's plan reads back as one line per switch, its warnings, or that nothing changed", () => {
		const data = {
			changed: true,
			actions: [
				{ action: "disable", path: "extensions/notify.ts" },
				{ action: "enable", path: "extensions/timer.ts.off", target: "extensions/timer.ts" },
				{ action: "keep", path: "extensions/x.ts" },
			],
			warnings: ["a requires b"],
		};
		assert.deepEqual(mod.resultLines(data), [
			"- disabled extensions/notify.ts",
			"+ enabled  extensions/timer.ts", // the new path, where pi loads it from
			"! a requires b",
		]);
		assert.deepEqual(mod.resultLines({ changed: false, actions: [] }), ["nothing changed"]);
	});

	test("paths under the home folder are shown with ~, as ext shows them", () => {
		assert.equal(mod.tilde("no set in /home/me/.pi/agent", "/home/me/"), "no set in ~/.pi/agent");
		assert.equal(mod.tilde("/home/meme/x and /home/me/y", "/home/me"), "/home/meme/x and ~/y");
		assert.equal(mod.tilde("/x", "/"), "/x");
	});

	test("a bare name goes to ext as the extension's alone: a skill of that name stays as it is", () => {
		assert.equal(mod.exactName("uv"), "extension:uv");
		assert.equal(mod.exactName("skill:uv"), "skill:uv");
	});

	test("a switch in settings.json (register mode, pi config's -path) reads back too", () => {
		const detail = "disable z: adds -extensions/z.ts to its packages entry, as pi config does";
		const data = { changed: true, actions: [{ action: "filter", path: "settings.json", detail }], warnings: [] };
		assert.deepEqual(mod.resultLines(data), [`~ ${detail}`]);
	});
});

describe("a set's text on the screen (helper-82)", () => {
	const ESCAPES = JSON.parse(readFileSync(new URL("../escape-vectors.json", import.meta.url), "utf8")).vectors;
	for (const vector of ESCAPES) {
		test(`the one escaping rule: ${vector.name}`, () => {
			assert.equal(mod.escape(vector.text), vector.escaped);
		});
	}

	test("a guard's flag and reason, a set's name, an item's name and ext's errors are drawn escaped", async () => {
		const osc = "\x1b]52;c;ZWNobyBwd25lZA==\x07";
		const guard = { process: `--x${osc}`, reason: "r\x1b[2J", required_by: [] };
		const items = [
			{ name: "e1", kind: "extension", state: "enabled", guard },
			{ name: "bell\x07", kind: "extension", state: "weird\x1b[5m" },
		];
		const other = { root: "/sets/other", name: "n\x1b[31mRED", ext: EXT };
		const list = { data: { ...LISTED, items } };
		const toggle = { problem: { message: `refused: ${osc}`, fix: "fix \x1b[2J" } };
		const { p, screen } = panel({ argv: ["node", "pi", `--x${osc}`], answers: { list, toggle }, sets: [SET, other] });
		await p.load();
		const drawn = [screen()];
		for (let i = 0; i < 4; i++) {
			p.handleInput(DOWN);
			drawn.push(screen());
		}
		const unflagged = panel({ answers: { list, toggle }, sets: [SET, other] });
		await unflagged.p.load();
		unflagged.p.handleInput(" ");
		unflagged.p.handleInput("\r");
		await settle();
		drawn.push(unflagged.screen());
		const all = drawn.join("\n");
		// The list's own cursor and colours are the theme's (plain here): no escape is the set's.
		assert.ok(!/[\x00-\x08\x0b-\x1f\x7f]/.test(all.replaceAll(DOWN, "")), JSON.stringify(all));
		assert.match(all, /n\\x1b\[31mRED: e1/);
		assert.match(all, /--x\\x1b\]52;c;ZWNobyBwd25lZA==\\x07/);
		assert.match(all, /refused: \\x1b\]52/);
	});
});

describe("a command to paste into a shell", () => {
	test("each word quoted; a path under the home as ~/ outside the quotes (helper-33)", () => {
		assert.equal(mod.shellWord("/usr/bin/ext", "/home/me"), "/usr/bin/ext");
		assert.equal(mod.shellWord("/home/me/pi agents/work", "/home/me"), "~/'pi agents/work'");
		assert.equal(mod.shellWord("/home/me/set", "/home/me/"), "~/set");
		assert.equal(mod.shellWord("it's", "/home/me"), "'it'\\''s'");
		// what tilde() does to a line later finds no home left inside the quotes
		assert.equal(mod.tilde(mod.shellWord("/home/me/my set", "/home/me"), "/home/me"), "~/'my set'");
		// nor a home in the middle of a path (helper-34: `/data/home/me/x` became `/data~/x`)
		assert.equal(mod.tilde("rm '/data/home/me/my set' /data/home/me/x", "/home/me"), "rm '/data/home/me/my set' /data/home/me/x");
		assert.equal(mod.tilde("at /home/me/a (`/home/me/b`)", "/home/me"), "at ~/a (`~/b`)");
	});
});

describe("the overlay, key by key, on pi's SettingsList", () => {
	test("it lists the items with their state as ext reports it", async () => {
		const { p, calls, screen } = panel();
		assert.match(screen(), /asking ext/);
		await p.load();
		assert.deepEqual(calls, [[EXT, "--agent-dir", "/agent", "--set", "/sets/mine", "--json", "list"]]);
		const shown = screen();
		assert.match(shown, /guarded\s+● on/);
		assert.match(shown, /timer\s+○ off/);
		assert.match(shown, /gone\s+stale/);
		assert.match(shown, /Space stages · Enter applies · Esc cancels/);
	});

	test("a row ext cannot switch says why first, its guard after (helper-32)", async () => {
		const needed = { required_by: ["gamma"] };
		const items = [
			{ name: "single", kind: "extension", state: "conflict", guard: needed, note: "a file is in the way; `ext install` backs it up" },
		];
		const { p, screen } = panel({ answers: { list: { data: { ...LISTED, items } } } });
		await p.load();
		const shown = screen().replace(/\s+/g, " ");
		assert.ok(shown.includes("a file is in the way; `ext install` backs it up; guarded: needed by gamma"), shown);
	});

	test("Space stages, Enter applies every staged change as one ext plan, then reloads", async () => {
		const toggle = {
			data: { changed: true, actions: [{ action: "disable", path: "extensions/notify.ts" }], warnings: [] },
		};
		const { p, calls, closed, screen } = panel({ answers: { toggle } });
		await p.load();
		p.handleInput(DOWN); // notify
		p.handleInput(" ");
		p.handleInput(DOWN); // timer
		p.handleInput(" ");
		p.handleInput(" "); // unstaged again
		p.handleInput(" "); // and staged
		assert.match(screen(), /notify\s+○ off \(on Enter\)/);
		assert.match(screen(), /timer\s+● on \(on Enter\)/);
		p.handleInput("\r");
		await settle();
		assert.deepEqual(calls.at(-1).slice(5), ["--json", "toggle", "--on", "extension:timer", "--off", "extension:notify", "--yes"]);
		assert.equal(calls.length, 2);
		assert.match(screen(), /- disabled extensions\/notify\.ts/);
		assert.match(screen(), /Enter closes and reloads pi/);
		assert.deepEqual(closed, []);
		p.handleInput("\r");
		assert.deepEqual(closed, [true]);
	});

	test("Escape cancels: nothing is run, nothing reloads", async () => {
		const slow = panel();
		slow.p.handleInput("\x1b"); // while ext is still asked for the list
		assert.deepEqual(slow.closed, [false]);

		const { p, calls, closed } = panel();
		await p.load();
		p.handleInput(" ");
		p.handleInput("\x1b");
		assert.deepEqual(closed, [false]);
		assert.equal(calls.length, 1);
	});

	test("a guarded item is refused in this session; the rest of the batch still applies", async () => {
		const toggle = (args) => ({
			data: { changed: true, actions: [{ action: "disable", path: "extensions/notify.ts" }], args },
		});
		const { p, calls, screen, closed } = panel({ argv: ["node", "pi", "--block"], answers: { toggle } });
		await p.load();
		assert.match(screen(), /guarded here: this session was started with --block/);
		p.handleInput(" "); // guarded
		assert.match(screen(), /guarded\s+● on \(refused here\)/); // it stays on
		p.handleInput(DOWN);
		p.handleInput(" "); // notify
		p.handleInput("\r");
		await settle();
		assert.deepEqual(calls.at(-1).slice(6), ["toggle", "--off", "extension:notify", "--yes"]);
		const shown = screen();
		assert.match(shown, /✗ refused: guarded stays on: this session was started with --block/);
		assert.match(shown, /- disabled extensions\/notify\.ts/);
		p.handleInput("\r");
		assert.deepEqual(closed, [true]);
	});

	test("an item a guard only ext sees refuses stays on with ext's reason; the rest applies", async () => {
		// another session was started with --block: ext refuses the plan and names the item
		const why = "a live session (pid 7: pi --block) was started with --block (unattended runs rely on it)";
		const toggle = (args) =>
			args.includes("extension:guarded")
				? { problem: { message: `refusing to disable guarded: ${why}; nothing was written`, refused: [{ name: "guarded", why }] } }
				: { data: { changed: true, actions: [{ action: "disable", path: "extensions/notify.ts" }] } };
		const { p, calls, screen, closed } = panel({ answers: { toggle } });
		await p.load();
		assert.match(screen(), /guarded: kept on while a session started with --block runs/);
		p.handleInput(" "); // guarded
		p.handleInput(DOWN);
		p.handleInput(" "); // notify
		p.handleInput("\r");
		await settle();
		assert.deepEqual(
			calls.slice(1).map((c) => c.slice(6)),
			[
				["toggle", "--off", "extension:guarded", "--off", "extension:notify", "--yes"],
				["toggle", "--off", "extension:notify", "--yes"],
			],
		);
		const shown = screen();
		assert.match(shown, /✗ refused: guarded stays on: a live session \(pid 7: pi --block\)/);
		// pasted into a shell from anywhere, it names this dir and this set (helper-32)
		assert.ok(
			shown
				.replace(/\s+/g, " ")
				.includes(
					`fix: stop what needs it first, or in a shell: ${SET.ext} --agent-dir /agent --set ${SET.root} disable guarded --force`,
				),
			shown,
		);
		assert.doesNotMatch(shown, /nothing was written/);
		assert.match(shown, /- disabled extensions\/notify\.ts/);
		p.handleInput("\r");
		assert.deepEqual(closed, [true]);

		// everything staged refused: ext is asked once, nothing changed, nothing reloads
		const alone = panel({ answers: { toggle } });
		await alone.p.load();
		alone.p.handleInput(" ");
		alone.p.handleInput("\r");
		await settle();
		assert.equal(alone.calls.length, 2);
		assert.match(alone.screen(), /✗ refused: guarded stays on/);
		alone.p.handleInput("\r");
		assert.deepEqual(alone.closed, [false]);
	});

	test("a refusal's own fix is kept: the recorder switched off is said as ext says it", async () => {
		// helper-32: /ext said "stop what needs it first" when no session needed it
		const why = "ext cannot see pi's sessions: its session recorder is switched off";
		const fix = "switch ext's session recorder back on in pi config, or pass --force to disable it anyway";
		const toggle = () => ({ problem: { message: `refusing: ${why}`, fix, refused: [{ name: "guarded", why }] } });
		const { p, screen } = panel({ answers: { toggle } });
		await p.load();
		p.handleInput(" ");
		p.handleInput("\r");
		await settle();
		const shown = screen().replace(/\s+/g, " ");
		assert.ok(shown.includes("fix: switch ext's session recorder back on in pi config, or in a shell:"), shown);
		assert.ok(!shown.includes("stop what needs it first"), shown);
	});

	test("only a refused item staged: ext is not run, the refusal is shown, nothing reloads", async () => {
		const { p, calls, screen, closed } = panel({ argv: ["node", "pi", "--block"] });
		await p.load();
		p.handleInput(" ");
		p.handleInput("\r");
		await settle();
		assert.equal(calls.length, 1);
		assert.match(screen(), /✗ refused: guarded stays on/);
		p.handleInput("\x1b");
		assert.deepEqual(closed, [false]);
	});

	test("a refused plan, a held lock, a missing ext: a line with the fix, in the overlay", async () => {
		const lock = {
			problem: { message: "another ext is working on /agent and held its lock for 30 s", fix: "wait for it" },
		};
		const { p, screen, closed } = panel({ answers: { toggle: lock } });
		await p.load();
		p.handleInput(" ");
		p.handleInput("\r");
		await settle();
		assert.match(screen(), /✗ another ext is working on \/agent/);
		assert.match(screen(), /fix: wait for it/);
		p.handleInput("\r");
		assert.deepEqual(closed, [false]);

		const missing = { problem: { message: "ext is not on PATH", fix: "install ext" } };
		const gone = panel({ answers: { list: missing } });
		await gone.p.load();
		assert.match(gone.screen(), /✗ ext is not on PATH\n\s+fix: install ext/);
		gone.p.handleInput("\x1b");
		assert.deepEqual(gone.closed, [false]);

		const none = panel({ sets: [] });
		await none.p.load();
		assert.match(none.screen(), /ext has installed no set with \/ext in \/agent/);
		assert.match(none.screen(), /fix: run `ext install`/);
	});

	test("an item an install left out can be put in, as ext enable puts it in", async () => {
		const left = { name: "later", kind: "extension", state: "not-installed", left_out: true };
		const never = { name: "other", kind: "extension", state: "not-installed" };
		const items = [left, never];
		const put = { data: { changed: true, actions: [{ action: "link", path: "extensions/later.ts" }], warnings: [] } };
		const { p, calls, screen } = panel({ answers: { list: { data: { ...LISTED, items } }, toggle: put } });
		await p.load();
		assert.match(screen(), /later\s+○ not installed/);
		assert.match(screen(), /other\s+not-installed/); // no enable would put it in
		p.handleInput(" ");
		assert.match(screen(), /later\s+● on \(on Enter\)/);
		p.handleInput(DOWN);
		p.handleInput(" "); // not switchable: nothing staged
		p.handleInput("\r");
		await settle();
		assert.deepEqual(calls.at(-1).slice(5), ["--json", "toggle", "--on", "extension:later", "--yes"]);
		assert.match(screen(), /\+ put in\s+extensions\/later\.ts/); // what was done, said
		assert.match(screen(), /Enter closes and reloads pi/);
	});

	test("a very long name keeps the values in one column, and is named in full below", async () => {
		const long = "a-very-long-extension-name-that-goes-on-and-on-and-on";
		const items = [...ITEMS, { name: long, kind: "extension", state: "enabled" }];
		const { p } = panel({ answers: { list: { data: { ...LISTED, items } } } });
		await p.load();
		const rows = p.render(80).filter((l) => /[●○]|stale/.test(l));
		const column = (l) => l.search(/[●○]|stale/);
		assert.equal(new Set(rows.map(column)).size, 1, rows.join("\n"));
		assert.ok(rows.some((l) => l.includes("…")), rows.join("\n"));
		for (let i = 0; i < items.length - 1; i++) p.handleInput(DOWN);
		assert.match(p.render(80).join("\n"), new RegExp(`  ${long}`));
	});

	test("the label column is read off this pi's own list: 30 on pi 0.73, 36 on 1.x", async () => {
		const version = JSON.parse(readFileSync(piPackageJson(), "utf8")).version;
		const width = Number(version.split(".")[0]) >= 1 ? 36 : 30;
		assert.equal(mod.labelWidth(tui.SettingsList), width);
		const name = "x".repeat(33); // 33 characters: cut on pi 0.73 alone
		const items = [...ITEMS, { name, kind: "extension", state: "enabled" }];
		const { p } = panel({ answers: { list: { data: { ...LISTED, items } } } });
		await p.load();
		const row = p.render(100).find((l) => l.includes("xxxxxxxxxx") && /[●○]/.test(l));
		assert.ok(row, p.render(100).join("\n"));
		assert.equal(row.includes("…"), width < 33, row);
		assert.equal(row.includes(name), width >= 33, row);
		assert.equal(mod.labelWidth(class {}), mod.LABEL_WIDTH); // a list that cannot be asked
	});

	test("every line fits the width it is given", async () => {
		const { p } = panel({ argv: ["node", "pi", "--block"] });
		await p.load();
		p.handleInput(" ");
		p.handleInput("\r");
		await settle();
		for (const line of p.render(40)) assert.ok(tui.visibleWidth(line) <= 40, line);
	});
});

describe("ext as a real process", () => {
	const dir = mkdtempSync(join(tmpdir(), "ext-command-bin-"));
	const script = (name, body) => {
		const path = join(dir, name);
		writeFileSync(path, `#!/bin/sh\n${body}\n`);
		chmodSync(path, 0o755);
		return path;
	};

	test("its JSON is read back", async () => {
		const ok = script("ok", `echo '{"changed": true, "actions": []}'`);
		assert.deepEqual(await mod.runExt(ok, []), { data: { changed: true, actions: [] } });
	});

	test("a refusal (exit 3, JSON error) becomes the message and the fix", async () => {
		const refused = script(
			"refused",
			`echo '{"error": "refusing to disable a: b is enabled and needs it", "exit_code": 3, "fix": "stop b"}'; exit 3`,
		);
		assert.deepEqual(await mod.runExt(refused, []), {
			problem: { message: "refusing to disable a: b is enabled and needs it", fix: "stop b" },
		});
		const named = script(
			"named",
			`echo '{"error": "refusing", "exit_code": 3, "refused": [{"name": "a", "why": "b needs it"}]}'; exit 3`,
		);
		assert.deepEqual((await mod.runExt(named, [])).problem.refused, [{ name: "a", why: "b needs it" }]);
	});

	test("a crash without JSON says what ext printed last", async () => {
		const crash = script("crash", "echo 'Traceback: boom' >&2; exit 1");
		const got = await mod.runExt(crash, []);
		assert.match(got.problem.message, /^ext failed: Traceback: boom/);
		assert.ok(got.problem.fix);
	});

	test("no ext at all: the message says so and names the fix", async () => {
		const got = await mod.runExt(join(dir, "no-such-ext"), []);
		assert.match(got.problem.message, /the ext that installed \/ext \(.*no-such-ext\) is gone/);
		assert.match(got.problem.fix, /ext install/);
	});

	test("the recorded ext is run by its absolute path, or not at all: never an ext from PATH", () => {
		const at = (ext) => mod.extFor({ root: "/r", name: "r", ext });
		assert.equal(at(join(dir, "ok")), join(dir, "ok"));
		assert.equal(at(join(dir, "no-such-ext")), null);
		assert.equal(at("ok"), null); // relative: it would be looked up from pi's cwd
		assert.equal(at(null), null);
		const gone = mod.extGone({ root: "/r", name: "r", ext: join(dir, "no-such-ext") });
		assert.match(gone.message, /no-such-ext\) is gone; \/ext does not run another ext from PATH/);
		assert.match(gone.fix, /install ext again, then run `ext --set \/r install` with it/);
		assert.match(mod.extGone({ root: "/r", name: "r", ext: null }).message, /names no ext/);
	});

	test("with the recorded ext gone, an ext planted on PATH (a relative entry too) is not run", async () => {
		const marker = join(dir, "planted-ran");
		const planted = mkdtempSync(join(tmpdir(), "ext-command-planted-"));
		writeFileSync(join(planted, "ext"), `#!/bin/sh\necho ran > "${marker}"\necho '{"items": []}'\n`);
		chmodSync(join(planted, "ext"), 0o755);
		const path = process.env.PATH;
		const cwd = process.cwd();
		process.env.PATH = `.:${planted}:${path}`;
		process.chdir(planted);
		try {
			const closed = [];
			const p = new mod.ExtPanel({
				parts: {
					SettingsList: tui.SettingsList,
					theme: THEME,
					matchesKey: tui.matchesKey,
					truncateToWidth: tui.truncateToWidth,
					wrapTextWithAnsi: tui.wrapTextWithAnsi,
				},
				agentDir: "/agent",
				argv: ["node", "pi"],
				sets: [{ root: "/r", name: "r", ext: join(dir, "uninstalled-ext") }],
				run: mod.runExt,
				requestRender: () => {},
				done: (changed) => closed.push(changed),
			});
			await p.load();
			const shown = p.render(200).join("\n");
			assert.match(shown, /uninstalled-ext\) is gone; \/ext does not run another ext from PATH/);
			assert.match(shown, /fix: install ext again/);
			assert.equal(existsSync(marker), false);
		} finally {
			process.env.PATH = path;
			process.chdir(cwd);
		}
	});
});

test("it registers /ext and one event, for ext launch's notice: no flags, no tools", () => {
	const { api, registered, handlers } = fakePi();
	const commands = new Map();
	mod.default({ ...api, registerCommand: (name, options) => commands.set(name, options) });
	assert.deepEqual([...commands.keys()], ["ext"]);
	assert.equal(typeof commands.get("ext").handler, "function");
	assert.equal(registered.size, 0);
	assert.deepEqual([...handlers.keys()], ["session_start"]);
});

test("ext launch's warnings are said once, as pi's notices, then gone from the environment", async () => {
	const { api, emit } = fakePi();
	mod.default({ ...api, registerCommand: () => {} });
	const said = [];
	const ctx = { hasUI: true, ui: { notify: (text, level) => said.push([text, level]) } };
	const home = process.env.HOME;
	process.env[mod.LAUNCH_NOTICE] = `pi 9.0.0 is newer than the versions this set was tested with\nsee ${home}/x`;
	try {
		await emit("session_start", { reason: "startup" }, ctx);
		await emit("session_start", { reason: "reload" }, ctx);
	} finally {
		delete process.env[mod.LAUNCH_NOTICE];
	}
	assert.deepEqual(said, [
		["ext launch: pi 9.0.0 is newer than the versions this set was tested with", "warning"],
		["ext launch: see ~/x", "warning"],
	]);
	assert.equal(mod.LAUNCH_NOTICE in process.env, false);
	const quiet = [];
	mod.showLaunchNotice({ hasUI: false, ui: { notify: (t) => quiet.push(t) } }, { [mod.LAUNCH_NOTICE]: "x" });
	assert.deepEqual(quiet, []); // print mode: no UI to notify in (ext printed it before pi)
});
