/** A project's role, as the engine's command takes it. */
type ProjectRole = NonNullable<NewProject["role"]>;
/** A project's approval mode, as the engine's command takes it. */
type ApprovalMode = NonNullable<ProjectUpdate["approvalMode"]>;

/** A parsed `/codex` command, or the usage topic to show when the input is malformed. */
export type Command =
  | { kind: "help" }
  /** `text`: everything after `ask`, for a channel's project when the first word names none. */
  | { kind: "ask"; project: string; prompt: string; text: string }
  | { kind: "projects" }
  | { kind: "status" }
  | {
      kind: "project.add";
      name: string;
      path: string;
      owner: string | null;
      channel: string | null;
      fullAccess: boolean;
      mergeConfirmation: boolean;
      role: ProjectRole;
    }
  | { kind: "project.remove"; name: string }
  | { kind: "project.set"; name: string; changes: ProjectChanges }
  | { kind: "project.allow"; name: string; user: string; allowed: boolean }
  /** `allow-host` (allowed) or `deny-host`: entries or presets; the engine checks each. */
  | { kind: "project.hosts"; name: string; hosts: string[]; allowed: boolean }
  /** Shows or changes a project's forge settings (admins; forgeGrammar.ts). */
  | Exclude<ForgeCommand, { kind: "usage" }>
  | { kind: "decisions" }
  | { kind: "incidents" }
  | { kind: "specialists" }
  | { kind: "specialist.add"; shared: boolean }
  | { kind: "notify"; change: { key: NotifyKey; on: boolean } | null }
  | { kind: "policy" }
  | { kind: "run" }
  | { kind: "run.start" }
  | { kind: "run.resume"; revise: boolean }
  | { kind: "run.cancel" }
  | { kind: "orchestrate"; project: string }
  | { kind: "orchestrations" }
  /** Runs a direct project's setup in its checkout (owner or admin). */
  | { kind: "setup"; project: string }
  /** Keeps a note in a project's memory (issue 34). */
  | { kind: "memory.remember"; project: string; text: string; here: boolean }
  /** Lists a project's notes. */
  | { kind: "memory.list"; project: string }
  | { kind: "forge.link"; forge: "github" | "gitlab" }
  | ScheduleCommand
  | ChannelCommand
  | AuditCommand
  | { kind: "usage"; topic: UsageTopic }
  | Exclude<UsageCommand, { kind: "usage" }>
  /** A word that is no sub-command; `suggestion`: the sub-command it most likely meant, if any. */
  | { kind: "unknown"; command: string; suggestion: string | null };

/** The notification preferences a user can switch. */
export type NotifyKey = "task_completion" | "decisions" | "incidents";
const NOTIFY_KEYS: readonly NotifyKey[] = ["task_completion", "decisions", "incidents"];

/** What `project set` may change; absent fields are left as they are, null clears. */
export interface ProjectChanges {
  owner?: string | null;
  channel?: string | null;
  fullAccess?: boolean;
  mergeConfirmation?: boolean;
  /** Whether a conversation's person may merge its lane (else its owner and admins; admins set it). */
  promptersMerge?: boolean;
  role?: ProjectRole;
  /** Whether escalations ask a person (`on-request`) or never (`never`). */
  approvalMode?: ApprovalMode;
  /** The worker host it runs on (`codexpi host --name`); null: the coordinator's own machine. */
  host?: string | null;
  /** Its directory on the host (the engine refuses one overlapping another project's). */
  path?: string;
  maxConcurrent?: number | null;
  /**
   * The channel this project becomes the default of (a mention there needs no project name);
   * null: it is the default of no channel any more.
   */
  defaultFor?: string | null;
  /** Who may read it besides its owner and admins: its channel's members, or nobody (owner or admin). */
  visible?: "channel" | "private";
  /** Whether a reply written while the agent works is sent into the running turn (owner or admin). */
  steer?: boolean;
  /** Who may follow up, stop and answer decisions in its conversations besides their author (owner or admin). */
  threadPrompters?: ThreadPrompters;
  /** Where its conversations work: its checkout, one at a time, or a lane each (admins). */
  workspace?: WorkspaceMode;
  /** The models a request may name with `model=` (admins); null: only Codex's configured model. */
  models?: string[] | null;
  /** How its agents reach the network (its owner or an admin). */
  network?: NetworkMode;
  /** The admin's setup command (run as `sh -c` in the jail); null: none (the committed script, if any). */
  setup?: string | null;
  /** Who keeps its notes besides its owner and admins (admins). */
  memoryWriters?: "owners" | "prompters";
  /** Its forge front end's channel and triggers (issue 33), as typed: checked as `forge set` checks them (admins). */
  forgeFrontEnd?: { channel?: string; triggers?: string };
  /** A webhook secret was typed: it is never kept (a message is no secret). */
  forgeSecretGiven?: boolean;
}

