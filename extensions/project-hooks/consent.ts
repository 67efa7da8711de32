/**
 * The project's hook configuration, its hash, and the approvals store: the same
 * rules as `ext consent` (docs/consent.md), checked against the same vectors
 * (tests/consent-vectors.json) on both sides.
 *
 * Pure Node: imports nothing from pi, so tests import it directly.
 */

import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

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

/** The project's hook configuration from its fixed sources (missing files contribute nothing). */
export function projectConfig(project: string): HookConfig {
	const texts: [string, string][] = [];
	for (const name of SOURCES) {
		let text: string;
		try {
			text = readFileSync(join(project, name), "utf8");
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
			throw error;
		}
		texts.push([name, text]);
	}
	return buildConfig(texts);
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
	if (process.getuid && info.uid !== process.getuid()) return `${path} is owned by another user (uid ${info.uid})`;
	if (modeToo && (info.mode & 0o022) !== 0) {
		return `${path} is writable by other users (mode ${(info.mode & 0o7777).toString(8).padStart(4, "0")})`;
	}
	return undefined;
}

/** The approvals, read without following links; an unsafe or missing store holds none. Throws when corrupt. */
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
	const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
	let text: string;
	try {
		if (!fstatSync(fd).isFile()) throw new Error(`${path} is not a file`);
		text = readFileSync(fd, "utf8");
	} finally {
		closeSync(fd);
	}
	const doc = JSON.parse(text) as { version?: unknown; approvals?: unknown };
	if (doc.version !== 1 || doc.approvals === null || typeof doc.approvals !== "object") {
		throw new Error(`${path} is not a version 1 approvals store`);
	}
	return { path, approvals: doc.approvals as Record<string, Approval> };
}
