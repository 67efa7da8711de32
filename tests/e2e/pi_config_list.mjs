// What `pi config` lists, and whether each item shows as on: pi's own package manager resolve,
// as `handleConfigCommand` (dist/package-manager-cli.js) runs it before drawing the list.
//
// Usage: node pi_config_list.mjs <pi package dir> <agent dir> <cwd>; prints
// {"extensions"|"skills"|"prompts"|"themes": [{"path", "realPath", "enabled", "origin", "scope"}]}.
import { readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

process.env.PI_OFFLINE = "1";
const [packageDir, agentDir, cwd] = process.argv.slice(2);
const pkg = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf-8"));
const dot = pkg.exports?.["."];
const main = (typeof dot === "string" ? dot : dot?.import) ?? pkg.main ?? "index.js";
const sdk = await import(pathToFileURL(join(packageDir, main)).href);
const settingsManager = sdk.SettingsManager.create(cwd, agentDir);
const resolved = await new sdk.DefaultPackageManager({ cwd, agentDir, settingsManager }).resolve();
const real = (p) => {
	try {
		return realpathSync(p);
	} catch {
		return null;
	}
};
const out = {};
for (const key of ["extensions", "skills", "prompts", "themes"]) {
	out[key] = (resolved[key] ?? []).map((r) => ({
		path: r.path,
		realPath: real(r.path),
		enabled: r.enabled,
		origin: r.metadata?.origin ?? null,
		scope: r.metadata?.scope ?? null,
	}));
}
process.stdout.write(`${JSON.stringify(out)}\n`);