/** The sub-commands a usage line exists for. */
export type UsageTopic =
  | "general"
  | "ask"
  | "project"
  | "project.add"
  | "project.remove"
  | "project.set"
  | "project.allow"
  | "project.hosts"
  | "project.forge"
  | "specialist.add"
  | "notify"
  | "run"
  | "run.start"
  | "run.resume"
  | "orchestrate"
  | "usage"
  | "budget"
  | "schedule"
  | "audit"
  | "setup"
  | "channel"
  | "project.share"
  | "remember"
  | "memory"
  | "forge";

const ROLES: readonly ProjectRole[] = ["project", "master", "self"];
const APPROVAL_MODES: readonly ApprovalMode[] = ["never", "on-request"];
const WORKSPACE_MODES: readonly WorkspaceMode[] = ["direct", "branch"];
const THREAD_PROMPTERS: readonly ThreadPrompters[] = ["author", "prompters"];
const NETWORK_MODES: readonly NetworkMode[] = ["off", "allowlist", "open"];

/**
 * Splits on whitespace, keeping "quoted strings" (straight or typographic quotes, as Slack
 * clients autocorrect them) together.
 */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  const re = /"([^"]*)"|“([^”]*)”|«\s*([^»]*?)\s*»|(\S+)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) tokens.push(m[1] ?? m[2] ?? m[3] ?? m[4] ?? "");
  return tokens;
}

/** `<@U123|alice>` or `<@U123>` → U123; a bare id is accepted too. */
export function slackUser(token: string): string | null {
  const m = /^<@([UW][A-Z0-9]+)(?:\|[^>]*)?>$/.exec(token) ?? /^([UW][A-Z0-9]{2,})$/.exec(token);
  return m?.[1] ?? null;
}

/** `<#C123|general>` or `<#C123>` → C123; a bare id is accepted too. */
export function slackChannel(token: string): string | null {
  const m = /^<#([CG][A-Z0-9]+)(?:\|[^>]*)?>$/.exec(token) ?? /^([CG][A-Z0-9]{2,})$/.exec(token);
  return m?.[1] ?? null;
}

const onOff = (v: string | undefined): boolean | undefined =>
  v === "on" || v === "true" || v === "yes"
    ? true
    : v === "off" || v === "false" || v === "no"
      ? false
      : undefined;

/** A sub-command's parser, given the words after it, the raw text after it (free-text arguments) and the whole text. */
type SubCommandParser = (rest: string[], args: string, trimmed: string) => Command;

/** A sub-command that takes no argument: any word after it earns the general usage. */
const bare =
  (command: Command): SubCommandParser =>
  (rest) =>
    rest.length ? { kind: "usage", topic: "general" } : { ...command };

const afterSubCommand = (trimmed: string): string => trimmed.replace(/^\S+\s*/, "");

/**
 * The grammar's first word, English then French, to its parser: one table, so the list a typo's
 * suggestion is taken from is the very list of words the grammar knows.
 */
