import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { fakeCtx, fakePi, load } from "./helpers.mjs";

const cd = await load("confirm-destructive.ts");
const rule = (command) => cd.findDestructive(command)?.rule;

describe("findDestructive matches the documented list", () => {
	const matches = {
		"rm-recursive": [
			"rm -rf build",
			"rm -r dir",
			"rm -R dir",
			"rm --recursive dir",
			"rm -f -r dir",
			"rm -r -- -weird-name",
			"/bin/rm -rf x",
			"\\rm -rf x",
			"npm test && rm -rf dist",
			"FOO=1 rm -rf x",
			"env A=b rm -r x",
			"timeout 10 rm -rf x",
			"nice -n 5 rm -rf x",
			"ls | xargs rm -R",
			"xargs -I {} rm -r {}",
			"find . -name '*.o' -exec rm -rf {} +",
			'bash -c "rm -rf /"',
			"eval 'rm -rf x'",
			'echo "$(rm -rf x)"',
			"echo `rm -rf x`",
			"(cd sub; rm -rf out)",
			"cat <<EOF\n$(rm -rf x)\nEOF",
		],
		sudo: ["sudo apt install x", "doas reboot", "pkexec ls", "sh -lc 'sudo ls'", "echo `sudo id`", "ls; sudo -u me id"],
		"chmod-recursive": ["chmod -R 755 x", "chown -R me .", "chgrp --recursive staff d"],
		"chmod-777": ["chmod 777 f", "chmod 0777 f", "chmod a+rwx f"],
		dd: ["dd if=/dev/zero of=disk.img bs=1M count=1", "dd of=/dev/sda"],
		mkfs: ["mkfs.ext4 /dev/sdb1", "mkfs -t vfat /dev/sdc", "wipefs -a /dev/sdb", "mkswap /dev/sdb2"],
		"git-push-force": [
			"git push --force",
			"git push -f origin main",
			"git push -uf origin main",
			"git push origin +main",
			"git push --force-with-lease",
			"git -C repo push --force",
		],
		"git-reset-hard": ["git reset --hard HEAD~1", "git reset --hard"],
		"git-clean": ["git clean -fdx", "git clean --force"],
		"dev-write": ["echo hi > /dev/sda", "cat img >> /dev/sdb", "printf x &> /dev/mem", "cat x | tee /dev/sdb"],
		"truncate-zero": ["truncate -s 0 log", "truncate -s0 log", "truncate --size=0 log", "truncate --size 0 log"],
		"find-delete": ["find . -name '*.tmp' -delete"],
	};
	for (const [id, commands] of Object.entries(matches)) {
		for (const command of commands) {
			test(`${id}: ${JSON.stringify(command)}`, () => {
				assert.equal(rule(command), id);
			});
		}
	}

	test("every rule has a label and a test", () => {
		assert.deepEqual(Object.keys(cd.RULES).sort(), Object.keys(matches).sort());
		assert.equal(cd.findDestructive("rm -rf x").label, cd.RULES["rm-recursive"]);
	});
});

describe("findDestructive leaves ordinary commands alone", () => {
	const safe = [
		"",
		"ls -la",
		"rm -f a.txt",
		"rm -- -r",
		"git rm -r --cached build",
		"grep -rn sudo .",
		'git commit -m "drop the rm -rf in setup.sh"',
		"echo rm -rf",
		"ls # rm -rf /",
		"cat <<EOF\nrm -rf is how you lose work\nEOF",
		"cat <<'EOF'\n$(rm -rf x)\nEOF",
		"git push origin main",
		"git push -u origin feature",
		"git clean -n",
		"git reset --soft HEAD~1",
		"chmod 755 script.sh",
		"chmod +x run",
		"truncate -s 10M disk.img",
		"echo hi > /dev/null 2>&1",
		"cmd 2>/dev/stderr >/dev/stdout",
		"echo ok > /dev/tty",
		"echo a >/dev/shm/cache",
		"exec 3>/dev/fd/3",
		"find . -name '*.ts'",
		"npm run build && npm test",
		"python -c 'import shutil'",
	];
	for (const command of safe) {
		test(JSON.stringify(command), () => {
			assert.equal(rule(command), undefined);
		});
	}
});

describe("the extension", () => {
	const bash = (command) => ({ toolName: "bash", toolCallId: "t1", input: { command } });
	const setup = (flags = {}) => {
		const pi = fakePi(flags);
		cd.default(pi.api);
		return pi;
	};

	test("registers its flags", () => {
		assert.deepEqual([...setup().registered.keys()], ["no-confirm-destructive", "confirm-destructive-block"]);
	});
	test("asks, and lets the command run when the user agrees", async () => {
		const ctx = fakeCtx({ answers: { confirm: true } });
		assert.equal(await setup().emit("tool_call", bash("rm -rf build"), ctx), undefined);
		assert.equal(ctx.ui.calls.length, 1);
		const [kind, title, message] = ctx.ui.calls[0];
		assert.equal(kind, "confirm");
		assert.match(title, /recursive delete/);
		assert.equal(message, "rm -rf build");
	});
	test("blocks with a reason when the user declines", async () => {
		const result = await setup().emit("tool_call", bash("sudo rm x"), fakeCtx({ answers: { confirm: false } }));
		assert.equal(result.block, true);
		assert.match(result.reason, /declined/);
	});
	test("blocks without asking when there is no UI", async () => {
		const ctx = fakeCtx({ hasUI: false });
		const result = await setup().emit("tool_call", bash("git push --force"), ctx);
		assert.equal(result.block, true);
		assert.match(result.reason, /no UI to ask/);
		assert.deepEqual(ctx.ui.calls, []);
	});
	test("--confirm-destructive-block blocks without asking even with a UI", async () => {
		const ctx = fakeCtx({ answers: { confirm: true } });
		const result = await setup({ "confirm-destructive-block": true }).emit("tool_call", bash("mkfs.ext4 /dev/x"), ctx);
		assert.equal(result.block, true);
		assert.deepEqual(ctx.ui.calls, []);
	});
	test("--no-confirm-destructive lets everything through", async () => {
		const ctx = fakeCtx({ hasUI: false });
		assert.equal(await setup({ "no-confirm-destructive": true }).emit("tool_call", bash("rm -rf /"), ctx), undefined);
	});
	test("safe commands and other tools pass silently", async () => {
		const ctx = fakeCtx({ hasUI: false });
		const pi = setup();
		assert.equal(await pi.emit("tool_call", bash("ls"), ctx), undefined);
		assert.equal(await pi.emit("tool_call", { toolName: "write", input: { path: "/dev/sda" } }, ctx), undefined);
	});

	const userEntry = { type: "message", id: "u1", message: { role: "user", content: "hi" } };
	test("asks before /new drops an unsaved session", async () => {
		const ctx = fakeCtx({ entries: [userEntry], sessionFile: undefined, answers: { confirm: false } });
		assert.deepEqual(await setup().emit("session_before_switch", { reason: "new" }, ctx), { cancel: true });
		assert.match(ctx.ui.calls[0][2], /\/new loses its 1 message/);
	});
	test("a saved or empty session is left without asking", async () => {
		const saved = fakeCtx({ entries: [userEntry], sessionFile: "/s.jsonl" });
		assert.equal(await setup().emit("session_before_fork", { entryId: "u1", position: "before" }, saved), undefined);
		const empty = fakeCtx({ entries: [] });
		assert.equal(await setup().emit("session_before_switch", { reason: "resume" }, empty), undefined);
		assert.deepEqual([...saved.ui.calls, ...empty.ui.calls], []);
	});
});
