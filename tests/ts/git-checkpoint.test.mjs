import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { fakeCtx, fakePi, git, load } from "./helpers.mjs";

const book = await load("git-checkpoint/checkpoints.ts");
const gitOps = await load("git-checkpoint/git.ts");
const extension = (await load("git-checkpoint/index.ts")).default;

// Commits in the temp repos need an identity, whatever the machine's git config says.
Object.assign(process.env, {
	GIT_AUTHOR_NAME: "t",
	GIT_AUTHOR_EMAIL: "t@example.invalid",
	GIT_COMMITTER_NAME: "t",
	GIT_COMMITTER_EMAIL: "t@example.invalid",
	GIT_CONFIG_NOSYSTEM: "1",
});

const roots = [];
after(() => {
	for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function tempDir() {
	const dir = mkdtempSync(join(tmpdir(), "git-checkpoint-"));
	roots.push(dir);
	return dir;
}

function repo() {
	const dir = tempDir();
	git(dir, "init", "--quiet");
	writeFileSync(join(dir, "a.txt"), "v0\n");
	git(dir, "add", "a.txt");
	git(dir, "commit", "--quiet", "-m", "start");
	return dir;
}

/** The Git runner the extension gets from pi.exec, over a real child process. */
function runner(cwd) {
	return (args) =>
		new Promise((resolve) => {
			execFile("git", args, { cwd }, (error, stdout, stderr) => {
				resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
			});
		});
}

const snap = (ref, head = "h1", tree = "t1") => ({ ref, head, tree, takenAt: 0 });

describe("CheckpointBook", () => {
	test("a snapshot is keyed to the user message that started the turn", () => {
		const b = new book.CheckpointBook();
		b.begin(snap("s1"));
		assert.equal(b.attach({ id: "u1", isUserMessage: true }), true);
		assert.equal(b.get("u1").ref, "s1");
		assert.equal(b.size, 1);
	});
	test("a turn started by a tool result keeps nothing", () => {
		const b = new book.CheckpointBook();
		b.begin(snap("s1"));
		assert.equal(b.attach({ id: "tr1", isUserMessage: false }), false);
		assert.equal(b.size, 0);
	});
	test("a held snapshot is used once; the first one for an entry wins", () => {
		const b = new book.CheckpointBook();
		b.begin(snap("s1"));
		b.attach({ id: "u1", isUserMessage: true });
		assert.equal(b.attach({ id: "u2", isUserMessage: true }), false);
		b.begin(snap("s2"));
		assert.equal(b.attach({ id: "u1", isUserMessage: true }), false);
		assert.equal(b.get("u1").ref, "s1");
	});
	test("settle drops a snapshot that never found its message", () => {
		const b = new book.CheckpointBook();
		b.begin(snap("s1"));
		b.settle();
		assert.equal(b.attach({ id: "u1", isUserMessage: true }), false);
	});
	test("the oldest checkpoint goes once the limit is reached", () => {
		const b = new book.CheckpointBook(2);
		for (const id of ["u1", "u2", "u3"]) {
			b.begin(snap(id));
			b.attach({ id, isUserMessage: true });
		}
		assert.equal(b.size, 2);
		assert.equal(b.get("u1"), undefined);
		assert.equal(b.get("u3").ref, "u3");
	});
	test("clear", () => {
		const b = new book.CheckpointBook();
		b.begin(snap("s1"));
		b.attach({ id: "u1", isUserMessage: true });
		b.clear();
		assert.equal(b.size, 0);
	});
});

describe("restoring", () => {
	test("statusText", () => {
		assert.equal(book.statusText(0), undefined);
		assert.equal(book.statusText(1), "⛁ 1 checkpoint");
		assert.equal(book.statusText(3), "⛁ 3 checkpoints");
	});
	test("sameState compares HEAD and tree", () => {
		assert.equal(book.sameState(snap("a", "h", "t"), snap("b", "h", "t")), true);
		assert.equal(book.sameState(snap("a", "h", "t"), snap("a", "h", "u")), false);
		assert.equal(book.sameState(snap("a", "h", "t"), snap("a", "g", "t")), false);
	});
	test("current changes are set aside before the checkpoint is applied", () => {
		assert.deepEqual(book.restoreSteps(snap("old"), snap("now"), "u1"), [
			["stash", "push", "--message", "pi git-checkpoint: before restoring u1"],
			["stash", "apply", "old"],
		]);
	});
	test("a clean tree needs no stash push; a clean checkpoint needs no apply", () => {
		assert.deepEqual(book.restoreSteps(snap("old"), snap(undefined), "u1"), [["stash", "apply", "old"]]);
		assert.deepEqual(book.restoreSteps(snap(undefined), snap("now"), "u1"), [
			["stash", "push", "--message", "pi git-checkpoint: before restoring u1"],
		]);
	});
	test("the question warns when HEAD moved", () => {
		assert.doesNotMatch(book.restoreQuestion(snap("a", "h"), snap("b", "h")), /HEAD has moved/);
		assert.match(book.restoreQuestion(snap("a", "h"), snap("b", "g")), /HEAD has moved/);
	});
	test("shortId", () => {
		assert.equal(book.shortId("0123456789abcdef"), "01234567");
	});
});

describe("git.ts against a real repository", () => {
	test("isWorkTree", async () => {
		assert.equal(await gitOps.isWorkTree(runner(repo())), true);
		assert.equal(await gitOps.isWorkTree(runner(tempDir())), false);
	});
	test("a clean tree snapshots as HEAD, with no stash commit", async () => {
		const dir = repo();
		const s = await gitOps.snapshot(runner(dir), 5);
		assert.equal(s.ref, undefined);
		assert.equal(s.head, git(dir, "rev-parse", "HEAD"));
		assert.equal(s.tree, git(dir, "rev-parse", "HEAD^{tree}"));
		assert.equal(s.takenAt, 5);
	});
	test("a dirty tree snapshots as a stash commit, leaving tree and stash list alone", async () => {
		const dir = repo();
		writeFileSync(join(dir, "a.txt"), "v1\n");
		const s = await gitOps.snapshot(runner(dir), 0);
		assert.match(s.ref, /^[0-9a-f]{40}$/);
		assert.notEqual(s.tree, git(dir, "rev-parse", "HEAD^{tree}"));
		assert.equal(readFileSync(join(dir, "a.txt"), "utf8"), "v1\n");
		assert.equal(git(dir, "stash", "list"), "");
	});
	test("no snapshot before the first commit, or outside a repository", async () => {
		const fresh = tempDir();
		git(fresh, "init", "--quiet");
		assert.equal(await gitOps.snapshot(runner(fresh), 0), undefined);
		assert.equal(await gitOps.snapshot(runner(tempDir()), 0), undefined);
	});
	test("run stops at the first failing step and names it", async () => {
		const result = await gitOps.run(runner(repo()), [["stash", "apply", "nope"], ["status"]]);
		assert.equal(result.ok, false);
		assert.match(result.error, /^git stash apply nope failed: /);
	});
});

describe("the extension, driven like pi drives it", () => {
	function start(dir, flags = {}) {
		const calls = [];
		const pi = fakePi(flags, (command, args, options) => {
			calls.push([command, ...args]);
			assert.equal(command, "git");
			return runner(options.cwd)(args);
		});
		extension(pi.api);
		return { pi, calls };
	}
	const user = (id) => ({ type: "message", id, message: { role: "user", content: id } });
	const toolResult = (id) => ({ type: "message", id, message: { role: "toolResult" } });
	const assistant = { message: { role: "assistant" } };

	/** One agent run: turn start (snapshot), the prompt saved, the reply starts, then `work` edits files. */
	async function turn(pi, ctx, entries, entry, work) {
		await pi.emit("turn_start", { turnIndex: 0, timestamp: 0 }, ctx);
		entries.push(entry);
		await pi.emit("message_start", assistant, ctx);
		work?.();
		await pi.emit("agent_end", { messages: [] }, ctx);
	}

	test("with no UI (print mode) it runs no git at all: no /fork to offer a checkpoint on", async () => {
		const dir = repo();
		const { pi, calls } = start(dir);
		const ctx = fakeCtx({ cwd: dir, hasUI: false, entries: [] });
		await pi.emit("session_start", { reason: "startup" }, ctx);
		await turn(pi, ctx, [], user("u1"));
		assert.deepEqual(calls, []);
	});

	test("restores the code from before a message on /fork, keeping the newer changes in the stash", async () => {
		const dir = repo();
		const file = join(dir, "a.txt");
		const { pi } = start(dir);
		const entries = [];
		const ctx = fakeCtx({ cwd: dir, entries, answers: { select: (options) => options[0] } });
		await pi.emit("session_start", { reason: "startup" }, ctx);

		writeFileSync(file, "v1 (yours)\n");
		await turn(pi, ctx, entries, user("u1"), () => writeFileSync(file, "v2 (agent)\n"));
		await turn(pi, ctx, entries, user("u2"), () => writeFileSync(file, "v3 (agent)\n"));
		assert.equal(ctx.ui.status.get("git-checkpoint"), "⛁ 2 checkpoints");

		const result = await pi.emit("session_before_fork", { entryId: "u2", position: "before" }, ctx);
		assert.equal(result, undefined, "the fork goes ahead");
		assert.equal(readFileSync(file, "utf8"), "v2 (agent)\n");
		assert.match(git(dir, "stash", "list"), /pi git-checkpoint: before restoring u2/);
		assert.equal(git(dir, "show", "stash@{0}:a.txt"), "v3 (agent)");
		assert.match(ctx.ui.calls.at(-1)[1], /code restored/);

		await pi.emit("session_before_fork", { entryId: "u1", position: "before" }, ctx);
		assert.equal(readFileSync(file, "utf8"), "v1 (yours)\n");
	});

	test("a clean checkpoint restores to HEAD", async () => {
		const dir = repo();
		const { pi } = start(dir);
		const entries = [];
		const ctx = fakeCtx({ cwd: dir, entries, answers: { select: (options) => options[0] } });
		await pi.emit("session_start", { reason: "startup" }, ctx);
		await turn(pi, ctx, entries, user("u1"), () => writeFileSync(join(dir, "a.txt"), "changed\n"));
		await pi.emit("session_before_fork", { entryId: "u1", position: "before" }, ctx);
		assert.equal(readFileSync(join(dir, "a.txt"), "utf8"), "v0\n");
	});

	test("keeping the current code changes nothing; an unchanged tree is not even asked about", async () => {
		const dir = repo();
		const { pi } = start(dir);
		const entries = [];
		const ctx = fakeCtx({ cwd: dir, entries, answers: { select: (options) => options[1] } });
		await pi.emit("session_start", { reason: "startup" }, ctx);
		await turn(pi, ctx, entries, user("u1"));
		await pi.emit("session_before_fork", { entryId: "u1", position: "before" }, ctx);
		assert.equal(ctx.ui.calls.filter((c) => c[0] === "select").length, 0);

		await turn(pi, ctx, entries, user("u2"), () => writeFileSync(join(dir, "a.txt"), "changed\n"));
		await pi.emit("session_before_fork", { entryId: "u2", position: "before" }, ctx);
		assert.equal(ctx.ui.calls.filter((c) => c[0] === "select").length, 1);
		assert.equal(readFileSync(join(dir, "a.txt"), "utf8"), "changed\n");
		assert.equal(git(dir, "stash", "list"), "");
	});

	test("turns started by tool results, /clone and print mode offer nothing", async () => {
		const dir = repo();
		const { pi } = start(dir);
		const entries = [];
		const ctx = fakeCtx({ cwd: dir, entries, answers: { select: (options) => options[0] } });
		await pi.emit("session_start", { reason: "startup" }, ctx);
		await turn(pi, ctx, entries, toolResult("tr1"), () => writeFileSync(join(dir, "a.txt"), "x\n"));
		assert.equal(ctx.ui.status.get("git-checkpoint"), undefined);
		await turn(pi, ctx, entries, user("u1"), () => writeFileSync(join(dir, "a.txt"), "y\n"));
		await pi.emit("session_before_fork", { entryId: "u1", position: "at" }, ctx);
		await pi.emit("session_before_fork", { entryId: "u1", position: "before" }, { ...ctx, hasUI: false });
		assert.equal(readFileSync(join(dir, "a.txt"), "utf8"), "y\n");
		assert.equal(ctx.ui.calls.filter((c) => c[0] === "select").length, 0);
	});

	test("outside a git repository it asks git once and then stays silent", async () => {
		const dir = tempDir();
		const { pi, calls } = start(dir);
		const entries = [];
		const ctx = fakeCtx({ cwd: dir, entries });
		await pi.emit("session_start", { reason: "startup" }, ctx);
		await turn(pi, ctx, entries, user("u1"));
		await pi.emit("session_before_fork", { entryId: "u1", position: "before" }, ctx);
		assert.deepEqual(calls, [["git", "rev-parse", "--is-inside-work-tree"]]);
		assert.deepEqual(ctx.ui.calls, []);
	});

	test("--no-git-checkpoint runs no git at all", async () => {
		const dir = repo();
		const { pi, calls } = start(dir, { "no-git-checkpoint": true });
		const entries = [];
		const ctx = fakeCtx({ cwd: dir, entries });
		await pi.emit("session_start", { reason: "startup" }, ctx);
		await turn(pi, ctx, entries, user("u1"));
		assert.deepEqual(calls, []);
	});

	test("session_shutdown clears the footer", async () => {
		const dir = repo();
		const { pi } = start(dir);
		const entries = [];
		const ctx = fakeCtx({ cwd: dir, entries });
		await pi.emit("session_start", { reason: "startup" }, ctx);
		await turn(pi, ctx, entries, user("u1"));
		assert.equal(ctx.ui.status.get("git-checkpoint"), "⛁ 1 checkpoint");
		await pi.emit("session_shutdown", { reason: "quit" }, ctx);
		assert.equal(ctx.ui.status.has("git-checkpoint"), false);
	});
});
