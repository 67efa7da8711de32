import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { fakeCtx, fakePi, load } from "./helpers.mjs";

const timer = await load("session-timer.ts");

describe("formatSpan", () => {
	test("seconds, minutes, hours", () => {
		assert.equal(timer.formatSpan(42_900), "42s");
		assert.equal(timer.formatSpan(370_000), "6m 10s");
		assert.equal(timer.formatSpan(370_000, true), "6m");
		assert.equal(timer.formatSpan(59_000, true), "<1m");
		assert.equal(timer.formatSpan(3_900_000), "1h 05m");
		assert.equal(timer.formatSpan(-1), "0s");
	});
});

describe("Stopwatch", () => {
	test("idle, working, then the totals", () => {
		const w = new timer.Stopwatch(0);
		assert.equal(w.render(30_000), "⏱ <1m");
		w.startRun(60_000);
		assert.equal(w.working, true);
		assert.equal(w.render(102_000), "⏱ working 42s");
		w.endRun(120_000);
		assert.equal(w.render(25 * 60_000), "⏱ 25m · agent 1m 00s in 1 run");
		w.startRun(26 * 60_000);
		w.endRun(26 * 60_000 + 5_000);
		assert.equal(w.render(27 * 60_000), "⏱ 27m · agent 1m 05s in 2 runs");
	});
	test("an end without a start, or a second start, changes nothing", () => {
		const w = new timer.Stopwatch(0);
		w.endRun(10);
		w.startRun(1_000);
		w.startRun(5_000);
		w.endRun(11_000);
		assert.equal(w.render(11_000), "⏱ <1m · agent 10s in 1 run");
	});
});

describe("the extension", () => {
	test("shows the clock in the footer and takes it away at shutdown", async () => {
		const pi = fakePi();
		timer.default(pi.api);
		assert.deepEqual([...pi.registered.keys()], ["no-session-timer"]);
		const ctx = fakeCtx();
		await pi.emit("session_start", { reason: "startup" }, ctx);
		assert.equal(ctx.ui.status.get("session-timer"), "⏱ <1m");
		await pi.emit("agent_start", {}, ctx);
		assert.match(ctx.ui.status.get("session-timer"), /^⏱ working \d+s$/);
		await pi.emit("agent_end", { messages: [] }, ctx);
		assert.match(ctx.ui.status.get("session-timer"), /in 1 run$/);
		await pi.emit("session_shutdown", { reason: "quit" }, ctx);
		assert.equal(ctx.ui.status.has("session-timer"), false);
	});
	test("--no-session-timer and print mode show nothing", async () => {
		for (const [flags, hasUI] of [[{ "no-session-timer": true }, true], [{}, false]]) {
			const pi = fakePi(flags);
			timer.default(pi.api);
			const ctx = fakeCtx({ hasUI });
			await pi.emit("session_start", { reason: "startup" }, ctx);
			await pi.emit("agent_start", {}, ctx);
			await pi.emit("agent_end", { messages: [] }, ctx);
			await pi.emit("session_shutdown", { reason: "quit" }, ctx);
			assert.deepEqual(ctx.ui.calls, []);
		}
	});
});
