/**
 * ext-sessions: tells `ext` which pi sessions are running, and with which flags.
 *
 * pi sets process.title, so from outside a running pi shows no flags. This
 * extension, which `ext install` puts into the agent dir when a set has a
 * `[guards.<name>] process = "--flag"` guard, writes the session's argv to
 * `<agent>/.extset/sessions/<pid>.json` at session_start and removes it when
 * pi quits. `ext disable` reads those records to refuse switching off an
 * extension a live session depends on.
 *
 * ext owns this file (it is replaced on `ext install`); it registers no flags,
 * tools or commands, and imports nothing from pi, so it loads on any pi scope.
 */

import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";

type Handler = (event: { reason?: string } | undefined) => unknown;
interface Host {
	on(event: string, handler: Handler): void;
}

/** The agent dir as pi resolves it: PI_CODING_AGENT_DIR (with ~), else ~/.pi/agent. */
function agentDir(): string {
	const env = process.env.PI_CODING_AGENT_DIR;
	if (!env) return join(homedir(), ".pi", "agent");
	if (env === "~") return homedir();
	if (env.startsWith("~/")) return resolve(homedir() + env.slice(1));
	return resolve(env);
}

/** Field 22 of /proc/self/stat: this process's start, in clock ticks since boot (Linux). */
function startTicks(): number | null {
	try {
		const stat = readFileSync("/proc/self/stat", "utf8");
		const ticks = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
		return Number.isFinite(ticks) ? ticks : null;
	} catch {
		return null;
	}
}

function recordPath(): string {
	return join(agentDir(), ".extset", "sessions", `${process.pid}.json`);
}

function writeRecord(): void {
	const path = recordPath();
	const record = {
		version: 1,
		pid: process.pid,
		argv: process.argv,
		start_ticks: startTicks(),
		started: Date.now() / 1000 - process.uptime(),
		writer: "ext-sessions",
	};
	mkdirSync(join(path, ".."), { recursive: true, mode: 0o700 });
	const tmp = `${path}.${Date.now()}.tmp`;
	writeFileSync(tmp, `${JSON.stringify(record)}\n`, { mode: 0o600 });
	renameSync(tmp, path);
}

function removeRecord(): void {
	rmSync(recordPath(), { force: true });
}

export default function extSessions(pi: Host): void {
	pi.on("session_start", () => {
		try {
			writeRecord();
		} catch {
			// A read-only agent dir must not stop pi; ext then treats the session as unknown.
		}
	});
	pi.on("session_shutdown", (event) => {
		// reload/new/resume/fork are followed by a session_start in the same process:
		// keep the record, so no `ext disable` slips through in between.
		if (event?.reason && event.reason !== "quit") return;
		try {
			removeRecord();
		} catch {
			// A record left behind goes stale with the pid and ext cleans it.
		}
	});
}
