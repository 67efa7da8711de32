/**
 * The git side of git-checkpoint, through an injected runner so that tests
 * drive a real repository without pi. Imports nothing from pi.
 */

import type { Snapshot } from "./checkpoints.js";

export interface GitResult {
	code: number;
	stdout: string;
	stderr: string;
}

/** Runs `git <args>` in the session's working directory. */
export type Git = (args: string[]) => Promise<GitResult>;

async function out(git: Git, args: string[]): Promise<string | undefined> {
	try {
		const result = await git(args);
		return result.code === 0 ? result.stdout.trim() : undefined;
	} catch {
		return undefined;
	}
}

/** True inside a git work tree; false outside one, or when git is missing. */
export async function isWorkTree(git: Git): Promise<boolean> {
	return (await out(git, ["rev-parse", "--is-inside-work-tree"])) === "true";
}

/**
 * The current code state, taken with `git stash create`, which writes a
 * dangling commit and touches neither the working tree nor the stash list.
 * Undefined when there is nothing to anchor it to (no commit yet) or git fails.
 */
export async function snapshot(git: Git, now: number): Promise<Snapshot | undefined> {
	const head = await out(git, ["rev-parse", "--verify", "--quiet", "HEAD"]);
	if (!head) return undefined;
	const created = await out(git, ["stash", "create"]);
	if (created === undefined) return undefined;
	const ref = created === "" ? undefined : created;
	const tree = await out(git, ["rev-parse", `${ref ?? head}^{tree}`]);
	if (!tree) return undefined;
	return { ref, head, tree, takenAt: now };
}

/** Run the steps in order; stop at the first failure and say which. */
export async function run(git: Git, steps: string[][]): Promise<{ ok: true } | { ok: false; error: string }> {
	for (const args of steps) {
		let result: GitResult;
		try {
			result = await git(args);
		} catch (error) {
			return { ok: false, error: `git ${args.join(" ")}: ${String(error)}` };
		}
		if (result.code !== 0) {
			const why = (result.stderr || result.stdout).trim().split("\n")[0] ?? "";
			return { ok: false, error: `git ${args.join(" ")} failed: ${why}` };
		}
	}
	return { ok: true };
}
