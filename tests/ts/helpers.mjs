// Shared by the *.test.mjs files: load the bundled TypeScript through the jiti
// that the installed pi ships (so a test sees what pi's loader sees), and a
// stand-in for pi's ExtensionAPI that records what an extension registers.

import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const EXTENSIONS = join(REPO, "extensions");

const PI_PACKAGES = new Set(["@mariozechner/pi-coding-agent", "@earendil-works/pi-coding-agent"]);

/** The pi executable: $EXTSET_PI, else `pi` on PATH, else the repo's .cache/pi install. */
export function findPi() {
	if (process.env.EXTSET_PI) return process.env.EXTSET_PI;
	for (const dir of (process.env.PATH ?? "").split(delimiter)) {
		if (dir && existsSync(join(dir, "pi"))) return join(dir, "pi");
	}
	const cached = join(REPO, ".cache", "pi", "node_modules", ".bin", "pi");
	if (existsSync(cached)) return cached;
	throw new Error("pi not found: set EXTSET_PI, put pi on PATH, or install it under .cache/pi");
}

/** The package.json of the pi-coding-agent package behind a pi executable. */
export function piPackageJson(pi = findPi()) {
	let dir = dirname(realpathSync(pi));
	for (;;) {
		const candidate = join(dir, "package.json");
		if (existsSync(candidate) && PI_PACKAGES.has(JSON.parse(readFileSync(candidate, "utf8")).name)) {
			return candidate;
		}
		const parent = dirname(dir);
		if (parent === dir) throw new Error(`no pi-coding-agent package.json above ${pi}`);
		dir = parent;
	}
}

let jiti;

/** Import a module of the bundled set (path relative to extensions/) as pi's loader would. */
export async function load(relative) {
	if (!jiti) {
		const { createJiti } = createRequire(piPackageJson())("jiti");
		// The options pi's extension loader uses under Node, minus its aliases: an
		// extension that imports a value (not a type) from pi then fails here.
		jiti = createJiti(import.meta.url, { moduleCache: false });
	}
	return jiti.import(join(EXTENSIONS, relative));
}

/** Import one of ext's own agent-side files (installer/agent/<name>) as pi's loader would. */
export async function loadAgentFile(name) {
	await load("notify.ts"); // makes the jiti
	return jiti.import(join(REPO, "installer", "agent", name));
}

/** The pi-tui package of the installed pi (its real components, for a test to drive). */
export async function piTui() {
	const require = createRequire(piPackageJson());
	for (const name of ["@mariozechner/pi-tui", "@earendil-works/pi-tui"]) {
		try {
			return await import(pathToFileURL(require.resolve(name)).href);
		} catch {
			// the other scope
		}
	}
	throw new Error("no pi-tui beside the installed pi");
}

/** A stand-in for pi's ExtensionAPI: records flags and handlers; `flags` are the CLI values. */
export function fakePi(flags = {}, exec = undefined) {
	const registered = new Map();
	const handlers = new Map();
	const api = {
		registerFlag(name, options) {
			registered.set(name, options);
		},
		getFlag(name) {
			if (!registered.has(name)) return undefined;
			return name in flags ? flags[name] : registered.get(name).default;
		},
		on(event, handler) {
			if (!handlers.has(event)) handlers.set(event, []);
			handlers.get(event).push(handler);
		},
		exec(command, args, options) {
			if (!exec) throw new Error(`unexpected pi.exec(${command} ${args.join(" ")})`);
			return exec(command, args, options);
		},
	};
	return {
		api,
		registered,
		handlers,
		/** Run an event's handlers in order, as pi does; returns the last non-undefined result. */
		async emit(event, payload, ctx) {
			let result;
			for (const handler of handlers.get(event) ?? []) {
				const r = await handler({ type: event, ...payload }, ctx);
				if (r !== undefined) result = r;
				if (result?.cancel || result?.block) return result;
			}
			return result;
		},
	};
}

/** A stand-in for ExtensionContext; `answers` script the dialogs, `ui.calls` records UI use. */
export function fakeCtx({ hasUI = true, cwd = process.cwd(), entries = [], sessionFile, answers = {} } = {}) {
	const calls = [];
	const ui = {
		calls,
		status: new Map(),
		async confirm(title, message) {
			calls.push(["confirm", title, message]);
			return answers.confirm ?? false;
		},
		async select(title, options) {
			calls.push(["select", title, options]);
			return typeof answers.select === "function" ? answers.select(options) : answers.select;
		},
		notify(message, level) {
			calls.push(["notify", message, level]);
		},
		setStatus(key, text) {
			calls.push(["setStatus", key, text]);
			if (text === undefined) ui.status.delete(key);
			else ui.status.set(key, text);
		},
	};
	return {
		hasUI,
		cwd,
		ui,
		sessionManager: {
			getEntries: () => entries,
			getLeafEntry: () => entries[entries.length - 1],
			getSessionFile: () => sessionFile,
		},
	};
}

/** Run git in `cwd` and return trimmed stdout; throws on failure. */
export function git(cwd, ...args) {
	return execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}
