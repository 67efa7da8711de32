/**
 * Reading a file that a project or another user may have planted, as ext reads it
 * (installer/consent/config.py, store.py): never waiting, a regular file only, capped.
 * The caps are ext's (installer/consent/limits.py), held by tests/consent-store-vectors.json.
 *
 * Pure Node: imports nothing from pi, so tests import it directly.
 */

import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

/** The caps of installer/consent/limits.py: they keep a session's start flat (tests/consent-store-vectors.json). */
export const LIMITS = {
	MAX_SOURCE_BYTES: 256 * 1024,
	MAX_NESTING: 64,
	MAX_CONFIG_BYTES: 64 * 1024,
	MAX_APPROVALS: 256,
	MAX_STORE_BYTES: 8 * 1024 * 1024,
} as const;

/** A regular file's text, opened without following a link or waiting, at most `cap` bytes; throws naming `shown`. */
export function readCapped(path: string, cap: number, what: string, shown = path, check?: (fd: number) => void): string {
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

function size(bytes: number): string {
	return bytes >= 1 << 20 ? `${bytes >> 20} MiB` : `${bytes >> 10} KiB`;
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

