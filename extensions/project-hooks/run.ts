/**
 * Running one hook command the way the careful runners do: `/bin/sh` by
 * absolute path, in its own process group (so a timeout kills everything it
 * started), its JSON input on stdin, stdout and stderr capped.
 *
 * A descendant that leaves the group (`setsid`, a daemon) still carries a mark
 * in its environment: at the hook's end or timeout every process of this user
 * whose /proc/<pid>/environ holds the mark is killed too (Linux; elsewhere, and
 * for a process that clears its environment, SECURITY.md says it as a limit).
 * A pipe held open by a survivor does not keep the hook running past its exit.
 * A hook does not outlive pi either: a watcher in its group reads a socket only pi holds
 * the other end of, and kills the group when pi is gone, however it went (helper-45: killed
 * by `timeout` or a closed terminal, pi left the hook running with no timeout at all).
 *
 * Pure Node: imports nothing from pi, so tests import it directly.
 */

import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";

export const SHELL = "/bin/sh";
export const OUTPUT_CAP = 1024 * 1024;
export const DEFAULT_TIMEOUT_S = 60;
/** The environment variable each hook's processes carry, so the ones that leave its group are found. */
export const MARK = "PROJECT_HOOKS_RUN";
/** The first line of every hook's shell: in the background, a watcher that waits on fd 3 (a
 * socket whose other end only this pi holds) and kills the hook's whole group once it reads
 * the end, which comes when pi exits or is killed; the hook itself runs without fd 3. Forked
 * twice, so it is no job of the hook's shell: a hook's `wait` or `jobs` does not see it
 * (helper-46); on the hook's own first line, so a syntax error names the hook's line. */
export const WATCHER = "( ( read -r _ <&3; kill -KILL 0 ) & ) 2>/dev/null; exec 3<&-";
/** How long output may still come after the hook exits, from a process that outlived it. */
const AFTER_EXIT_MS = 500;

export interface Outcome {
	/** The exit code, or undefined when the hook did not exit by itself. */
	code: number | undefined;
	stdout: string;
	stderr: string;
	/** Why the hook did not finish normally: timed out, killed by a signal, could not start, too much output. */
	failure?: string;
}

export interface RunOptions {
	cwd: string;
	env: NodeJS.ProcessEnv;
	timeoutS: number;
}

/** Run `command` with `input` on stdin; never throws. */
export function runHook(command: string, input: string, options: RunOptions): Promise<Outcome> {
	// Node's spawn throws on a NUL byte in an argument: a command holding one cannot start, said
	// as such (helper-54: the throw carried Node's own text, the watcher's shell line in it).
	if (command.includes("\0")) {
		return Promise.resolve({ code: undefined, stdout: "", stderr: "", failure: `could not start ${SHELL}: the command holds a NUL byte` });
	}
	return new Promise((resolve) => {
		const out: Buffer[] = [];
		const err: Buffer[] = [];
		let size = 0;
		let failure: string | undefined;
		let settled = false;
		let exitCode: number | undefined;
		const mark = randomUUID();
		const child = spawn(SHELL, ["-c", `${WATCHER}; ${command}`], {
			cwd: options.cwd,
			env: { ...options.env, [MARK]: mark },
			detached: true, // its own process group: killed as one
			stdio: ["pipe", "pipe", "pipe", "pipe"], // fd 3: the watcher's, never written
		});
		const lifeline = child.stdio[3] as import("node:net").Socket | null;
		lifeline?.on("error", () => {}); // the group killed: its end is gone, nothing to say
		const bornSince = startTicks(child.pid); // whatever the hook starts is born after this
		// Kill the whole group, and stop waiting for pipes that a process outside it may hold.
		const killGroup = (why: string) => {
			failure ??= why;
			if (child.pid !== undefined) {
				try {
					process.kill(-child.pid, "SIGKILL");
				} catch {
					// the group is gone already
				}
			}
			reap(mark, bornSince);
			child.stdout.destroy();
			child.stderr.destroy();
			finish();
		};
		const timer = setTimeout(() => killGroup(`timed out after ${options.timeoutS} s`), options.timeoutS * 1000);
		const collect = (into: Buffer[]) => (chunk: Buffer) => {
			size += chunk.length;
			if (size > OUTPUT_CAP) {
				killGroup(`wrote more than ${OUTPUT_CAP} bytes of output`);
				return;
			}
			into.push(chunk);
		};
		child.stdout.on("data", collect(out));
		child.stderr.on("data", collect(err));
		child.stdin.on("error", () => {}); // a hook that does not read its input is fine
		child.stdin.end(input);
		function finish() {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			lifeline?.destroy();
			resolve({
				code: failure ? undefined : exitCode,
				stdout: Buffer.concat(out).toString("utf8"),
				stderr: Buffer.concat(err).toString("utf8"),
				failure,
			});
		}
		child.on("error", (error) => {
			failure ??= `could not start ${SHELL}: ${error.message}`;
			finish();
		});
		child.on("exit", (code, signal) => {
			if (signal && !failure) failure = `killed by ${signal}`;
			exitCode = code ?? undefined;
			// Whatever the hook left running in its group goes with it (and lets its pipes close).
			if (child.pid !== undefined) {
				try {
					process.kill(-child.pid, "SIGKILL");
				} catch {
					// nothing left
				}
			}
			reap(mark, bornSince);
			// A process that escaped even that may hold the pipes: the hook is over all the same.
			setTimeout(() => {
				child.stdout.destroy();
				child.stderr.destroy();
				finish();
			}, AFTER_EXIT_MS).unref();
		});
		child.on("close", () => finish());
	});
}

