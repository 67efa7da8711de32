import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { fakeCtx, fakePi, load } from "./helpers.mjs";

const notify = await load("notify.ts");
const ESC = "\x1b";
const BEL = "\x07";

describe("chooseChannel picks the protocol the terminal speaks", () => {
	const cases = [
		[{ KITTY_WINDOW_ID: "1", TERM_PROGRAM: "WezTerm" }, "osc99"],
		[{ TERM_PROGRAM: "iTerm.app" }, "osc9"],
		[{ LC_TERMINAL: "iTerm2", TERM_PROGRAM: "tmux" }, "osc9"],
		[{ TERM_PROGRAM: "WezTerm" }, "osc777"],
		[{ WEZTERM_PANE: "0", TERM_PROGRAM: "tmux" }, "osc777"],
		[{ TERM_PROGRAM: "ghostty" }, "osc777"],
		[{ GHOSTTY_RESOURCES_DIR: "/x" }, "osc777"],
		[{ WT_SESSION: "abc" }, "osc777+bell"],
		[{ TERM: "foot" }, "osc777"],
		[{ TERM: "rxvt-unicode-256color" }, "osc777"],
		[{ VTE_VERSION: "7600" }, "osc777"],
		[{ TERM: "xterm-256color" }, "bell"],
		[{}, "bell"],
	];
	for (const [env, channel] of cases) {
		test(`${JSON.stringify(env)} -> ${channel}`, () => {
			assert.equal(notify.chooseChannel(env), channel);
		});
	}
});

describe("render writes the exact bytes", () => {
	test("OSC 777", () => {
		assert.equal(notify.render("osc777", "Pi", "Done (12s)"), `${ESC}]777;notify;Pi;Done (12s)${BEL}`);
	});
	test("OSC 777 then a bell for Windows Terminal", () => {
		assert.equal(notify.render("osc777+bell", "Pi", "Done"), `${ESC}]777;notify;Pi;Done${BEL}${BEL}`);
	});
	test("OSC 9 carries one line", () => {
		assert.equal(notify.render("osc9", "Pi", "Done (12s)"), `${ESC}]9;Pi — Done (12s)${BEL}`);
	});
	test("OSC 99 sends title, then body", () => {
		assert.equal(
			notify.render("osc99", "Pi", "Done"),
			`${ESC}]99;i=pi:d=0;Pi${ESC}\\${ESC}]99;i=pi:p=body;Done${ESC}\\`,
		);
	});
	test("bell", () => {
		assert.equal(notify.render("bell", "Pi", "Done"), BEL);
	});
	test("inside tmux the OSC is wrapped for passthrough, with ESC doubled", () => {
		assert.equal(
			notify.render("osc777", "Pi", "Done", { TMUX: "/tmp/tmux-0/default,1,0" }),
			`${ESC}Ptmux;${ESC}${ESC}]777;notify;Pi;Done${BEL}${ESC}\\`,
		);
	});
	test("control characters and field separators cannot end the sequence early", () => {
		assert.equal(notify.render("osc777", "P;i", `a${BEL}b\nc`), `${ESC}]777;notify;P,i;a b c${BEL}`);
	});
});