const SUB_COMMANDS: Readonly<Record<string, SubCommandParser>> = (() => {
  const help = bare({ kind: "help" });
  const projects = bare({ kind: "projects" });
  const status = bare({ kind: "status" });
  const ask: SubCommandParser = (_rest, _text, trimmed) => parseAsk(trimmed);
  const project: SubCommandParser = (rest) => parseProject(rest);
  const decisions = bare({ kind: "decisions" });
  const specialists = bare({ kind: "specialists" });
  const specialist: SubCommandParser = parseSpecialist;
  const usage: SubCommandParser = (rest) => parseUsage(rest);
  const schedule: SubCommandParser = (_rest, args) => parseSchedule(args);
  const policy = bare({ kind: "policy" });
  return {
    help,
    projects,
    status,
    ask,
    project,
    decisions,
    incidents: bare({ kind: "incidents" }),
    specialists,
    specialist,
    notify: (rest) => parseNotify(rest),
    run: (rest) => parseRun(rest),
    orchestrate: (rest) =>
      rest.length === 1
        ? { kind: "orchestrate", project: rest[0] as string }
        : { kind: "usage", topic: "orchestrate" },
    orchestrations: bare({ kind: "orchestrations" }),
    setup: (rest) =>
      rest.length === 1 ? { kind: "setup", project: rest[0] as string } : { kind: "usage", topic: "setup" },
    usage,
    budget: (rest) => parseBudget(rest, slackUser),
    schedule,
    audit: (_rest, args) => parseAudit(args),
    remember: (_rest, args) => parseRemember(args),
    memory: (rest) =>
      rest.length === 1
        ? { kind: "memory.list", project: rest[0] as string }
        : { kind: "usage", topic: "memory" },
    forge: (rest) =>
      rest.length === 2 && rest[0]?.toLowerCase() === "link" && /^(github|gitlab)$/i.test(rest[1] ?? "")
        ? { kind: "forge.link", forge: (rest[1] as string).toLowerCase() as "github" | "gitlab" }
        : { kind: "usage", topic: "forge" },
    policy,
    channel: (_rest, args) => parseChannel(args),
    aide: help,
    projets: projects,
    statut: status,
    demande: ask,
    projet: project,
    décisions: decisions,
    spécialistes: specialists,
    spécialiste: specialist,
    conso: usage,
    planifie: schedule,
    politique: policy,
    canal: (_rest, args) => parseChannel(args),
  };
})();

/** Parses the text after `/codex`. Never throws: malformed input becomes a usage topic, an unknown word `unknown`. */
export function parseCommand(text: string): Command {
  const trimmed = text.trim();
  const [sub, ...rest] = tokenize(trimmed);
  const word = (sub ?? "help").toLowerCase();
  const parse = Object.hasOwn(SUB_COMMANDS, word) ? SUB_COMMANDS[word] : undefined;
  if (parse) return parse(rest, afterSubCommand(trimmed), trimmed);
  // A word that is no sub-command is said so (with the way to the list and the sub-command a typo
  // most likely meant), not met with a usage line.
  return { kind: "unknown", command: sub ?? "", suggestion: closest(sub ?? "", Object.keys(SUB_COMMANDS)) };
}

/**
 * `remember <project> [--here] <text>`: the note is the raw rest of the line (its spacing is the
 * person's); `--here` right after the project keeps it for this channel's conversations only.
 */
function parseRemember(args: string): Command {
  const [project] = tokenize(args);
  const afterProject = args.replace(/^\S+\s*/, "");
  const here = /^--here(\s|$)/.test(afterProject);
  const text = (here ? afterProject.replace(/^--here\s*/, "") : afterProject).trim();
  return project && text
    ? { kind: "memory.remember", project, text, here }
    : { kind: "usage", topic: "remember" };
}

function parseSpecialist(rest: string[]): Command {
  if (rest[0] === "add" && rest.length === 1) return { kind: "specialist.add", shared: false };
  if (rest[0] === "add" && rest.length === 2 && rest[1] === "--shared")
    return { kind: "specialist.add", shared: true };
  return { kind: "usage", topic: "specialist.add" };
}

