// Ask pi's own resource loader what it loads from agent dirs; print it as JSON.
//
// Usage: node loader.mjs <pi package dir> <request.json>, the request {"jobs": [{"agentDir", "cwd"}]}.
// Prints {"version", "results": [...]} on stdout, one result per job, in order. A job
// that throws is a result with "error"; the SDK missing its loader exports is exit 3.
// Nothing is installed: PI_OFFLINE keeps pi from fetching a settings package it lacks.
import { readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

process.env.PI_OFFLINE = "1";
// The answer owns stdout: an extension that prints while it loads goes to stderr.
const answer = process.stdout.write.bind(process.stdout);
process.stdout.write = process.stderr.write.bind(process.stderr);

const CONFLICT = /^(Tool|Flag) "(.+)" conflicts with (.+)$/;

function real(path) {
	try {
		return realpathSync(path);
	} catch {
		return null;
	}
}

function entryOf(packageDir) {
	const pkg = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf-8"));
	const dot = pkg.exports?.["."];
	const main = (typeof dot === "string" ? dot : dot?.import) ?? pkg.main ?? "index.js";
	return { file: join(packageDir, main), version: pkg.version ?? null };
}

function source(info) {
	return info ? { scope: info.scope ?? null, origin: info.origin ?? null, source: info.source ?? null } : {};
}

function diagnostics(kind, list) {
	return (list ?? []).map((d) => ({
		kind,
		type: d.type ?? "warning",
		message: d.message ?? "",
		path: d.path ?? null,
		realPath: d.path ? real(d.path) : null,
		// A name collision: the file pi loaded instead of this one.
		winner: d.collision?.winnerPath ?? null,
	}));
}

// pi's own trust decision for a start in cwd without a UI (`pi -p`): main.js's createRuntime
// and core/project-trust.js's resolveProjectTrusted, with no --approve and no extension
// answering the project_trust event. A pi without the trust store (before 0.79) trusts all.
function projectTrust(sdk, cwd, agentDir) {
	if (!sdk.ProjectTrustStore || !sdk.hasTrustRequiringProjectResources) {
		return { trusted: true, decision: "ungated" };
	}
	const saved = new sdk.ProjectTrustStore(agentDir).get(cwd);
	if (saved !== null) return { trusted: saved, decision: "saved" };
	if (!sdk.hasTrustRequiringProjectResources(cwd)) return { trusted: true, decision: "nothing to trust" };
	const fallback = sdk.SettingsManager.create(cwd, agentDir, { projectTrusted: false }).getDefaultProjectTrust();
	return { trusted: fallback === "always", decision: fallback }; // "ask": a UI would ask
}

// The slash commands as pi names them: two extensions registering one name both get renamed
// (`ext:1`, `ext:2`) by ExtensionRunner.getRegisteredCommands, which reads only the extensions.
// Its list keeps the extensions' order, so each command's extension is known by position.
function commandsOf(sdk, ext, cwd) {
	if (typeof sdk.ExtensionRunner !== "function") return null;
	const owners = ext.extensions.flatMap((e) => [...e.commands.keys()].map(() => e.path));
	try {
		const runner = new sdk.ExtensionRunner(ext.extensions, ext.runtime ?? {}, cwd, undefined, undefined);
		return runner.getRegisteredCommands().map((c, i) => ({
			name: c.name,
			invocation: c.invocationName ?? c.name,
			path: owners[i] ?? null,
			realPath: owners[i] ? real(owners[i]) : null,
		}));
	} catch {
		return null;
	}
}

async function ask(sdk, job) {
	const { agentDir, cwd } = job;
	const trust = projectTrust(sdk, cwd, agentDir);
	const settingsManager = sdk.SettingsManager.create(cwd, agentDir, { projectTrusted: trust.trusted });
	const loader = new sdk.DefaultResourceLoader({ cwd, agentDir, settingsManager, noContextFiles: true });
	await loader.reload();
	const ext = loader.getExtensions();
	const loadedPaths = new Set(ext.extensions.map((e) => e.path));
	const failed = [];
	const conflicts = [];
	for (const { path, error } of ext.errors) {
		const match = CONFLICT.exec(error);
		if (match && loadedPaths.has(path)) {
			conflicts.push({ path, realPath: real(path), what: match[1].toLowerCase(), name: match[2], with: match[3], message: error });
		} else {
			failed.push({ path, realPath: real(path), error });
		}
	}
	const skills = loader.getSkills();
	const prompts = loader.getPrompts();
	const themes = loader.getThemes();
	return {
		agentDir,
		cwd,
		trust,
		extensions: ext.extensions.map((e) => ({
			path: e.path,
			realPath: real(e.resolvedPath ?? e.path),
			...source(e.sourceInfo),
		})),
		failed,
		conflicts,
		commands: commandsOf(sdk, ext, cwd),
		skills: skills.skills.map((s) => ({ name: s.name, path: s.filePath, realPath: real(s.filePath), ...source(s.sourceInfo) })),
		prompts: prompts.prompts.map((p) => ({ name: p.name, path: p.filePath, realPath: real(p.filePath), ...source(p.sourceInfo) })),
		themes: themes.themes
			.filter((t) => t.sourcePath)
			.map((t) => ({ name: t.name ?? null, path: t.sourcePath, realPath: real(t.sourcePath), ...source(t.sourceInfo) })),
		diagnostics: [
			...diagnostics("skill", skills.diagnostics),
			...diagnostics("prompt", prompts.diagnostics),
			...diagnostics("theme", themes.diagnostics),
		],
		// A reload reads settings again: the same error comes back once per read.
		settingsErrors: [
			...new Set((settingsManager.drainErrors?.() ?? []).map((e) => `${e.scope}: ${e.error?.message ?? e.error}`)),
		],
	};
}

// What the loader asks pi's SDK for; the first two are needed, the rest are pi's where it has them.
const NEEDED = ["DefaultResourceLoader", "SettingsManager"];
const WANTED = [...NEEDED, "ExtensionRunner", "ProjectTrustStore", "hasTrustRequiringProjectResources"];
const RE_EXPORT = /^export\s*\{([^}]*)\}\s*from\s*"(\.[^"]+)";?$/;

