/**
 * notify: a desktop notification from the terminal when an agent run that
 * took at least --notify-min-secs seconds (default 8) ends, so a long run can
 * be left alone. A run you stop yourself (Esc) is not announced.
 *
 * The escape sequence follows the terminal (see chooseChannel):
 *   kitty                                → OSC 99
 *   iTerm2                               → OSC 9
 *   WezTerm, Ghostty, foot, urxvt, VTE   → OSC 777
 *   Windows Terminal                     → OSC 777, then a bell for versions without it
 *   anything else                        → the bell
 * Inside tmux the OSC is wrapped for passthrough (`set -g allow-passthrough on`).
 *
 * Everything above the default export is pure and imports nothing from pi, so
 * tests import this file directly.
 */

import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";

export const DEFAULT_MIN_SECS = 8;

export type Channel = "osc99" | "osc9" | "osc777" | "osc777+bell" | "bell";
export type Outcome = "done" | "failed" | "stopped";
export type Env = Record<string, string | undefined>;

const ESC = "\x1b";
const BEL = "\x07";
const ST = `${ESC}\\`;

/** Pick the notification channel the terminal described by `env` understands. */
export function chooseChannel(env: Env): Channel {
	if (env.KITTY_WINDOW_ID) return "osc99";
	const program = env.TERM_PROGRAM ?? "";
	if (program === "iTerm.app" || env.LC_TERMINAL === "iTerm2") return "osc9";
	if (program === "WezTerm" || env.WEZTERM_PANE) return "osc777";
	if (program === "ghostty" || env.GHOSTTY_RESOURCES_DIR) return "osc777";
	// Windows Terminal shows OSC 777 only in recent releases; older ones ignore
	// it, and the bell that follows still flashes the taskbar.
	if (env.WT_SESSION) return "osc777+bell";
	const term = env.TERM ?? "";
	if (term.startsWith("foot") || term.startsWith("rxvt-unicode") || env.VTE_VERSION) return "osc777";
	return "bell";
}

/** Read --notify-min-secs; anything that is not a number >= 0 falls back to the default. */
export function parseMinSecs(value: unknown): { secs: number; valid: boolean } {
	if (value === undefined || value === true || value === "") return { secs: DEFAULT_MIN_SECS, valid: true };
	const secs = typeof value === "string" ? Number(value.trim()) : Number.NaN;
	if (!Number.isFinite(secs) || secs < 0) return { secs: DEFAULT_MIN_SECS, valid: false };
	return { secs, valid: true };
}

/** Whether a run of `elapsedMs` with this outcome is worth a notification. */
export function shouldNotify(elapsedMs: number, minSecs: number, outcome: Outcome): boolean {
	return outcome !== "stopped" && elapsedMs >= minSecs * 1000;
}

/** How the run ended, from the last assistant message of an `agent_end` event. */
export function outcomeOf(messages: ReadonlyArray<{ role?: string; stopReason?: string }>): Outcome {
	for (let i = messages.length - 1; i >= 0; i--) {
		const message = messages[i];
		if (message?.role !== "assistant") continue;
		if (message.stopReason === "aborted") return "stopped";
		if (message.stopReason === "error") return "failed";
		return "done";
	}
	return "done";
}

/** `12s`, `2m 05s`, `1h 03m`. */
export function formatDuration(ms: number): string {
	const total = Math.max(0, Math.round(ms / 1000));
	const h = Math.floor(total / 3600);
	const m = Math.floor((total % 3600) / 60);
	const s = total % 60;
	if (h > 0) return `${h}h ${String(m).padStart(2, "0")}m`;
	if (m > 0) return `${m}m ${String(s).padStart(2, "0")}s`;
	return `${s}s`;
}

/** The notification's title and body: `Pi` and `Done (12s)`. */
export function message(outcome: Outcome, elapsedMs: number): { title: string; body: string } {
	const word = outcome === "failed" ? "Failed" : outcome === "stopped" ? "Stopped" : "Done";
	return { title: "Pi", body: `${word} (${formatDuration(elapsedMs)})` };
}

// Control characters would end the OSC early, and `;` separates OSC 777 fields.
function clean(text: string): string {
	return text.replace(/[\x00-\x1f\x7f-\x9f]/g, " ").replace(/;/g, ",");
}

function wrapForTmux(sequence: string): string {
	return `${ESC}Ptmux;${sequence.replaceAll(ESC, ESC + ESC)}${ST}`;
}

/** The bytes to write to the terminal for one notification. */
export function render(channel: Channel, title: string, body: string, env: Env = {}): string {
	const t = clean(title);
	const b = clean(body);
	let osc: string;
	switch (channel) {
		case "bell":
			return BEL;
		case "osc99":
			osc = `${ESC}]99;i=pi:d=0;${t}${ST}${ESC}]99;i=pi:p=body;${b}${ST}`;
			break;
		case "osc9":
			osc = `${ESC}]9;${t} — ${b}${BEL}`;
			break;
		case "osc777":
		case "osc777+bell":
			osc = `${ESC}]777;notify;${t};${b}${BEL}`;
			break;
	}
	const wrapped = env.TMUX ? wrapForTmux(osc) : osc;
	return channel === "osc777+bell" ? wrapped + BEL : wrapped;
}

/** What the extension touches outside pi: swapped in tests. */
export interface Terminal {
	env: Env;
	isTTY(): boolean;
	write(bytes: string): void;
	now(): number;
}

const realTerminal: Terminal = {
	env: process.env,
	isTTY: () => process.stdout.isTTY === true,
	write: (bytes) => {
		process.stdout.write(bytes);
	},
	now: () => Date.now(),
};

/** Wire the extension to `pi`, writing notifications to `terminal`. */
export function setup(pi: ExtensionAPI, terminal: Terminal): void {
	pi.registerFlag("notify-min-secs", {
		description: `Notify when an agent run took at least this many seconds (default ${DEFAULT_MIN_SECS}; 0 = always)`,
		type: "string",
		default: String(DEFAULT_MIN_SECS),
	});
	pi.registerFlag("no-notify", {
		description: "Turn off the end-of-run terminal notification for this session",
		type: "boolean",
		default: false,
	});

	let startedAt: number | undefined;

	pi.on("session_start", async (_event, ctx) => {
		const raw = pi.getFlag("notify-min-secs");
		if (!parseMinSecs(raw).valid && ctx.hasUI) {
			ctx.ui.notify(
				`notify: --notify-min-secs ${JSON.stringify(raw)} is not a number of seconds; using ${DEFAULT_MIN_SECS}`,
				"warning",
			);
		}
	});

	pi.on("agent_start", async () => {
		startedAt = terminal.now();
	});

	pi.on("agent_end", async (event, ctx) => {
		if (startedAt === undefined) return;
		const elapsed = terminal.now() - startedAt;
		startedAt = undefined;
		// Print and JSON modes own stdout, and RPC mode speaks a protocol on it.
		if (pi.getFlag("no-notify") === true || !ctx.hasUI || !terminal.isTTY()) return;
		const outcome = outcomeOf(event.messages as ReadonlyArray<{ role?: string; stopReason?: string }>);
		if (!shouldNotify(elapsed, parseMinSecs(pi.getFlag("notify-min-secs")).secs, outcome)) return;
		const { title, body } = message(outcome, elapsed);
		terminal.write(render(chooseChannel(terminal.env), title, body, terminal.env));
	});
}

export default function (pi: ExtensionAPI) {
	setup(pi, realTerminal);
}
