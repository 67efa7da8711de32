/**
 * The project's hook configuration and its hash, read as `ext consent` reads them: the same
 * rules (docs/consent.md), checked against the same vectors
 * (tests/consent-vectors.json) on both sides.
 *
 * Pure Node: imports nothing from pi, so tests import it directly.
 */

import { createHash } from "node:crypto";
import { lstatSync, realpathSync } from "node:fs";
import { join, sep } from "node:path";
import { LIMITS, readCapped, tooDeep } from "./files.js";

export { LIMITS, tooDeep } from "./files.js";
export { type Approval, agentDir, parseStore, readStore, type StoreView, storePath } from "./store.js";

/** Where a project's hooks may be, in the fixed order they are combined. */
export const SOURCES = [".claude/settings.json", ".claude/settings.local.json", ".pi/hooks.json"] as const;
/** A source that may hold the hooks object itself rather than a `hooks` key. */
const WHOLE_FILE = ".pi/hooks.json";

export type HookConfig = Record<string, Record<string, unknown>>;

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
		// ext's cap, here too (helper-45: pi asked, and on a yes ran hooks ext refuses to record)
		if (text !== undefined && tooDeep(text)) {
			throw new Error(`${join(project, name)} nests arrays or objects more than ${LIMITS.MAX_NESTING} levels deep`);
		}
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

/** `sha256:<hex>` of the canonical config; undefined when there is nothing to approve. */
export function hookHash(config: HookConfig): string | undefined {
	if (Object.keys(config).length === 0) return undefined;
	return `sha256:${createHash("sha256").update(canonical(config), "utf8").digest("hex")}`;
}

/** The project's key in the store: its realpath. */
export function projectKey(project: string): string {
	return realpathSync(project);
}
