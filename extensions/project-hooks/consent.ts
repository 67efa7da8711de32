/**
 * The project's hook configuration, its hash, and the approvals store: the same
 * rules as `ext consent` (docs/consent.md), checked against the same vectors
 * (tests/consent-vectors.json) on both sides.
 *
 * Pure Node: imports nothing from pi, so tests import it directly.
 */

import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { join, sep } from "node:path";

/** The caps of installer/consent/limits.py: they keep a session's start flat (tests/consent-store-vectors.json). */
export const LIMITS = {
	MAX_SOURCE_BYTES: 256 * 1024,
	MAX_NESTING: 64,
	MAX_CONFIG_BYTES: 64 * 1024,
	MAX_APPROVALS: 256,
	MAX_STORE_BYTES: 8 * 1024 * 1024,
} as const;

/** Where a project's hooks may be, in the fixed order they are combined. */
export const SOURCES = [".claude/settings.json", ".claude/settings.local.json", ".pi/hooks.json"] as const;
/** A source that may hold the hooks object itself rather than a `hooks` key. */
const WHOLE_FILE = ".pi/hooks.json";

export type HookConfig = Record<string, Record<string, unknown>>;

export interface Approval {
	sha256: string;
	approved_at: string;
	sources: string[];
	config: HookConfig;
}

/** The store as read: approvals by project realpath, or why it holds none. */
export interface StoreView {
	path: string;
	approvals: Record<string, Approval>;
	unsafe?: string;
}

/** RFC 8785: JSON.stringify writes numbers and strings canonically; the default sort is by UTF-16 code units. */
export function canonical(value: unknown): string {
	if (value === null || typeof value !== "object") {
		if (typeof value === "number" && !Number.isFinite(value)) throw new Error(`${value} is not a JSON value`);
		if (typeof value === "string" && /[\uD800-\uDFFF]/.test(value.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, ""))) {
			throw new Error("an unpaired surrogate is not canonicalizable");
		}
		return JSON.stringify(value);
	}
	if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
	const object = value as Record<string, unknown>;
	const keys = Object.keys(object).sort();
	return `{${keys.map((k) => `${canonical(k)}:${canonical(object[k])}`).join(",")}}`;
}

/** The hooks object in one source's text, or undefined when it has none; throws on bad JSON or shape. */
export function hooksOf(text: string, name: string): Record<string, unknown> | undefined {
	const doc: unknown = JSON.parse(text);
	if (doc === null || typeof doc !== "object" || Array.isArray(doc)) throw new Error(`${name} must hold a JSON object`);
	const record = doc as Record<string, unknown>;
	const hooks = "hooks" in record ? record.hooks : name === WHOLE_FILE ? record : undefined;
	if (hooks === undefined || hooks === null) return undefined;
	if (typeof hooks !== "object" || Array.isArray(hooks)) throw new Error(`${name} has a \`hooks\` value that is not an object`);
	return Object.keys(hooks).length > 0 ? (hooks as Record<string, unknown>) : undefined;
}

/** Combine (source, text) pairs into the config that is hashed and run. */
export function buildConfig(texts: [string, string][]): HookConfig {
	const config: HookConfig = {};
	for (const [name, text] of texts) {
		const hooks = hooksOf(text, name);
		if (hooks) config[name] = hooks;
	}
	return config;
}

/** The project's hook configuration from its fixed sources (missing files contribute nothing); throws naming the file. */
export function projectConfig(project: string): HookConfig {
	const root = realpathSync(project);
	const texts: [string, string][] = [];
	for (const name of SOURCES) {
		const text = readHookFile(join(project, name), root);
		if (text !== undefined) texts.push([name, text]);
	}
	const config = buildConfig(texts);
	const size = Buffer.byteLength(canonical(config), "utf8");
	if (size > LIMITS.MAX_CONFIG_BYTES) {
		throw new Error(`the hooks come to ${size} bytes, over the ${LIMITS.MAX_CONFIG_BYTES >> 10} KiB an approval may record`);
	}
	return config;
}

/**
 * A hook file's text, read as ext reads it: never waiting (O_NONBLOCK: a FIFO), a
 * regular file only (not `/dev/zero`), a symlink only to a regular file inside the
 * project (the hash covers what it points to), at most MAX_SOURCE_BYTES.
 */
