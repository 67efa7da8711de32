/**
 * session-timer: a footer clock for the session. While the agent works it
 * counts the current run (`⏱ working 42s`); while it waits for you it shows
 * how long the session has been open and how much of it the agent spent
 * working (`⏱ 25m · agent 6m 10s in 4 runs`).
 *
 * The clock starts when the session starts (or is reloaded) and lives in
 * memory only. Idle, the text changes once a minute; the footer (or an RPC
 * client) is told only when it changes. Everything above the default export is pure and imports
 * nothing from pi, so tests import this file directly.
 */

import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";

const STATUS_KEY = "session-timer";
const TICK_MS = 1000;

/** `42s`, `6m 10s`, `1h 05m`; with `minutes`, `<1m`, `6m`, `1h 05m`. */
export function formatSpan(ms: number, minutes = false): string {
	const total = Math.max(0, Math.floor(ms / 1000));
	const h = Math.floor(total / 3600);
	const m = Math.floor((total % 3600) / 60);
	const s = total % 60;
	if (h > 0) return `${h}h ${String(m).padStart(2, "0")}m`;
	if (minutes) return m > 0 ? `${m}m` : "<1m";
	if (m > 0) return `${m}m ${String(s).padStart(2, "0")}s`;
	return `${s}s`;
}

/** Session and agent time, fed with timestamps so that tests control the clock. */
export class Stopwatch {
	private runStartedAt: number | undefined;
	private busyMs = 0;
	private runs = 0;

	constructor(private readonly startedAt: number) {}

	startRun(now: number): void {
		if (this.runStartedAt === undefined) this.runStartedAt = now;
	}

	endRun(now: number): void {
		if (this.runStartedAt === undefined) return;
		this.busyMs += Math.max(0, now - this.runStartedAt);
		this.runs++;
		this.runStartedAt = undefined;
	}

	get working(): boolean {
		return this.runStartedAt !== undefined;
	}

	/** The footer text at `now`. */
	render(now: number): string {
		if (this.runStartedAt !== undefined) return `⏱ working ${formatSpan(now - this.runStartedAt)}`;
		const session = formatSpan(now - this.startedAt, true);
		if (this.runs === 0) return `⏱ ${session}`;
		return `⏱ ${session} · agent ${formatSpan(this.busyMs)} in ${this.runs} run${this.runs === 1 ? "" : "s"}`;
	}
}

export default function (pi: ExtensionAPI) {
	pi.registerFlag("no-session-timer", {
		description: "Hide the session clock in the footer",
		type: "boolean",
		default: false,
	});

	let watch: Stopwatch | undefined;
	let ticker: ReturnType<typeof setInterval> | undefined;
	let shown: string | undefined;

	const show = (ctx: ExtensionContext) => {
		if (!watch) return;
		const text = watch.render(Date.now());
		if (text === shown) return;
		shown = text;
		ctx.ui.setStatus(STATUS_KEY, text);
	};

	const stop = () => {
		if (ticker) clearInterval(ticker);
		ticker = undefined;
	};

	pi.on("session_start", async (_event, ctx) => {
		stop();
		watch = undefined;
		shown = undefined;
		if (pi.getFlag("no-session-timer") === true || !ctx.hasUI) return;
		watch = new Stopwatch(Date.now());
		show(ctx);
		ticker = setInterval(() => {
			try {
				show(ctx);
			} catch {
				stop(); // the session was replaced under us
			}
		}, TICK_MS);
		// The clock must never keep pi alive on its own.
		ticker.unref?.();
	});

	pi.on("agent_start", async (_event, ctx) => {
		watch?.startRun(Date.now());
		show(ctx);
	});

	pi.on("agent_end", async (_event, ctx) => {
		watch?.endRun(Date.now());
		show(ctx);
	});

	pi.on("session_shutdown", async (_event, ctx) => {
		stop();
		if (watch && ctx.hasUI) ctx.ui.setStatus(STATUS_KEY, undefined);
		watch = undefined;
	});
}