/** Reads one process's environment ("" while it is mid-exec); throws when it is gone or not ours. */
export type EnvironReader = (pid: string) => string;

const readEnviron: EnvironReader = (pid) => readFileSync(`/proc/${pid}/environ`, "latin1");

/** A process caught in execve reads as an empty environment until the new image is set up. */
const EXEC_RETRIES = 20;
const EXEC_RETRY_MS = 5;
const PF_KTHREAD = 0x00200000;

/**
 * Kill every process that carries this hook's mark; a few rounds, for those
 * forked meanwhile. The number killed.
 *
 * A process that is in the middle of an exec (`setsid sleep`, the usual
 * daemon) shows an empty environment for a moment, and a single read passes
 * it over. So one of ours born since the hook started (`bornSince`, in clock
 * ticks since boot) whose environment reads empty is read again, every 5 ms,
 * for at most 100 ms: one that cleared its environment for good is let be.
 */
export function reap(mark: string, bornSince = 0, read: EnvironReader = readEnviron): number {
	const needle = `${MARK}=${mark}`;
	const killed = new Set<string>();
	for (let round = 0; round < 5; round++) {
		let pids: string[];
		try {
			pids = readdirSync("/proc").filter((name) => /^[0-9]+$/.test(name));
		} catch {
			return killed.size; // no /proc: the process group is all there is
		}
		const before = killed.size;
		let execing = sweep(pids, needle, bornSince, read, killed);
		for (let retry = 0; execing.length > 0 && retry < EXEC_RETRIES; retry++) {
			pause(EXEC_RETRY_MS);
			execing = sweep(execing, needle, bornSince, read, killed);
		}
		if (killed.size === before) break;
	}
	return killed.size;
}

/** Kill those of `pids` with the mark (into `killed`); returns those that read empty and may be mid-exec. */
function sweep(pids: string[], needle: string, bornSince: number, read: EnvironReader, killed: Set<string>): string[] {
	const execing: string[] = [];
	for (const pid of pids) {
		if (killed.has(pid)) continue; // dying: a zombie reads empty too
		let environ: string;
		try {
			environ = read(pid);
		} catch {
			continue; // gone, or not ours
		}
		if (environ === "") {
			if (mayBeExecing(pid, bornSince)) execing.push(pid);
			continue;
		}
		if (!environ.split("\0").includes(needle)) continue;
		try {
			process.kill(Number(pid), "SIGKILL");
			killed.add(pid);
		} catch {
			// gone meanwhile
		}
	}
	return execing;
}

/** Born since the hook started, and neither a zombie nor a kernel thread (those have no environment at all). */
function mayBeExecing(pid: string, bornSince: number): boolean {
	const fields = statFields(pid);
	if (fields === undefined || fields[0] === "Z" || fields[0] === "X") return false;
	return (Number(fields[6]) & PF_KTHREAD) === 0 && Number(fields[19]) >= bornSince;
}

/** When a process started, in clock ticks since boot (0 when it cannot be read: every process counts). */
export function startTicks(pid: number | undefined): number {
	const fields = pid === undefined ? undefined : statFields(String(pid));
	return fields === undefined ? 0 : Number(fields[19]);
}

/** /proc/<pid>/stat from its state on (field 3 is [0]), past a command name that may hold spaces. */
function statFields(pid: string): string[] | undefined {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
		return stat.slice(stat.lastIndexOf(") ") + 2).split(" ");
	} catch {
		return undefined;
	}
}

/** Block for `ms` (the hook is over; this is its last sweep, and rare). */
function pause(ms: number): void {
	Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