function parseAsk(text: string): Command {
  // The prompt is the raw rest of the line (its quotes and spacing are the user's).
  const afterSub = text.replace(/^\S+\s*/, "");
  const [project] = tokenize(afterSub);
  if (!project) return { kind: "usage", topic: "ask" };
  const quoted = /^("[^"]*"|“[^”]*”)\s*/.exec(afterSub);
  const prompt = (quoted ? afterSub.slice(quoted[0].length) : afterSub.replace(/^\S+\s*/, "")).trim();
  return prompt ? { kind: "ask", project, prompt, text: afterSub.trim() } : { kind: "usage", topic: "ask" };
}

function parseProject(args: string[]): Command {
  const [verb, ...rest] = args;
  if (verb === "add") return parseAdd(rest);
  if (verb === "remove")
    return rest.length === 1
      ? { kind: "project.remove", name: rest[0] as string }
      : { kind: "usage", topic: "project.remove" };
  if (verb === "set") return parseSet(rest);
  if (verb === "share" || verb === "unshare") return parseShare(verb, rest, slackChannel);
  if (verb === "forge") return parseForge(rest);
  if (verb === "allow" || verb === "disallow") {
    const user = rest.length === 2 ? slackUser(rest[1] as string) : null;
    return user
      ? { kind: "project.allow", name: rest[0] as string, user, allowed: verb === "allow" }
      : { kind: "usage", topic: "project.allow" };
  }
  if (verb === "allow-host" || verb === "deny-host") {
    const [name, ...hosts] = rest;
    return name && hosts.length && !name.startsWith("--")
      ? { kind: "project.hosts", name, hosts, allowed: verb === "allow-host" }
      : { kind: "usage", topic: "project.hosts" };
  }
  return { kind: "usage", topic: "project" };
}

function parseAdd(args: string[]): Command {
  const usage: Command = { kind: "usage", topic: "project.add" };
  const [name, path, ...flags] = args;
  if (!name || !path || name.startsWith("--") || path.startsWith("--")) return usage;
  const cmd = {
    kind: "project.add" as const,
    name,
    path,
    owner: null as string | null,
    channel: null as string | null,
    fullAccess: false,
    mergeConfirmation: false,
    role: "project" as ProjectRole,
  };
  for (let i = 0; i < flags.length; i++) {
    const flag = flags[i];
    const value = flags[i + 1];
    if (flag === "--full-access") cmd.fullAccess = true;
    else if (flag === "--merge-confirmation") cmd.mergeConfirmation = true;
    else if (flag === "--owner" && value && slackUser(value)) {
      cmd.owner = slackUser(value);
      i++;
    } else if (flag === "--channel" && value && slackChannel(value)) {
      cmd.channel = slackChannel(value);
      i++;
    } else if (flag === "--role" && value && ROLES.includes(value as ProjectRole)) {
      cmd.role = value as ProjectRole;
      i++;
    } else return usage;
  }
  return cmd;
}

