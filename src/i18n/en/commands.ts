import type { commands as frCommands } from "../fr/commands.js";
import { count, type Message } from "../message.js";

const s = (n: number): string => (n === 1 ? "" : "s");

/** English messages of `/codex` help and syntax, projects, status, policy and the App Home (exactly the keys of `fr/commands.ts`). */
export const commands = {
  "help.title": "/codex commands",
  "help.intro":
    "You can also mention @codexpi followed by the project and the prompt, or send me a direct message.",
  "help.admin_badge": "admin",
  "help.admin_note": "Commands marked 🔒 are for admins only.",

  "command.general.syntax":
    "/codex help|ask|projects|project|status|decisions|incidents|specialists|specialist|notify|run|policy|orchestrate|orchestrations|usage|budget …",
  "command.general.help": "The /codex sub-commands; `/codex help` describes them.",
  "command.help.syntax": "/codex help",
  "command.help.help": "Shows this help.",
  "command.ask.syntax":
    "/codex ask <project> [model=<model>] [effort=low|medium|high] [branch=<branch>] <prompt>",
  "command.ask.help": "Starts a Codex agent in a project; the message’s thread becomes the conversation.",
  "command.projects.syntax": "/codex projects",
  "command.projects.help": "Lists the projects you can use.",
  "command.project.syntax":
    "/codex project add|remove|set|allow|disallow|allow-host|deny-host|share|unshare|forge <name> …",
  "command.project.help": "Administers projects.",
  "command.project.add.syntax":
    "/codex project add <name> <path> [--owner @someone] [--full-access] [--merge-confirmation] [--channel #channel] [--role project|master|self]",
  "command.project.add.help": "Registers a git repository on the host as a project.",
  "command.project.remove.syntax": "/codex project remove <name>",
  "command.project.remove.help": "Removes a project (its files stay where they are).",
  "command.project.set.syntax":
    "/codex project set <name> [--owner @someone|none] [--channel #channel|none] [--full-access on|off] [--merge-confirmation on|off] [--role project|master|self] [--approvals never|on-request] [--host <host>|none] [--path <path>] [--max-concurrent <n>|none] [--default-for #channel|none] [--visible channel|private] [--steer on|off] [--thread-prompters author|prompters] [--workspace direct|branch] [--prompters-merge on|off] [--memory-writers owners|prompters] [--models a,b|none] [--network off|allowlist|open] [--forge-channel #channel|none] [--forge-triggers comments,issues,ci|none]",
  "command.project.set.help":
    "Changes a project’s settings; its owner may also use `--default-for #channel` (the channel’s default project) or `--default-for none`, and `--visible channel` (its channel’s members may read and follow its conversations, not prompt it; `private` by default).",
  "command.project.allow.syntax": "/codex project allow|disallow <name> @someone",
  "command.project.allow.help":
    "The project’s owner (or an admin) lets someone prompt it besides them, or no longer.",
  "command.status.syntax": "/codex status",
  "command.status.help": "Queue, running agents, host load and pauses.",
  "command.decisions.syntax": "/codex decisions",
  "command.decisions.help": "Decisions and approvals waiting for your answer.",
  "command.incidents.syntax": "/codex incidents",
  "command.incidents.help": "Open incidents and repairs in progress.",
  "command.specialists.syntax": "/codex specialists",
  "command.specialists.help": "Specialist agents and their capabilities.",
  "command.specialist.add.syntax": "/codex specialist add",
  "command.specialist.add.help": "Creates a specialist agent (form).",
  "command.run.syntax": "/codex run",
  "command.run.help": "Shows the current autonomous run.",
  "command.run.start.syntax": "/codex run start",
  "command.run.start.help": "Starts an autonomous run from a JSON plan (form).",
  "command.run.resume.syntax": "/codex run resume [--revise]",
  "command.run.resume.help": "Resumes the blocked run, with a revised plan if you add --revise.",
  "command.run.cancel.syntax": "/codex run cancel",
  "command.run.cancel.help": "Stops the current run (its owner or an admin).",
  "command.policy.syntax": "/codex policy",
  "command.policy.help": "Sets the runtime policy: concurrent agents, pause thresholds, night window (form).",
  "command.notify.syntax": "/codex notify [<task_completion|decisions|incidents> <on|off>]",
  "command.notify.help": "Chooses what reaches you by direct message.",
  "command.orchestrate.syntax": "/codex orchestrate <project>",
  "command.orchestrate.help": "Prepares a guarded change: spec, dedicated branch, tests, merge (form).",
  "command.orchestrations.syntax": "/codex orchestrations",
  "command.orchestrations.help": "Lists orchestrations and their state.",

  "project.added": "Project *{name}* registered: `{path}`.",
  "project.removed": "Project *{name}* removed (its files stay where they are).",
  "project.updated": "Project *{name}* updated.",
  "project.host_set": "Project *{name}* now runs on the worker host `{host}`.",
  "project.host_none": "Project *{name}* now runs on the bot’s own machine.",
  "project.default_set":
    "Project *{name}* is now the default project of {channel}: mention @codexpi there without a project name.",
  "project.channel_invite_first":
    "{channel} is private: invite {bot} there first (`/invite {bot}`), then set the channel again. Nothing was changed.",
  "project.channel_join_failed":
    "codexpi could not join {channel} (Slack answered `{code}`). Nothing was changed.",
  "project.visible_channel":
    "Project *{name}* is now visible to the members of {channel}: they may read and follow its conversations; prompting it stays with you, admins and the people you allow (`/codex project allow {name} @someone`).",
  "project.visible_channel_none":
    "Project *{name}* is visible to its channel’s members, but it has no channel yet (`/codex project set {name} --channel #channel`, admins).",
  "project.visible_private": "Project *{name}* is private again: only its owner and admins see it.",
  "project.steer_on":
    "Project *{name}*: a reply written in a thread while its agent works is now sent into the running turn (app-server runner); otherwise it waits for the next turn.",
  "project.steer_off":
    "Project *{name}*: a reply written while its agent works waits for the next turn again.",
  "project.workspace_direct":
    "Project *{name}* works directly in its checkout: one agent at a time there, the others wait their turn.",
  "project.workspace_branch":
    "Project *{name}* works in lanes: each conversation in a clone of its own, on a branch of its own.",
  "project.allowed": "{user} may now prompt project *{name}*.",
  "project.disallowed": "{user} may no longer prompt project *{name}*.",
  "project.default_cleared": "Project *{name}* is no longer the default project of {channels}.",
  "project.default_none": "Project *{name}* was the default project of no channel.",

  "projects.title": "Projects ({n})",
  "projects.empty": "No visible project. An admin can add one with `/codex project add`.",
  "projects.owner": "owner {owner}",
  "projects.channel": "channel {channel}",
  "projects.visible_channel": "visible to the channel’s members",
  "projects.full_access": "full access",
  "projects.sandboxed": "sandboxed",
  "projects.merge_confirmation": "merge on confirmation",
  "projects.approvals_on_request": "approvals on request",
  "projects.steer": "replies steer the running turn",
  "projects.workspace.direct": "direct: one agent at a time in its checkout",
  "projects.workspace.branch": "branch: a lane per conversation",
  "projects.role.project": "project",
  "projects.role.master": "master agent",
  "projects.role.self": "self-repair",

  "status.title": "codexpi status",
  "status.queued": (p) => `*Queued*: {n} request${s(count(p))}`,
  "status.running": "*Running*: {n} of {max}",
  "status.load": "*Load*: {value} % (pauses above {limit} %)",
  "status.memory": "*Memory*: {value} % (pauses above {limit} %)",
  "status.window_always": "*Background work*: any time",
  "status.window": "*Background work*: from {start}:00 to {end}:00",
  "status.paused": "⏸️ New work is paused: {reasons}.",
  "status.running_title": "Running agents",
  "status.none_running": "No agent running.",
  "status.since": "for {duration}",
  "status.open": "open",

  "policy_modal.title": "Runtime policy",
  "policy_modal.submit": "Save",
  "policy_modal.close": "Cancel",
  "policy_modal.intro": "Applies to every project; a project may have its own limit (`/codex project set`).",
  "policy_modal.max_concurrent.label": "Concurrent agents at most",
  "policy_modal.max_concurrent.hint": "From 1 to 64.",
  "policy_modal.max_concurrent.error": "An integer from 1 to 64.",
  "policy_modal.load_pause_percent.label": "Pause above this load (%)",
  "policy_modal.load_pause_percent.hint": "One-minute load average relative to the cores; 100 = all busy.",
  "policy_modal.load_pause_percent.error": "An integer from 1 to 1000.",
  "policy_modal.memory_pause_percent.label": "Pause above this memory (%)",
  "policy_modal.memory_pause_percent.hint": "Memory in use, cache excluded.",
  "policy_modal.memory_pause_percent.error": "An integer from 1 to 100.",
  "policy_modal.background_start_hour.label": "Background work: start (hour)",
  "policy_modal.background_start_hour.hint": "Local time, 0 to 23; start equal to end = any time.",
  "policy_modal.background_start_hour.error": "An hour from 0 to 23.",
  "policy_modal.background_end_hour.label": "Background work: end (hour)",
  "policy_modal.background_end_hour.hint": "Excluded; may wrap midnight (22 then 7).",
  "policy_modal.background_end_hour.error": "An hour from 0 to 23.",

  "policy.saved": "Runtime policy saved.",

  "home.title": "codexpi",
  "home.run.title": "Current autonomous run",
  "home.run.line": "*{title}* · {status} · {stage}",
  "home.decisions.title": "Pending decisions ({n})",
  "home.decisions.empty": "No pending decision.",
  "home.decisions.title_with_approvals": "Pending decisions and approvals ({n})",
  "home.incidents.title": "Incidents ({n})",
  "home.incidents.empty": "No open incident.",
  "home.incidents.retry": "Retry",
  "home.policies.title": "Runtime policy",
  "home.policies.global": (p) =>
    `*Global*: {max} concurrent agent${s(count(p, "max"))} · pause when load is above {load} % or memory above {memory} %`,
  "home.policies.project": (p) => `{name}: {n} agent${s(count(p))} max`,
  "home.policies.no_projects": "No project registered.",
  "home.specialists.title": "Specialists ({n})",
  "home.specialists.empty": "No specialist. Create one with `/codex specialist add`.",
  "home.specialists.rebuild": "Rebuild",
  "home.specialists.no_capabilities": "no declared capability",
} satisfies Record<keyof typeof frCommands, Message>;
