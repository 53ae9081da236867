import type { Message } from "../message.js";

/** The command line's texts (usage, help, answers to `answer`, `stop` and an interrupted `ask`). */
export const cli = {
  "cli.usage.title": "usage: codexpi COMMAND [--help]",
  "cli.usage.help_hint": "codexpi COMMAND --help describes one command.",
  "cli.usage.unknown": "unknown command: {name}",
  "cli.about.serve": "run the bot, dispatcher and ticker",
  "cli.about.migrate": "upgrade the database schema",
  "cli.about.doctor": "check configuration, database, Codex, git, sandbox, Slack",
  "cli.about.project": "add, list, change or remove a project",
  "cli.about.ask":
    "ask a project's agent (a new conversation, or --conversation to continue one); --wait prints the answer, --stop-on-exit stops the agent on Ctrl-C",
  "cli.about.answer":
    "print a conversation's latest answer (exit 1 if it failed, 3 while it is still running)",
  "cli.about.stop": "stop a conversation: its running agent and its queued prompts",
  "cli.about.decide": "answer an agent's decision",
  "cli.about.tick": "run one tick now",
  "cli.about.worker": "(internal) run one queued prompt",
  "cli.about.host":
    "run the agents of the projects placed on this machine (registers NAME, heartbeats; default name: the machine's)",
  "cli.error.arguments": "expected {n} argument(s), got {got}",
  "cli.error.unknown_option": "unknown option {option}.",
  "cli.error.option_value": "option {option} needs a value.",
  "cli.error.option_no_value": "option {option} takes no value.",
  "cli.error.invalid_arguments": "invalid arguments.",
  "cli.did_you_mean": "Did you mean {name}?",
  "cli.answer.running": "Conversation {id} is still running. Follow it with: codexpi answer {id}",
  "cli.answer.none": "Conversation {id} has no answer yet.",
  "cli.stop.done": "Conversation {id} stopped ({running} running, {queued} queued cancelled).",
  "cli.stop.nothing": "Conversation {id}: nothing left to stop.",
  "cli.ask.confirm_stop": "Stop the agent? [y/N] ",
  "cli.ask.left_running":
    "The agent keeps running. Its answer: codexpi answer {id} (to stop it: codexpi stop {id})",
  "cli.error.project_command":
    "unknown project command: {name} (add, list, set, allow-host, deny-host, move, credential or remove)",
  "cli.error.role": "--role must be one of {roles}",
  "cli.error.approvals": "--approvals must be never or on-request",
  "cli.error.prompters_merge": "--prompters-merge must be on or off",
  "cli.project.prompters_merge": "{name}: the people who prompt it may merge their branches: {value}",
  "cli.error.steer": "--steer must be on or off",
  "cli.error.workspace": "--workspace must be direct or branch",
  "cli.project.workspace": "project {name} changed: workspace {mode}",
  "cli.project.steer": "project {name} changed: steer {steer}",
  "cli.project.updated": "project {name} changed: approvals {approvals}",
  "cli.error.project_set":
    "project set needs --approvals never|on-request, --steer on|off, --workspace direct|branch, --prompters-merge on|off, --thread-prompters author|prompters, --models a,b|none, --network off|allowlist|open, --host HOST|none, --path DIR, or a forge option (--forge…, --forge-channel, --forge-triggers, --forge-webhook-secret -, --forge-poll on|off)",
  "cli.project.path_set": "project {name} now works in {path}",
  "cli.error.host_name": "a host name is letters, digits, . _ or - (at most 63)",
  "cli.project.host_set": "project {name} now runs on {host}",
  "cli.project.moved": "project {name} moved from {from} to {to}: {files} Codex session files copied",
  "cli.project.moved_copy_by_hand":
    "project {name} moved from {from} to {to}; copy its Codex sessions yourself: {source} → {target}",
  "cli.project.coordinator": "the coordinator's machine",
  "cli.project.on_host": "host {host}",
  "cli.host.started": "worker host {name} started (data dir {dataDir}); stop it with SIGTERM",
  "cli.host.refused": "codexpi host refused: {problem}",
  "cli.host.taken": "another live codexpi host already runs as {name}: give this one another --name",
  "cli.host.lost_name": "worker host {name} was taken over by another process: stopping",
  "cli.host.stopped": "worker host {name} stopped (running agents keep working)",
  "cli.error.owner": "--owner must be a Slack user id like U123ABC",
  "cli.error.channel": "--channel must be a Slack channel id like C123ABC",
  "cli.error.attempt": "--attempt must be a positive integer",
  "cli.error.decide_arguments": "expected a decision id and an option or --text, got {n} argument(s)",
  "cli.project.added": "project {name} added ({id}) at {path}",
  "cli.project.added_full_access": "project {name} added ({id}) at {path} [full access]",
  "cli.project.removed": "project {name} removed ({path} itself is left as it is)",
  "cli.project.none": "no projects yet: codexpi project add NAME PATH",
  "cli.ask.paused": "queued: new work is paused ({reasons})",
  "cli.ask.still_waiting": "still waiting",
  "cli.migrate.applied": "applied: {names}",
  "cli.migrate.up_to_date": "database is up to date",
  "cli.doctor.line": "{mark} {name}: {detail}",
  "cli.doctor.name.configuration": "configuration",
  "cli.doctor.name.database": "database",
  "cli.doctor.name.jail": "jail",
  "cli.doctor.name.layout": "layout",
  "cli.doctor.name.overlap": "project paths",
  "cli.doctor.name.credentials": "credentials",
  "cli.doctor.name.proxy": "egress proxy",
  "cli.doctor.name.network": "full-access network",
  "cli.doctor.name.codex": "codex",
  "cli.doctor.name.codex_config": "codex config",
  "cli.doctor.name.sandbox": "sandbox",
  "cli.doctor.name.model": "model",
  "cli.doctor.name.git": "git",
  "cli.doctor.name.slack": "slack",
  "cli.doctor.name.slack_scopes": "slack scopes",
  "cli.doctor.name.slack_app_token": "slack app token",
  "cli.doctor.data_dir": "data dir {dir}, runner {runner}",
  "cli.doctor.layout_ok": "no project holds the data directory or the install",
  "cli.doctor.overlap_ok": "no project's directory is inside another's, contains it or is the same",
  "cli.doctor.credentials_ok":
    "{kind} stays on the host: every agent reaches its model ({upstream}) through codexpi's gateway, no jail holds it",
  "cli.doctor.credentials_missing": "the model gateway finds no credential: {detail}",
  "cli.doctor.credential_kind.api_key": "the OpenAI API key",
  "cli.doctor.credential_kind.chatgpt": "the ChatGPT login (refreshed on the host)",
  "cli.doctor.credential_kind.provider": "the provider's key",
  "cli.doctor.proxy_ok":
    "an agent's egress proxy starts here, lets a listed host through and refuses another",
  "cli.doctor.proxy_failed": "an agent's egress proxy does not work here: {detail}",
  "cli.doctor.netns_ok":
    "agents have no network of their own (their ways out are codexpi's gateway and, for a project that lists hosts, its egress proxy); a full-access agent of an `open` project routes out through a namespace of its own (pasta); host loopback ports every agent reaches: {ports}",
  "cli.doctor.netns_missing":
    "pasta (Debian package passt), capsh (libcap2-bin) or /dev/net/tun is missing: full-access agents share the host's network namespace (its abstract unix sockets, /proc/net). Fix (Debian, as root): `apt-get install passt libcap2-bin`",
  "cli.doctor.netns_off":
    "CODEXPI_NETNS=off: full-access agents share the host's network namespace (its abstract unix sockets, /proc/net)",
  "cli.doctor.codex_config_ok": "{file} parses",
  "cli.doctor.codex_config_none": "no {file}: Codex's defaults",
  "cli.doctor.codex_config_invalid":
    "{where}: {message}. Fix: correct that line of {file} (a key appears once per table; TOML's syntax: https://toml.io), then run doctor again; the sandbox and model checks wait for it",
  "cli.doctor.codex_missing":
    "binary not found. Fix: `npm --prefix {install} ci` (it installs @openai/codex), or set CODEX_BIN to a codex binary",
  "cli.doctor.sandbox_ok": "restricted projects can run commands",
  "cli.doctor.sandbox_ok_jailed": "restricted projects can run commands (inside the jail)",
  "cli.doctor.sandbox_failed": "restricted projects cannot run commands here: {detail}",
  "cli.doctor.sandbox_failed_jailed":
    "restricted projects cannot run commands here (inside the jail): {detail}",
  "cli.doctor.gateway_failed":
    "the model gateway, through which every agent reaches its model, cannot start: {detail}",
  "cli.doctor.git_missing": "git not found on PATH",
  "cli.doctor.model_default": "Codex's default model",
  "cli.doctor.model_default_no_config": "Codex's default model (no config.toml)",
  "cli.doctor.model_with_provider": "{model} (provider {provider})",
  "cli.doctor.model_no_bwrap": "not probed: bubblewrap is missing (see the jail check)",
  "cli.doctor.model_ok": "{model} answered in {seconds} s ({home})",
  "cli.doctor.model_silent": "no answer within {seconds} s",
  "cli.doctor.model_exited": "codex exited ({code})",
  "cli.doctor.model_failed":
    "{model} did not answer after {seconds} s: {why}. Fix: log in (see docs/setup.md#the-model) or correct {config}",
  "cli.doctor.model_cannot_run": "codex could not run: {error}",
  "cli.doctor.bot_token_unset": "SLACK_BOT_TOKEN is not set",
  "cli.doctor.auth_failed":
    "auth.test failed: {error}. Fix: copy the Bot User OAuth Token (xoxb-…) into SLACK_BOT_TOKEN (reinstall the app if it was revoked)",
  "cli.doctor.auth_ok": "auth.test ok: {user} in {team}",
  "cli.doctor.scopes_unreported": "not reported by Slack (x-oauth-scopes): not checked",
  "cli.doctor.scopes_missing":
    "SLACK_BOT_TOKEN lacks {scopes}. Fix: add manifest.yml's bot scopes to the app and reinstall it",
  "cli.doctor.scopes_ok": "every bot scope of manifest.yml is granted",
  "cli.doctor.slack_unreachable": "Slack unreachable at {url}: {error}",
  "cli.doctor.app_token_ok": "apps.connections.open ok (Socket Mode)",
  "cli.doctor.app_token_failed":
    "apps.connections.open failed: {error}. Fix: create an app-level token with connections:write (Basic Information → App-Level Tokens) and set it as SLACK_APP_TOKEN",
  "cli.layout.data_in_project":
    'the data directory {data} is inside the project "{project}" ({path}): its agents could rewrite codexpi\'s database; move CODEXPI_DATA_DIR outside every project',
  "cli.layout.install_in_project":
    'the project "{project}" ({path}) contains the running codexpi install ({install}): its agents could rewrite the code codexpi runs; register a separate checkout',
  "cli.layout.project_inside":
    'the project "{project}" ({path}) is inside the project "{other}" ({otherPath}): the agents of "{other}" could read and write its files and git hooks; give one of them a directory of its own (codexpi project set "{project}" --path DIR) or remove one (codexpi project remove "{project}")',
  "cli.layout.project_same":
    'the projects "{project}" and "{other}" have the same directory ({path}): each one’s agents could read and write the other’s files and git hooks; give one of them a directory of its own (codexpi project set "{project}" --path DIR) or remove one (codexpi project remove "{project}")',
  "cli.serve.refused": "codexpi serve refused: {problem}",
  "cli.storage.postgres":
    "cannot use the PostgreSQL database of DATABASE_URL: {reason}. Fix: check that the server is reachable, that the user may connect, create tables and write (not a read-only standby), or unset DATABASE_URL to use the SQLite file.",
  "cli.storage.read_only":
    "the database {file} is read-only for this process{user}: {reason}. Fix: make {file} and its directory {dir} writable by the user running codexpi (chown/chmod, or remount read-write), or set DATABASE_URL=sqlite:/a/writable/codexpi.db.",
  "cli.storage.disk_full":
    "the disk holding the database {file} is full: {reason}. Fix: free space on that disk (df {dir}).",
  "cli.storage.cannot_open":
    "cannot open the database {file}: {reason}. Fix: make sure {dir} exists and is writable by the user running codexpi{user}, or set CODEXPI_DATA_DIR / DATABASE_URL to a writable place.",
  "cli.storage.damaged":
    "the database {file} is damaged or not an SQLite database: {reason}. Fix: restore it from a backup, or point DATABASE_URL at the right file.",
  "cli.storage.other":
    "cannot use the database {file}: {reason}. Fix: check the file and its directory {dir} (permissions, free space), or set DATABASE_URL.",
  "cli.storage.uid": " (uid {uid})",
  "cli.jail.none": "none",
  "cli.jail.mechanism": "{version} (user, pid, ipc, uts namespaces; private /tmp and /proc)",
  "cli.jail.line": "{mechanism}: {detail}",
  "cli.jail.off": "CODEXPI_JAIL=off: agents and test commands are NOT isolated",
  "cli.jail.missing": "bubblewrap is not installed. Fix (Debian, as root): `apt-get install bubblewrap`",
  "cli.jail.no_start": "the jail does not start here: {error}",
  "cli.jail.read_outside": "a jailed process read a file outside its workspace",
  "cli.jail.saw_parent": "a jailed process saw codexpi's processes",
  "cli.jail.no_write": "a jailed process could not write its workspace",
  "cli.jail.ok":
    "a jailed process could not read the data directory nor see codexpi's processes, and wrote its workspace",
  "cli.startup.bot_token_fix":
    "Fix: copy the Bot User OAuth Token (xoxb-…) from your app's OAuth page (OAuth and Permissions) into SLACK_BOT_TOKEN (reinstall the app to the workspace if the token was revoked).",
  "cli.startup.app_token_fix":
    "Fix: under Basic Information → App-Level Tokens, create a token with the connections:write scope and set it as SLACK_APP_TOKEN (xapp-…); Socket Mode must be on in the app's settings (or unset SLACK_APP_TOKEN and use HTTP mode with SLACK_SIGNING_SECRET).",
  "cli.startup.missing_scope":
    "Slack refused {variable}: the token lacks the scope {scope} (missing_scope). Fix: give the app the scopes of manifest.yml and reinstall it to the workspace.",
  "cli.startup.scope_unnamed": "(not named)",
  "cli.startup.token_rejected": "Slack refused {variable} ({code}). {fix}",
  "cli.startup.refused": "Slack refused to start the bot with {variable} ({code}). {fix}",
  "cli.startup.unknown_error": "unknown error",
  "cli.startup.unreachable":
    "cannot reach Slack at {url} to start ({why}). Fix: check the network, the proxy and SLACK_API_URL; when Slack itself is down, a supervisor that restarts serve (systemd Restart=on-failure) brings it back once Slack answers.",
  "cli.project.full_access": "full access",
  "cli.project.restricted": "restricted",
  "cli.project.merge_confirmation": "merge confirmation",
  "cli.project.approvals_on_request": "approvals on request",
  "cli.project.steer_on": "replies steer the running turn",
  "cli.project.workspace_direct": "direct (one agent at a time in its checkout)",
  "cli.project.workspace_branch": "branch (a lane per conversation)",
  "cli.project.owner": "owner {id}",
  "cli.project.shared": "no owner",
  "cli.project.channel": "channel {id}",
} satisfies Record<string, Message>;
