/**
 * Checkpoint bookkeeping for git-checkpoint: which snapshot belongs to which
 * session entry, and what restoring one means. Pure: no git, no pi.
 *
 * A snapshot is taken at each turn start, before the user message that
 * started the turn is saved to the session; it is attached to that message
 * when the turn's first assistant message starts. /fork offers user messages
 * only, so snapshots of turns that a tool result started are dropped.
 */

/** The code state at one moment: `git stash create` output, HEAD, and the tree they stand for. */
export interface Snapshot {
	/** The stash commit, or undefined when tracked files matched HEAD. */
	ref: string | undefined;
	head: string;
	/** The tree of `ref`, else of `head`: equal trees mean equal tracked files. */
	tree: string;
	takenAt: number;
}

/** The session entry that is the leaf when a turn's first assistant message starts. */
export interface LeafInfo {
	id: string;
	isUserMessage: boolean;
}

export const DEFAULT_LIMIT = 200;

export class CheckpointBook {
	private pending: Snapshot | undefined;
	private readonly byEntry = new Map<string, Snapshot>();

	constructor(private readonly limit = DEFAULT_LIMIT) {}

	/** Turn start: hold the snapshot until the entry it belongs to is known. */
	begin(snapshot: Snapshot): void {
		this.pending = snapshot;
	}

	/** First assistant message of a turn: key the held snapshot to the user message before it. */
	attach(leaf: LeafInfo | undefined): boolean {
		const snapshot = this.pending;
		this.pending = undefined;
		if (!snapshot || !leaf?.isUserMessage || this.byEntry.has(leaf.id)) return false;
		this.byEntry.set(leaf.id, snapshot);
		if (this.byEntry.size > this.limit) {
			const oldest = this.byEntry.keys().next().value as string;
			this.byEntry.delete(oldest);
		}
		return true;
	}

	/** End of a run: a snapshot never attached (the turn failed before replying) is dropped. */
	settle(): void {
		this.pending = undefined;
	}

	get(entryId: string): Snapshot | undefined {
		return this.byEntry.get(entryId);
	}

	get size(): number {
		return this.byEntry.size;
	}

	clear(): void {
		this.pending = undefined;
		this.byEntry.clear();
	}
}

/** Footer text: `⛁ 3 checkpoints`, nothing while there are none. */
export function statusText(count: number): string | undefined {
	if (count <= 0) return undefined;
	return `⛁ ${count} checkpoint${count === 1 ? "" : "s"}`;
}

/** Whether the working tree already holds the checkpoint's code. */
export function sameState(a: Snapshot, b: Snapshot): boolean {
	return a.head === b.head && a.tree === b.tree;
}

/**
 * The git commands that bring back `target`, given the state now: set the
 * current changes aside with `git stash push` (never lost: `git stash list`),
 * then `git stash apply` the checkpoint onto the clean tree.
 */
export function restoreSteps(target: Snapshot, current: Snapshot, label: string): string[][] {
	const steps: string[][] = [];
	if (current.ref) steps.push(["stash", "push", "--message", `pi git-checkpoint: before restoring ${label}`]);
	if (target.ref) steps.push(["stash", "apply", target.ref]);
	return steps;
}

/** The question /fork asks, with a warning when commits were made since the checkpoint. */
export function restoreQuestion(target: Snapshot, current: Snapshot): string {
	const base = "Restore the code to how it was before this message?";
	if (target.head === current.head) return base;
	return `${base} (HEAD has moved since: commits stay, only uncommitted changes are restored)`;
}

/** A short label for a session entry id, for stash messages and notices. */
export function shortId(entryId: string): string {
	return entryId.slice(0, 8);
}
