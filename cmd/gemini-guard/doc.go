/*
Gemini-guard is the people's side of gemini-guard: it shows how the guard
decides, checks that the installed extension works, and reads the audit log.
Gemini CLI runs its session-start subcommand once per session.

Usage:

	gemini-guard <command> [arguments]

Flags may come before or after the arguments. Every command reads the
guard's settings the way the hooks get them: the GEMINI_GUARD_* variables of
the environment, overridden by the extension's settings file
(~/.gemini/extensions/gemini-guard/.env, written by `gemini extensions config
gemini-guard`), tightened by the workspace's .gemini/gemini-guard.toml.

Exit codes:

	0  allowed, nothing found, healthy
	1  blocked (or would be blocked in warn mode), secret found, unhealthy
	2  usage error, unreadable input, or internal error

# check

	gemini-guard check [--dir D] [--workspace W] [--mode M] [--ext DIR] [--explain] [--json] '<command>'

Decides a shell command exactly as the shell guard's hook would for
run_shell_command, and prints the decision, the rule and the reason the model
would get, and the mode. In warn mode the hook lets a blocked command run
and only tells the user; check still exits 1 for it.

	--dir D        the directory the command runs in (the tool's dir_path); default: the workspace
	--workspace W  the session's workspace; default: the current directory
	--mode M       decide in mode standard, strict or warn instead of the configured one
	--ext DIR      read settings from this extension directory's .env
	--explain      also print how the command was read: each executed command after
	               unwrapping sudo, env, xargs, find -exec, ..., nested bash -c and eval
	               scripts, and words resolved from quoting, variables and braces
	--json         print one JSON object: command, dir, workspace, mode, decision
	               (allow, deny or warn), hook_decision (what Gemini CLI is told), rule,
	               reason, safer, fragment, notes, trace (with --explain)

# scan

	gemini-guard scan [--workspace W] [--ext DIR] [--json] <file>...

Decides, for each file, what the secrets guard's hook would answer to a
write_file of that file's current content: the secrets it finds (masked),
each with its rule and line. "-" reads standard input. Exits 1 when any file
holds a secret.

	--workspace W  the session's workspace (for the skip paths and the workspace
	               .gitleaks.toml); default: the current directory
	--ext DIR      read settings from this extension directory's .env
	--json         print one JSON object per file: file, decision, rule, reason, findings

# doctor

	gemini-guard doctor [--ext DIR] [--json]

Verifies an installed extension end to end and exits 1 if any check fails:
the manifest, the hook programs in bin/ (present, executable), hooks.json
(parses; each guard's hook is there; matchers are valid, anchored regexes
that select the guarded tools; every command runs an existing program), the
settings (invalid values, the project file's warnings, warn mode), policies/
(loadable by Gemini CLI's policy engine), GEMINI.md and skills/. Then it runs
the real hook commands from hooks.json the way Gemini CLI does (bash -c with
${extensionPath} and ${/} substituted, the input as JSON on stdin, the hook's
timeout): a known-bad command must be denied and a known-good one allowed, a
write that adds a credential must be denied, a streamed answer chunk and a
tool output that show a credential must be redacted, and no answer may show
the credential. It measures each hook's latency (median of 5 runs) and, when
the audit log is on, checks that doctor's decisions were recorded without
the credential.

	--ext DIR  the extension directory; default ~/.gemini/extensions/gemini-guard
	           (following `gemini extensions link`), else the directory this
	           program was installed in
	--json     print the report as JSON: extension, version, mode, healthy,
	           checks (name, status ok|warn|fail|skip, detail, ms), latency_ms

# log

	gemini-guard log [-n N] [--all] [--ext DIR] [--json]

Prints the most recent blocks (denies, and what warn mode let through) from
the audit log, oldest first. Exits 2 when the audit log is off.

	-n N       show the last N entries (default 20, 0 for all)
	--all      show every recorded decision, not only blocks
	--ext DIR  read settings from this extension directory's .env
	--json     print the entries as JSON lines

# agy

	gemini-guard agy install   [--workspace DIR] [--bin DIR]
	gemini-guard agy uninstall [--workspace DIR]
	gemini-guard agy status    [--workspace DIR] [--bin DIR]

Registers gemini-guard with Antigravity CLI (agy 1.1.18 or newer), which
does not take a Gemini CLI extension's hooks. install merges one named hook,
"gemini-guard", into ~/.gemini/config/hooks.json (with --workspace, into
DIR/.agents/hooks.json, which agy loads only when DIR is an open
workspace): guard-shell and guard-secrets on PreToolUse, session-start on
PreInvocation, with absolute paths to the programs in --bin (default: the
directory of the running gemini-guard, which must hold guard-shell,
guard-secrets and guard-scanner too). Every other key of the file is kept,
in its order. A file that is not one JSON object is left as it is (exit 2);
otherwise the new file is checked to read back, written to a temporary file
and renamed over, and the previous one kept as hooks.json.bak. Installing
twice changes nothing. install exits 1 when the file holds a top-level key
whose value is not an object: agy drops the whole file for it.

uninstall removes the "gemini-guard" hook and nothing else. status says
whether it is registered, enabled, up to date with --bin, and whether each
program it runs exists and is executable (a missing one makes agy block
every tool call it matches); it exits 0 when all holds, 1 otherwise.

# claude

	gemini-guard claude install   [--project [--dir DIR]] [--bin DIR] [--claude PROGRAM] [--on-failure auto|block|off]
	gemini-guard claude uninstall [--project [--dir DIR]]
	gemini-guard claude status    [--project [--dir DIR]] [--bin DIR]

Registers gemini-guard with Claude Code. install merges its handlers into
the "hooks" of ~/.claude/settings.json (with --project, of DIR/.claude/settings.json,
DIR the current directory by default): guard-shell and guard-secrets on
PreToolUse, guard-redact after-tool on PostToolUse (every tool) and, with
onFailure, on PostToolBatch (a failed tool's output holding a secret stops
the turn), guard-redact
user-prompt on UserPromptSubmit and session-start on SessionStart, each run
with --host claude and an absolute path into --bin (default: the directory
of the running gemini-guard, which must hold every program). Every other
key, event, group and handler is kept; a handler of gemini-guard's (one of
its programs run with --host claude) is replaced, so installing twice
changes nothing. Each handler gets "onFailure": "block" (a failed, timed-out
or missing hook then blocks instead of letting the call through) when
`PROGRAM --version` says Claude Code 2.1.332 or newer, or with
--on-failure block. A file that cannot be merged is left as it is (exit 2);
otherwise the new file is checked to read back, written to a temporary file
and renamed over, and the previous one kept as settings.json.bak.

uninstall removes gemini-guard's handlers and nothing else. status says
whether they are registered and complete, whether each program exists and is
executable, whether onFailure is set and whether disableAllHooks switches
them off; it exits 0 when all holds, 1 otherwise.

# codex

	gemini-guard codex install   [--project] [--bin DIR]
	gemini-guard codex uninstall [--project]
	gemini-guard codex status    [--project] [--bin DIR]

Registers gemini-guard with Codex CLI (0.171). install merges gemini-guard's
matcher groups into $CODEX_HOME/hooks.json (default ~/.codex; with
--project, ./.codex/hooks.json, which Codex loads only in a trusted
project): guard-shell and guard-secrets on PreToolUse (Bash, apply_patch,
mcp__*), guard-redact on PostToolUse, session-start on SessionStart, each
run as `--host codex <event>`, with absolute paths to the programs in --bin.
Groups of ours are replaced where they stand; every other group, event and
key is kept. Codex runs a user's hook only while $CODEX_HOME/config.toml
holds [hooks.state."<hooks.json>:<event>:<group>:<handler>"] with the
trusted_hash it computes for it, so install writes those entries too
(enabled = true), keeping every other line of config.toml. Both files are
validated before they are replaced (temporary file, rename, .bak kept); a
file that cannot be read or merged is left as it is (exit 2). Installing
twice changes nothing.

uninstall removes gemini-guard's groups and their trust entries, and moves
the trust of another hook whose group index changed with them. status
recomputes every hash and says whether each hook is trusted, has lost its
trust (edited since), is switched off, or runs a program that is missing;
it exits 0 when all holds, 1 otherwise. doctor reports the user's
registration the same way.

# version

	gemini-guard version [--json]

Prints the version, the Go version and the platform.

# session-start

	gemini-guard session-start < input.json

The SessionStart hook: reads Gemini CLI's hook input and prints one JSON
object that warns the user about a Gemini CLI older than the floor (0.32.1:
what it leaves unprotected; Linux, read from the hook's process tree),
missing hook programs, invalid settings, ignored entries of the workspace's
project file, and warn mode. Always exits 0.

	gemini-guard session-start --host agy PreInvocation < input.json

Antigravity CLI's PreInvocation hook: at the first model request of a
conversation (invocationNum 0, conversationId not seen in the last hour)
it prints {"injectSteps":[{"ephemeralMessage":…}]}: gemini-guard is active,
what agy keeps it from covering, and any problem of the installation or the
settings; otherwise {"injectSteps":[]}. Always exits 0.

	gemini-guard session-start --host claude < input.json

Claude Code's SessionStart hook: tells the model what gemini-guard cannot do
in Claude Code (additionalContext) and the user any problem of the
installation or the settings (systemMessage). Always exits 0.

	gemini-guard session-start --host codex SessionStart < input.json

Codex CLI's SessionStart hook: prints
{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":…}}
telling the model that gemini-guard is active, what Codex keeps it from
covering, and any problem of the installation or the settings. Always
exits 0.
*/
package main
