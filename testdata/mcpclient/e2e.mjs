// End-to-end check of `tausik mcp` with a client nobody on the team wrote:
// the official MCP TypeScript SDK. Usage: node e2e.mjs TAUSIK_BIN PROJECT_ROOT
// Prints a JSON summary on stdout; exits 1 on any protocol or schema problem.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import Ajv from "ajv";

const [bin, root] = process.argv.slice(2);
if (!bin || !root) {
  console.error("usage: node e2e.mjs TAUSIK_BIN PROJECT_ROOT");
  process.exit(2);
}

const transport = new StdioClientTransport({
  command: bin,
  args: ["mcp", "--root", root],
  env: { ...process.env },
  stderr: "inherit",
});
const client = new Client({ name: "ts-sdk-e2e", version: "1.0.0" });
await client.connect(transport);

const { tools } = await client.listTools();
const schemas = new Map(tools.map((t) => [t.name, t.outputSchema]));
const ajv = new Ajv({ strict: false, allErrors: true });
const problems = [];

// The SDK validates structuredContent against outputSchema itself; validate
// again explicitly so a silently skipped check cannot pass this test.
function checked(name, result) {
  const schema = schemas.get(name);
  if (!result.isError) {
    if (!schema) problems.push(`${name}: no outputSchema`);
    else if (!result.structuredContent) problems.push(`${name}: no structuredContent`);
    else if (!ajv.validate(schema, result.structuredContent)) {
      problems.push(`${name}: structuredContent violates outputSchema: ${ajv.errorsText()}`);
    }
    const text = result.content.find((c) => c.type === "text")?.text ?? "";
    if (JSON.stringify(JSON.parse(text)) !== JSON.stringify(result.structuredContent)) {
      problems.push(`${name}: text content is not the same JSON as structuredContent`);
    }
  }
  return result;
}

const evalCommit = checked("policy_eval", await client.callTool({ name: "policy_eval", arguments: { trigger: "commit" } }));
const evalScoped = checked("policy_eval", await client.callTool({ name: "policy_eval", arguments: { trigger: "commit", files: ["small.py"] } }));
const list = checked("policy_list", await client.callTool({ name: "policy_list", arguments: {} }));
const explain = checked("policy_explain", await client.callTool({ name: "policy_explain", arguments: { gate: "filesize" } }));
const bad = await client.callTool({ name: "policy_eval", arguments: { trigger: "commit", bogus: 1 } });
const missing = await client.callTool({ name: "policy_explain", arguments: { gate: "nope" } });

await client.close();

const textOf = (r) => r.content.filter((c) => c.type === "text").map((c) => c.text).join("");
console.log(JSON.stringify({
  server: client.getServerVersion()?.name,
  tools: tools.map((t) => t.name),
  eval_commit: evalCommit.structuredContent,
  eval_scoped: evalScoped.structuredContent,
  list_count: list.structuredContent?.gates?.length,
  explain_prevents: explain.structuredContent?.prevents,
  bad: { isError: bad.isError === true, text: textOf(bad) },
  missing: { isError: missing.isError === true, text: textOf(missing) },
  problems,
}));
process.exit(problems.length ? 1 : 0);