// Where pi's entry re-exports each wanted name from: {name: [module specifier, its own name]},
// or null unless the entry is re-exports alone (`export { a, b as c } from "./m.js";`): then
// importing those modules runs the same code as importing the entry, less the modules the
// loader never touches (the providers, the interactive UI), which are most of a Node start.
function reExports(text) {
	const found = {};
	const body = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
	for (const statement of body.split(/;\s*$/m)) {
		const flat = statement.replace(/\s+/g, " ").trim();
		if (!flat) continue;
		const match = RE_EXPORT.exec(flat);
		if (!match) return null; // code of its own, or `export *`: the whole entry
		for (const part of match[1].split(",")) {
			const [own, as] = part.trim().split(/ as /);
			const name = (as ?? own).trim();
			if (WANTED.includes(name)) found[name] = [match[2], own.trim()];
		}
	}
	return NEEDED.every((name) => name in found) ? found : null;
}

async function sdkOf(file) {
	const fromEntry = reExports(readFileSync(file, "utf-8"));
	if (fromEntry === null || process.env.EXT_LOADER_WHOLE_SDK) return import(pathToFileURL(file).href);
	const sdk = {};
	for (const [name, [spec, own]] of Object.entries(fromEntry)) {
		sdk[name] = (await import(new URL(spec, pathToFileURL(file)).href))[own];
	}
	return sdk;
}

async function main() {
	const packageDir = process.argv[2];
	const request = JSON.parse(readFileSync(process.argv[3], "utf-8"));
	const { file, version } = entryOf(packageDir);
	const sdk = await sdkOf(file);
	const missing = NEEDED.filter((name) => !sdk[name]);
	if (missing.length > 0) {
		answer(`${JSON.stringify({ version, missing })}\n`, () => process.exit(3));
		return;
	}
	const results = [];
	for (const job of request.jobs) {
		try {
			results.push(await ask(sdk, job));
		} catch (err) {
			results.push({ agentDir: job.agentDir, cwd: job.cwd, error: String(err?.stack ?? err) });
		}
	}
	answer(`${JSON.stringify({ version, results })}\n`, () => process.exit(0));
	// An extension may leave a timer or a watcher running: once the answer is out, leave.
}

main().catch((err) => {
	process.stderr.write(`${err?.stack ?? err}\n`);
	process.exit(1);
});