function parseSet(args: string[]): Command {
  const usage: Command = { kind: "usage", topic: "project.set" };
  const [name, ...flags] = args;
  if (!name || name.startsWith("--") || flags.length === 0) return usage;
  const changes: ProjectChanges = {};
  for (let i = 0; i < flags.length; i += 2) {
    const flag = flags[i];
    const value = flags[i + 1];
    if (value === undefined) return usage;
    if (flag === "--owner") {
      if (value === "none") changes.owner = null;
      else if (slackUser(value)) changes.owner = slackUser(value);
      else return usage;
    } else if (flag === "--channel") {
      if (value === "none") changes.channel = null;
      else if (slackChannel(value)) changes.channel = slackChannel(value);
      else return usage;
    } else if (flag === "--default-for") {
      if (value === "none") changes.defaultFor = null;
      else if (slackChannel(value)) changes.defaultFor = slackChannel(value) as string;
      else return usage;
    } else if (flag === "--visible" && (value === "channel" || value === "private")) changes.visible = value;
    else if (flag === "--full-access" && onOff(value) !== undefined) changes.fullAccess = onOff(value);
    else if (flag === "--steer" && onOff(value) !== undefined) changes.steer = onOff(value);
    else if (flag === "--thread-prompters" && THREAD_PROMPTERS.includes(value as ThreadPrompters))
      changes.threadPrompters = value as ThreadPrompters;
    else if (flag === "--workspace" && WORKSPACE_MODES.includes(value as WorkspaceMode))
      changes.workspace = value as WorkspaceMode;
    else if (flag === "--merge-confirmation" && onOff(value) !== undefined)
      changes.mergeConfirmation = onOff(value);
    else if (flag === "--prompters-merge" && onOff(value) !== undefined)
      changes.promptersMerge = onOff(value);
    else if (flag === "--memory-writers" && (value === "owners" || value === "prompters"))
      changes.memoryWriters = value;
    else if (flag === "--role" && ROLES.includes(value as ProjectRole)) changes.role = value as ProjectRole;
    else if (flag === "--network" && NETWORK_MODES.includes(value as NetworkMode))
      changes.network = value as NetworkMode;
    else if (flag === "--approvals" && APPROVAL_MODES.includes(value as ApprovalMode))
      changes.approvalMode = value as ApprovalMode;
    else if (flag === "--host" && /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/.test(value))
      changes.host = value === "none" ? null : value;
    else if (flag === "--path" && !value.startsWith("--")) changes.path = value;
    else if (flag === "--max-concurrent" && (value === "none" || /^\d{1,2}$/.test(value)))
      changes.maxConcurrent = value === "none" ? null : Number(value);
    // `a,b` or `none`; the engine checks each name.
    else if (flag === "--models" && !value.startsWith("--"))
      changes.models = value === "none" ? null : value.split(",").filter(Boolean);
    // One (quoted) word: the whole command line; the engine checks it.
    else if (flag === "--setup" && value.trim()) changes.setup = value === "none" ? null : value;
    else if (flag === "--forge-channel") changes.forgeFrontEnd = { ...changes.forgeFrontEnd, channel: value };
    else if (flag === "--forge-triggers")
      changes.forgeFrontEnd = { ...changes.forgeFrontEnd, triggers: value };
    else if (flag === "--forge-webhook-secret") changes.forgeSecretGiven = true;
    else return usage;
  }
  return { kind: "project.set", name, changes };
}

function parseNotify(args: string[]): Command {
  if (args.length === 0) return { kind: "notify", change: null };
  const [key, value] = args;
  const on = onOff(value);
  if (args.length !== 2 || !NOTIFY_KEYS.includes(key as NotifyKey) || on === undefined)
    return { kind: "usage", topic: "notify" };
  return { kind: "notify", change: { key: key as NotifyKey, on } };
}

function parseRun(args: string[]): Command {
  const [verb, ...rest] = args;
  if (verb === undefined) return { kind: "run" };
  if (verb === "start" && rest.length === 0) return { kind: "run.start" };
  if (verb === "cancel" && rest.length === 0) return { kind: "run.cancel" };
  if (verb === "resume" && rest.length === 0) return { kind: "run.resume", revise: false };
  if (verb === "resume" && rest.length === 1 && rest[0] === "--revise")
    return { kind: "run.resume", revise: true };
  return { kind: "usage", topic: verb === "start" ? "run.start" : verb === "resume" ? "run.resume" : "run" };
}
import type {
  NetworkMode,
  NewProject,
  ProjectUpdate,
  ThreadPrompters,
  WorkspaceMode,
} from "../engine/api/model.js";
import { parseBudget, parseUsage, type UsageCommand } from "./usageGrammar.js";
import { parseAudit, parseSchedule, type AuditCommand, type ScheduleCommand } from "./scheduleGrammar.js";
import { closest } from "../suggest.js";
import { type ChannelCommand, parseChannel, parseShare } from "./channelGrammar.js";
import { type ForgeCommand, parseForge } from "./forgeGrammar.js";
