"""A realistic bootstrap generator for three agent hosts, in the shape of
the reference framework's: Claude Code and Qwen Code get ~20 hooks each in
their settings.json, OpenCode gets a plugin. Run as

    python3 bootstrap/generate.py HOST OUT

from the project root; it writes OUT/.HOST/… as the project would have it.
"""
import json
import os
import sys

# (event, claude matcher, qwen matcher, script); None = no matcher.
HOOKS = [
    ("PreToolUse", "Write|Edit", "write_file|replace", "scope_guard.py"),
    ("PreToolUse", "Edit|Write", "replace|write_file", "filesize_guard.py"),
    ("PreToolUse", "Bash", "run_shell_command", "shell_guard.py"),
    ("PreToolUse", "Bash", "run_shell_command", "git_guard.py"),
    ("PreToolUse", "Read", "read_file", "secret_guard.py"),
    ("PreToolUse", "WebFetch", "web_fetch", "net_guard.py"),
    ("PreToolUse", "Task", "task", "delegate_guard.py"),
    ("PreToolUse", "*", "", "session_budget.py"),
    ("PostToolUse", "Write|Edit|MultiEdit", "write_file|replace", "format_after_write.py"),
    ("PostToolUse", "Write|Edit|MultiEdit", "write_file|replace|edit", "lint_after_write.py"),
    ("PostToolUse", "Write|Edit|MultiEdit", "write_file", "index_after_write.py"),
    ("PostToolUse", "Bash", "run_shell_command|write_file", "record_shell.py"),
    ("PostToolUse", "Edit|Write", "replace|write_file", "changelog_note.py"),
    ("PostToolUse", None, "*", "count_call.py"),
    ("PostToolUse", "Read|Glob|Grep", "read_file|glob|search_file_content", "context_meter.py"),
    ("SessionStart", None, None, "session_open.py"),
    ("SessionStart", None, None, "load_memory.sh"),
    ("UserPromptSubmit", None, None, "prompt_router.py"),
    ("Stop", None, None, "session_close.py"),
    ("Stop", None, None, "verify_reminder.py"),
    ("SubagentStop", None, None, "delegate_report.py"),
]


def settings(host, column):
    hooks = {}
    for row in HOOKS:
        event, matcher, script = row[0], row[column], row[3]
        entry = {"hooks": [{"type": "command", "command": f'python3 "${{{host.upper()}_PROJECT_DIR}}/.{host}/scripts/hooks/{script}"'}]}
        if script.endswith(".sh"):
            entry["hooks"][0]["command"] = f"bash .{host}\\scripts\\hooks\\{script}"
        if matcher is not None:
            entry["matcher"] = matcher
        hooks.setdefault(event, []).append(entry)
    return {"hooks": hooks, "permissions": {"allow": ["Bash(git status)"]}}


def write_json(path, obj):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(obj, f, indent=2)


def claude(out):
    write_json(os.path.join(out, ".claude", "settings.json"), settings("claude", 1))
    write_json(os.path.join(out, ".mcp.json"), {"mcpServers": {"tausik": {"command": "tausik", "args": ["mcp"]}}})


def qwen(out):
    s = settings("qwen", 2)
    s["mcpServers"] = {"tausik": {"command": "tausik", "args": ["mcp"]}}
    write_json(os.path.join(out, ".qwen", "settings.json"), s)


def opencode(out):
    os.makedirs(os.path.join(out, ".opencode", "plugins"))
    with open(os.path.join(out, ".opencode", "plugins", "governance.ts"), "w") as f:
        f.write("export const Governance = async () => ({\n  'tool.execute.before': async () => {},\n});\n")


if __name__ == "__main__":
    {"claude": claude, "qwen": qwen, "opencode": opencode}[sys.argv[1]](sys.argv[2])
