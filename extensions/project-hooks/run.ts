/**
 * Running one hook command the way the careful runners do: `/bin/sh` by
 * absolute path, in its own process group (so a timeout kills everything it
 * started), its JSON input on stdin, stdout and stderr capped.
 *
 * Pure Node: imports nothing from pi, so tests import it directly.
 */

import { spawn } from "node:child_process";

export const SHELL = "/bin/sh";
export const OUTPUT_CAP = 1024 * 1024;
export const DEFAULT_TIMEOUT_S = 60;

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
	return new Promise((resolve) => {
		const out: Buffer[] = [];
		const err: Buffer[] = [];
		let size = 0;
		let failure: string | undefined;
		let settled = false;
		let exitCode: number | undefined;
		const child = spawn(SHELL, ["-c", command], {
			cwd: options.cwd,
			env: options.env,
			detached: true, // its own process group: killed as one
			stdio: ["pipe", "pipe", "pipe"],
		});
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
		});
		child.on("close", () => finish());
	});
}