export function readHookFile(path: string, root: string): string | undefined {
	let link: boolean;
	try {
		link = lstatSync(path).isSymbolicLink();
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT" || code === "ENOTDIR") return undefined;
		throw new Error(`cannot read ${path} (${code ?? (error as Error).message})`);
	}
	let target: string;
	try {
		target = realpathSync(path);
	} catch {
		throw new Error(`${path} is a symlink to nothing`);
	}
	// A linked `.claude/` leads out as surely as a linked file does.
	if (!target.startsWith(root + sep)) throw new Error(`${path} is ${link ? "a symlink" : "reached through a symlink"} to ${target}, outside the project`);
	return readCapped(target, LIMITS.MAX_SOURCE_BYTES, "a hook file", path);
}

/** A regular file's text, opened without following a link or waiting, at most `cap` bytes; throws naming `shown`. */
function readCapped(path: string, cap: number, what: string, shown = path, check?: (fd: number) => void): string {
	let fd: number;
	try {
		fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
	} catch (error) {
		throw new Error(`cannot read ${shown} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
	}
	try {
		const info = fstatSync(fd);
		if (!info.isFile()) throw new Error(`${shown} is not a regular file`);
		check?.(fd);
		const buffer = Buffer.alloc(Math.min(info.size, cap) + 1);
		let length = 0;
		for (;;) {
			const got = readSync(fd, buffer, length, buffer.length - length, null);
			if (got === 0) break;
			length += got;
			if (length === buffer.length) break;
		}
		if (length > cap) throw new Error(`${shown} is over ${size(cap)}, the most ${what} may hold`);
		return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(buffer.subarray(0, length));
	} catch (error) {
		if (error instanceof TypeError) throw new Error(`${shown} is not UTF-8 text`);
		throw error;
	} finally {
		closeSync(fd);
	}
}

/** `sha256:<hex>` of the canonical config; undefined when there is nothing to approve. */
export function hookHash(config: HookConfig): string | undefined {
	if (Object.keys(config).length === 0) return undefined;
	return `sha256:${createHash("sha256").update(canonical(config), "utf8").digest("hex")}`;
}

/** The agent dir pi reads: PI_CODING_AGENT_DIR (with ~ expanded), else ~/.pi/agent. */
export function agentDir(env: NodeJS.ProcessEnv = process.env): string {
	const named = env.PI_CODING_AGENT_DIR;
	if (named) return named === "~" ? homedir() : named.startsWith("~/") ? join(homedir(), named.slice(2)) : named;
	return join(homedir(), ".pi", "agent");
}

export function storePath(agent: string): string {
	return join(agent, ".extset", "consent", "project-approvals.json");
}

/** The project's key in the store: its realpath. */
export function projectKey(project: string): string {
	return realpathSync(project);
}

/** Why a path cannot be trusted (a link, another owner, others may write), or undefined. */
function unsafe(path: string, modeToo: boolean): string | undefined {
	const info = lstatSync(path);
	if (info.isSymbolicLink()) return `${path} is a symlink`;
	return loose(path, info, modeToo);
}

/** Why a file's owner or mode make it untrustworthy, or undefined. */
function loose(path: string, info: { uid: number; mode: number }, modeToo: boolean): string | undefined {
	if (process.getuid && info.uid !== process.getuid()) return `${path} is owned by another user (uid ${info.uid})`;
	if (modeToo && (info.mode & 0o022) !== 0) {
		return `${path} is writable by other users (mode ${(info.mode & 0o7777).toString(8).padStart(4, "0")})`;
	}
	return undefined;
}

/** The approvals, read as ext reads them: an unsafe or missing store holds none; throws when corrupt or unreadable. */
export function readStore(agent: string): StoreView {
	const path = storePath(agent);
	const folder = join(agent, ".extset", "consent");
	try {
		lstatSync(path);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return { path, approvals: {} };
		throw error;
	}
	const why = unsafe(join(agent, ".extset"), false) ?? unsafe(folder, true) ?? unsafe(path, true);
	if (why) return { path, approvals: {}, unsafe: why };
	let late: string | undefined;
	// What was opened is checked again: the file may have been swapped since lstat.
	const text = readCapped(path, LIMITS.MAX_STORE_BYTES, "the approvals store", path, (fd) => {
		late = loose(path, fstatSync(fd), true);
	});
	if (late) return { path, approvals: {}, unsafe: late };
	return { path, approvals: parseStore(text, path) };
}

/** The approvals in a store's text, by ext's schema (installer/consent/record.py); throws on anything else. */
export function parseStore(text: string, path = "the approvals store"): Record<string, Approval> {
	const corrupt = (why: string) => new Error(`${path} is corrupt: ${why}`);
	if (tooDeep(text)) throw corrupt(`nested more than ${LIMITS.MAX_NESTING} levels deep`);
	let doc: unknown;
	try {
		doc = JSON.parse(text);
	} catch {
		throw corrupt("not valid JSON");
	}
	if (!isObject(doc) || !sameKeys(doc, ["version", "approvals"])) throw corrupt('not an object with exactly "version" and "approvals"');
	// JSON.parse reads 1.0 as 1; ext's reader does not, so the literal itself is what counts.
	if (doc.version !== 1 || topLevelLiteral(text, "version") !== "1") throw corrupt("not version 1");
	const approvals = doc.approvals;
	if (!isObject(approvals)) throw corrupt('"approvals" is not an object');
	const keys = Object.keys(approvals);
	if (keys.length > LIMITS.MAX_APPROVALS) throw corrupt(`${keys.length} approvals, over the ${LIMITS.MAX_APPROVALS} a store may hold`);
	for (const key of keys) {
		const entry = approvals[key];
		const where = `the approval for ${key}`;
		if (!key.startsWith("/")) throw corrupt(`${where}: the project is not an absolute path`);
		if (!isObject(entry) || !sameKeys(entry, ["sha256", "approved_at", "sources", "config"])) {
			throw corrupt(`${where}: expected exactly the keys sha256, approved_at, sources, config`);
		}
		if (typeof entry.sha256 !== "string" || !/^sha256:[0-9a-f]{64}$/.test(entry.sha256)) throw corrupt(`${where}: "sha256" is not sha256:<64 hex digits>`);
		if (typeof entry.approved_at !== "string" || !isUtc(entry.approved_at)) throw corrupt(`${where}: "approved_at" is not an ISO 8601 UTC time`);
		if (!Array.isArray(entry.sources) || !entry.sources.every((s) => typeof s === "string")) throw corrupt(`${where}: "sources" is not a list of names`);
		if (!isObject(entry.config)) throw corrupt(`${where}: "config" is not an object`);
	}
	return approvals as Record<string, Approval>;
}

function size(bytes: number): string {
	return bytes >= 1 << 20 ? `${bytes >> 20} MiB` : `${bytes >> 10} KiB`;
}

function isObject(value: unknown): value is Record<string, unknown> {
	return value !== null && typeof value === "object" && !Array.isArray(value);
}

function sameKeys(value: Record<string, unknown>, keys: string[]): boolean {
	const found = Object.keys(value);
	return found.length === keys.length && keys.every((k) => Object.hasOwn(value, k));
}

/** Exactly what ext writes (YYYY-MM-DDTHH:MM:SSZ), and a real moment. */
function isUtc(text: string): boolean {
	const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/.exec(text);
	if (!m) return false;
	const [y, mo, d, h, mi, se] = m.slice(1).map(Number);
	const t = new Date(Date.UTC(y, mo - 1, d, h, mi, se));
	return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d && h < 24 && mi < 60 && se < 60;
}

/** Whether JSON text nests deeper than the limit: a scan, as installer/consent/limits.py's too_deep. */
export function tooDeep(text: string, limit: number = LIMITS.MAX_NESTING): boolean {
	let depth = 0;
	let inString = false;
	for (let i = 0; i < text.length; i++) {
		const c = text[i];
		if (inString) {
			if (c === "\\") i++;
			else if (c === '"') inString = false;
		} else if (c === '"') inString = true;
		else if (c === "[" || c === "{") {
			if (++depth > limit) return true;
		} else if (c === "]" || c === "}") depth--;
	}
	return false;
}

/** The raw text of a top-level member's value when it is a number (the last, as JSON.parse keeps the last). */
function topLevelLiteral(text: string, key: string): string | undefined {
	let depth = 0;
	let found: string | undefined;
	for (let i = 0; i < text.length; i++) {
		const c = text[i];
		if (c === '"') {
			const start = i;
			for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
			if (depth !== 1) continue;
			const rest = /^\s*:\s*(-?[0-9][0-9.eE+-]*)?/.exec(text.slice(i + 1, i + 64));
			if (rest && rest[0].includes(":") && JSON.parse(text.slice(start, i + 1)) === key) found = rest[1];
		} else if (c === "[" || c === "{") depth++;
		else if (c === "]" || c === "}") depth--;
	}
	return found;
}
