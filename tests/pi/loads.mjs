// Test-only: ask pi's own resource loader what it loads from an agent dir (run from a cwd).
// Stand-in for the loader script the issue-17 work ships with ext; replace it when that lands.
// Usage: node loads.mjs <pi package dir> <agent dir> <cwd>  ->  JSON on stdout.
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [piDir, agentDir, cwd] = process.argv.slice(2);
const sdk = await import(pathToFileURL(join(piDir, "dist", "index.js")).href);
const settingsManager = sdk.SettingsManager.create(cwd, agentDir);
const loader = new sdk.DefaultResourceLoader({ cwd, agentDir, settingsManager, noContextFiles: true });
await loader.reload();
const real = (p) => {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
};
const ext = loader.getExtensions();
const out = {
  extensions: ext.extensions.map((e) => real(e.resolvedPath ?? e.path)).sort(),
  failed: ext.errors.map((e) => ({ path: e.path, error: e.error })),
  skills: loader.getSkills().skills.map((s) => real(s.filePath)).sort(),
  prompts: loader.getPrompts().prompts.map((p) => real(p.filePath)).sort(),
  themes: loader.getThemes().themes.map((t) => real(t.sourcePath ?? "")).filter(Boolean).sort(),
};
process.stdout.write(JSON.stringify(out));