describe("when to notify", () => {
	test("parseMinSecs", () => {
		assert.deepEqual(notify.parseMinSecs(undefined), { secs: 8, valid: true });
		assert.deepEqual(notify.parseMinSecs("8"), { secs: 8, valid: true });
		assert.deepEqual(notify.parseMinSecs(" 2.5 "), { secs: 2.5, valid: true });
		assert.deepEqual(notify.parseMinSecs("0"), { secs: 0, valid: true });
		assert.deepEqual(notify.parseMinSecs("soon"), { secs: 8, valid: false });
		assert.deepEqual(notify.parseMinSecs("-3"), { secs: 8, valid: false });
	});
	test("shouldNotify: at or over the threshold, never for a run you stopped", () => {
		assert.equal(notify.shouldNotify(7999, 8, "done"), false);
		assert.equal(notify.shouldNotify(8000, 8, "done"), true);
		assert.equal(notify.shouldNotify(60_000, 8, "failed"), true);
		assert.equal(notify.shouldNotify(60_000, 8, "stopped"), false);
		assert.equal(notify.shouldNotify(0, 0, "done"), true);
	});
	test("outcomeOf reads the last assistant message", () => {
		assert.equal(notify.outcomeOf([]), "done");
		assert.equal(notify.outcomeOf([{ role: "assistant", stopReason: "stop" }, { role: "toolResult" }]), "done");
		assert.equal(notify.outcomeOf([{ role: "assistant", stopReason: "error" }]), "failed");
		assert.equal(
			notify.outcomeOf([{ role: "assistant", stopReason: "stop" }, { role: "assistant", stopReason: "aborted" }]),
			"stopped",
		);
	});
	test("message and formatDuration", () => {
		assert.deepEqual(notify.message("done", 12_400), { title: "Pi", body: "Done (12s)" });
		assert.deepEqual(notify.message("failed", 125_000), { title: "Pi", body: "Failed (2m 05s)" });
		assert.equal(notify.formatDuration(3_780_000), "1h 03m");
		assert.equal(notify.formatDuration(-5), "0s");
	});
});

describe("the extension", () => {
	async function run({ flags = {}, hasUI = true, isTTY = true, elapsed = 12_000, env = {}, messages = [] } = {}) {
		const pi = fakePi(flags);
		const written = [];
		let now = 1_000_000;
		const terminal = { env, isTTY: () => isTTY, write: (bytes) => written.push(bytes), now: () => now };
		notify.setup(pi.api, terminal);
		const ctx = fakeCtx({ hasUI });
		await pi.emit("session_start", { reason: "startup" }, ctx);
		await pi.emit("agent_start", {}, ctx);
		now += elapsed;
		await pi.emit("agent_end", { messages }, ctx);
		return { written, ctx };
	}

	test("the default export registers the flags and writes nothing", async () => {
		const pi = fakePi();
		notify.default(pi.api);
		assert.deepEqual([...pi.registered.keys()], ["notify-min-secs", "no-notify"]);
		assert.equal(pi.registered.get("notify-min-secs").default, "8");
	});
	test("a long run notifies once, on the terminal's channel", async () => {
		const { written } = await run({ env: { TERM_PROGRAM: "WezTerm" } });
		assert.deepEqual(written, [`${ESC}]777;notify;Pi;Done (12s)${BEL}`]);
	});
	test("a failed run says so", async () => {
		const { written } = await run({ env: { TERM_PROGRAM: "iTerm.app" }, messages: [{ role: "assistant", stopReason: "error" }] });
		assert.deepEqual(written, [`${ESC}]9;Pi — Failed (12s)${BEL}`]);
	});
	test("a short run, or one you stopped, does not", async () => {
		assert.deepEqual((await run({ elapsed: 3000 })).written, []);
		assert.deepEqual((await run({ messages: [{ role: "assistant", stopReason: "aborted" }] })).written, []);
	});
	test("--notify-min-secs 0 announces every run", async () => {
		assert.deepEqual((await run({ elapsed: 10, flags: { "notify-min-secs": "0" } })).written, [BEL]);
	});
	test("--no-notify, print mode and a piped stdout stay silent", async () => {
		assert.deepEqual((await run({ flags: { "no-notify": true } })).written, []);
		assert.deepEqual((await run({ hasUI: false })).written, []);
		assert.deepEqual((await run({ isTTY: false })).written, []);
	});
	test("a bad --notify-min-secs is reported and the default used", async () => {
		const { written, ctx } = await run({ flags: { "notify-min-secs": "soon" } });
		assert.equal(written.length, 1);
		assert.equal(ctx.ui.calls[0][0], "notify");
		assert.match(ctx.ui.calls[0][1], /not a number of seconds; using 8/);
	});
});
