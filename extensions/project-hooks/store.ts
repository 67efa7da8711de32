/**
 * The approvals store as ext writes it (docs/consent.md): read only when it is safe
 * (the user's own, no link, no other writer), never waited on, by ext's one schema
 * (installer/consent/record.py), held by tests/consent-store-vectors.json.
 *
 * Pure Node: imports nothing from pi, so tests import it directly.
 */

import { fstatSync, lstatSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { HookConfig } from "./consent.js";
import { LIMITS, readCapped, tooDeep } from "./files.js";

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

/** The agent dir pi reads: PI_CODING_AGENT_DIR (with ~ expanded), else ~/.pi/agent. */
export function agentDir(env: NodeJS.ProcessEnv = process.env): string {
	const named = env.PI_CODING_AGENT_DIR;
	if (named) return named === "~" ? homedir() : named.startsWith("~/") ? join(homedir(), named.slice(2)) : named;
	return join(homedir(), ".pi", "agent");
}

export function storePath(agent: string): string {
	return join(agent, ".extset", "consent", "project-approvals.json");
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
