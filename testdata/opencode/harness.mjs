// Loads tausik's OpenCode/Kilo plugin as OpenCode does (an ES module whose
// exported function gets the plugin context) and calls its hooks the way
// OpenCode calls them, printing what each did as one JSON object.
//
// usage: node harness.mjs PLUGIN.js PROJECT_DIR CALLS.json
// CALLS.json: [{"hook": "tool.execute.before"|"tool.execute.after",
//               "input": {...}, "output": {...}}, ...]
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [plugin, directory, callsFile] = process.argv.slice(2);
const mod = await import(pathToFileURL(plugin).href);
const factories = Object.values(mod).filter((v) => typeof v === "function");
if (factories.length !== 1) throw new Error(`want one exported plugin function, got ${factories.length}`);
const hooks = await factories[0]({ directory, worktree: directory, project: {}, client: {}, $: null });
const results = [];
for (const call of JSON.parse(readFileSync(callsFile, "utf8"))) {
  const fn = hooks[call.hook];
  if (typeof fn !== "function") {
    results.push({ hook: call.hook, missing: true });
    continue;
  }
  try {
    await fn(call.input, call.output);
    results.push({ hook: call.hook, threw: false });
  } catch (err) {
    results.push({ hook: call.hook, threw: true, message: String(err && err.message) });
  }
}
process.stdout.write(JSON.stringify(results));
