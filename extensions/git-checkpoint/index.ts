/**
 * git-checkpoint: remembers the code state before each of your messages, and
 * offers it back when you /fork to before that message.
 *
 * At each turn start it runs `git stash create` (a dangling commit; the
 * working tree and `git stash list` are untouched) and keeps the result in
 * memory, keyed to the user message's session entry. On /fork it asks whether
 * to restore: your current changes are set aside with `git stash push`, then
 * the checkpoint is applied with `git stash apply`. Untracked files are
 * neither captured nor removed. Outside a git repository, or with no UI (print
 * mode), it does nothing and says nothing. The footer shows how many checkpoints
 * the session holds.
 */

import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { CheckpointBook, restoreQuestion, restoreSteps, sameState, shortId, statusText } from "./checkpoints.js";
import { type Git, isWorkTree, run, snapshot } from "./git.js";

const STATUS_KEY = "git-checkpoint";
const GIT_TIMEOUT_MS = 15_000;
const RESTORE = "Restore the code (current changes go to git stash)";
const KEEP = "Keep the current code";

export default function (pi: ExtensionAPI) {
	pi.registerFlag("no-git-checkpoint", {
		description: "Take no git checkpoints this session, and offer none on /fork",
		type: "boolean",
		default: false,
	});

	const book = new CheckpointBook();
	let git: Git | undefined;

	let shown = false;
	const showCount = (ctx: ExtensionContext) => {
		if (!ctx.hasUI) return;
		ctx.ui.setStatus(STATUS_KEY, statusText(book.size));
		shown = true;
	};

	pi.on("session_start", async (_event, ctx) => {
		book.clear();
		git = undefined;
		if (pi.getFlag("no-git-checkpoint") === true) return;
		// With no UI (print and json mode) there is no /fork to offer a checkpoint on, and the
		// book lives only as long as this process: no snapshot is worth taking. On pi 0.73 one
		// also held up its queue of extension events, so agent_end came after print mode had
		// ended the session, and every extension's agent_end failed (helper-54: Stop hooks).
		if (!ctx.hasUI) return;
		const cwd = ctx.cwd;
		const candidate: Git = (args) => pi.exec("git", args, { cwd, timeout: GIT_TIMEOUT_MS });
		if (await isWorkTree(candidate)) git = candidate;
	});

	pi.on("turn_start", async () => {
		if (!git) return;
		const taken = await snapshot(git, Date.now());
		if (taken) book.begin(taken);
	});

	// The user message that started the turn is saved by now: it is the leaf.
	pi.on("message_start", async (event, ctx) => {
		if (!git || event.message.role !== "assistant") return;
		const leaf = ctx.sessionManager.getLeafEntry();
		const isUserMessage = leaf?.type === "message" && leaf.message.role === "user";
		if (book.attach(leaf && { id: leaf.id, isUserMessage })) showCount(ctx);
	});

	pi.on("agent_end", async () => {
		book.settle();
	});

	pi.on("session_before_fork", async (event, ctx) => {
		// /clone ("at") keeps the current position, whose code is the current code.
		if (!git || event.position !== "before" || !ctx.hasUI) return;
		const target = book.get(event.entryId);
		if (!target) return;
		const current = await snapshot(git, Date.now());
		if (!current || sameState(target, current)) return;
		const choice = await ctx.ui.select(restoreQuestion(target, current), [RESTORE, KEEP]);
		if (choice !== RESTORE) return;
		const result = await run(git, restoreSteps(target, current, shortId(event.entryId)));
		const setAside = current.ref ? "; your changes from before are in `git stash list`" : "";
		if (result.ok) ctx.ui.notify(`git-checkpoint: code restored${setAside}`, "info");
		else ctx.ui.notify(`git-checkpoint: ${result.error}${setAside}`, "error");
	});

	pi.on("session_shutdown", async (_event, ctx) => {
		if (shown && ctx.hasUI) ctx.ui.setStatus(STATUS_KEY, undefined);
		shown = false;
	});
}
