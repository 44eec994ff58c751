// tausik's plugin for OpenCode and Kilo, written by `tausik init`; edit the
// command with `tausik init --command …`, not by hand (a rerun rewrites it).
//
// Before every tool call it asks `tausik hook opencode pre-tool-use` for the
// gates' verdict and throws when tausik refuses, so the tool does not run.
// Fail closed: exit 2 throws the reason tausik gave; any other failure
// (another exit code, tausik not found, a crash, no answer in two minutes)
// throws too. After a call it runs post-tool-use, which counts the call into
// the open session, and never throws.
import { spawn } from "node:child_process";

const TAUSIK = __TAUSIK_ARGV__;
const TIMEOUT_MS = 120000;

function run(event, payload, cwd) {
  return new Promise((resolve, reject) => {
    let child;
    try {
      child = spawn(TAUSIK[0], [...TAUSIK.slice(1), "hook", "opencode", event], {
        cwd,
        stdio: ["pipe", "pipe", "pipe"],
      });
    } catch (err) {
      reject(err);
      return;
    }
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), TIMEOUT_MS);
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(payload));
  });
}

function payload(hookEvent, input, args, cwd) {
  return {
    hook_event_name: hookEvent,
    tool: input.tool,
    session_id: input.sessionID,
    call_id: input.callID,
    cwd,
    args,
  };
}

export const TausikPlugin = async (ctx) => {
  const cwd = (ctx && (ctx.directory || ctx.worktree)) || process.cwd();
  return {
    "tool.execute.before": async (input, output) => {
      let res;
      try {
        res = await run("pre-tool-use", payload("tool.execute.before", input, output && output.args, cwd), cwd);
      } catch (err) {
        throw new Error(`tausik could not judge this tool call (${err.message}); it is refused until tausik runs`);
      }
      if (res.code === 0) return;
      const reason = res.stderr.trim();
      if (res.code === 2) throw new Error(reason || "tausik refused this tool call");
      throw new Error(`tausik failed (exit ${res.code ?? res.signal}); the tool call is refused: ${reason}`);
    },
    "tool.execute.after": async (input) => {
      try {
        await run("post-tool-use", payload("tool.execute.after", input, input && input.args, cwd), cwd);
      } catch {
        // Counting a finished call must never break the session.
      }
    },
  };
};
