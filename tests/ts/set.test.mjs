// Rules every extension of the bundled set keeps, checked over whatever
// extensions/ holds, so a new extension is held to them without a new test.

import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { EXTENSIONS, fakePi, load } from "./helpers.mjs";

/** What pi discovers in an extensions/ dir: `*.ts`/`*.js` files and `*\/index.ts` folders, one level. */
function discovered() {
	const found = [];
	for (const name of readdirSync(EXTENSIONS).sort()) {
		const path = join(EXTENSIONS, name);
		if (statSync(path).isDirectory()) {
			if (existsSync(join(path, "index.ts")) || existsSync(join(path, "index.js"))) {
				found.push({ name, entry: `${name}/index.ts`, dir: path });
			}
		} else if (/\.(ts|js)$/.test(name)) {
			found.push({ name: name.replace(/\.(ts|js)$/, ""), entry: name });
		}
	}
	return found;
}

function sources(dir) {
	return readdirSync(dir, { recursive: true })
		.filter((f) => f.endsWith(".ts"))
		.map((f) => join(dir, f));
}

const PI_SCOPES = /["'](@mariozechner|@earendil-works)\/pi-[\w-]+["']/;

const extensions = discovered();

test("the set holds the four bundled extensions", () => {
	for (const name of ["notify", "confirm-destructive", "git-checkpoint", "session-timer"]) {
		assert.ok(
			extensions.some((e) => e.name === name),
			`${name} missing`,
		);
	}
});

test("every folder under extensions/ is an extension (pi would load nothing else there)", () => {
	for (const name of readdirSync(EXTENSIONS)) {
		const path = join(EXTENSIONS, name);
		if (statSync(path).isDirectory()) assert.ok(existsSync(join(path, "index.ts")), `${name}/ has no index.ts`);
		else assert.match(name, /\.ts$/, `${name} is neither an extension nor a folder`);
	}
});

const seenFlags = new Map();

for (const ext of extensions) {
	describe(ext.name, () => {
		test("exports a factory that registers at least one described flag named after it", async () => {
			const module = await load(ext.entry);
			assert.equal(typeof module.default, "function");
			const pi = fakePi();
			const result = module.default(pi.api);
			assert.equal(result, undefined, "a synchronous factory");
			assert.ok(pi.registered.size > 0, "no flag: `pi --help` could not show that it loaded");
			for (const [flag, options] of pi.registered) {
				assert.ok(options.description, `--${flag} has no description`);
				assert.ok(
					flag === `no-${ext.name}` || flag.startsWith(`${ext.name}-`),
					`--${flag} does not carry the extension's name`,
				);
				assert.ok(!seenFlags.has(flag), `--${flag} is also registered by ${seenFlags.get(flag)}`);
				seenFlags.set(flag, ext.name);
			}
		});

		test("imports only types from pi packages, so it loads under either package scope", () => {
			const files = ext.dir ? sources(ext.dir) : [join(EXTENSIONS, ext.entry)];
			for (const file of files) {
				for (const line of readFileSync(file, "utf8").split("\n")) {
					if (!PI_SCOPES.test(line)) continue;
					assert.match(line, /^import type /, `${file}: ${line}`);
				}
			}
		});

		if (ext.dir) {
			test("its helper modules import nothing from pi at all", () => {
				for (const file of sources(ext.dir).filter((f) => !f.endsWith("index.ts"))) {
					assert.doesNotMatch(readFileSync(file, "utf8"), PI_SCOPES, file);
				}
			});
		}
	});
}
