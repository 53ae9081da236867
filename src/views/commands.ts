import {
  type NetworkPolicy,
  type PauseReason,
  type ProjectRole,
  type WorkspaceMode,
  type RuntimePolicy,
  parseProgress,
} from "../engine/api/model.js";
import { isMessageKey, t, type Locale, type MessageKey } from "../i18n/index.js";
import {
  context,
  fields,
  header,
  listBlocks,
  packLines,
  section,
  type Block,
  type SlackMessage,
} from "./blocks.js";
import { formatDuration, percent } from "./format.js";
import { progressLine } from "./progress.js";
import { networkFact } from "./network.js";
import { BLOCKS } from "./ids.js";
import { MAX_MESSAGE_BLOCKS } from "./limits.js";
import { channelMention, escapeClip, escapeMrkdwn, slackLink, userMention } from "./mrkdwn.js";

/** A `/codex` sub-command that has a help line and a usage line. */
export type CommandTopic =
  | "help"
  | "ask"
  | "projects"
  | "project.add"
  | "project.remove"
  | "project.set"
  | "project.allow"
  | "project.hosts"
  | "project.forge"
  | "status"
  | "decisions"
  | "incidents"
  | "specialists"
  | "specialist.add"
  | "run"
  | "run.start"
  | "run.resume"
  | "run.cancel"
  | "policy"
  | "notify"
  | "orchestrate"
  | "orchestrations"
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

/** What a usage line can be shown for: a sub-command, a group (`project`), or `/codex` itself. */
export type UsageTopic = CommandTopic | "project" | "general";

/**
 * The sub-commands in help order; `admin` marks the ones only admins may run (DESIGN.md);
 * `live` the ones this version answers — help never advertises a command that does nothing yet.
 */
export const COMMANDS: ReadonlyArray<{ topic: CommandTopic; admin: boolean; live: boolean }> = [
  { topic: "help", admin: false, live: true },
  { topic: "ask", admin: false, live: true },
  { topic: "projects", admin: false, live: true },
  { topic: "project.add", admin: true, live: true },
  { topic: "project.remove", admin: true, live: true },
  { topic: "project.set", admin: true, live: true },
  { topic: "project.allow", admin: false, live: true },
  { topic: "project.hosts", admin: false, live: true },
  { topic: "project.share", admin: false, live: true },
  { topic: "channel", admin: false, live: true },
  { topic: "project.forge", admin: true, live: true },
  { topic: "status", admin: false, live: true },
  { topic: "decisions", admin: false, live: true },
  { topic: "incidents", admin: false, live: true },
  { topic: "specialists", admin: false, live: true },
  { topic: "specialist.add", admin: false, live: true },
  { topic: "run", admin: false, live: true },
  { topic: "run.start", admin: false, live: true },
  { topic: "run.resume", admin: false, live: true },
  { topic: "run.cancel", admin: false, live: true },
  { topic: "policy", admin: true, live: true },
  { topic: "notify", admin: false, live: true },
  { topic: "orchestrate", admin: false, live: true },
  { topic: "orchestrations", admin: false, live: true },
  { topic: "usage", admin: false, live: true },
  { topic: "budget", admin: true, live: true },
  { topic: "schedule", admin: false, live: true },
  { topic: "audit", admin: true, live: true },
  { topic: "setup", admin: false, live: true },
  { topic: "remember", admin: false, live: true },
  { topic: "memory", admin: false, live: true },
  { topic: "forge", admin: false, live: true },
];

const more = (locale: Locale) => (n: number) => t(locale, "common.more", { n });

const syntax = (locale: Locale, topic: UsageTopic): string =>
  t(locale, `command.${topic}.syntax` as MessageKey);

/**
 * The `/codex help` message: every sub-command with its one-line description. Admins see the
 * admin commands too, marked 🔒; others see only what they can run.
 */
export function helpView(locale: Locale, opts: { isAdmin: boolean }): SlackMessage {
  const shown = COMMANDS.filter((c) => c.live && (opts.isAdmin || !c.admin));
  const lines = shown.map(
    (c) =>
      `${c.admin ? "🔒 " : "• "}\`${escapeMrkdwn(syntax(locale, c.topic))}\` — ${t(locale, `command.${c.topic}.help` as MessageKey)}`,
  );
  const blocks: Block[] = [header(t(locale, "help.title")), context([t(locale, "help.intro")])];
  packLines(lines).forEach((text, i) => blocks.push(section(text, { blockId: `${BLOCKS.help}.${i}` })));
  if (opts.isAdmin) blocks.push(context([t(locale, "help.admin_note")]));
  return { text: t(locale, "help.title"), blocks };
}

/** One ephemeral usage line, e.g. "Usage : `/codex ask <projet> <consigne>`" (escaped for Slack). */
export function usage(locale: Locale, topic: UsageTopic): string {
  return t(locale, "notice.usage", { syntax: `\`${escapeMrkdwn(syntax(locale, topic))}\`` });
}

/**
 * The answer to a `/codex` word that is no sub-command: said so, with the sub-command a typo most
 * likely meant (`suggestion`) and the way to the list.
 */
export function unknownCommand(locale: Locale, command: string, suggestion: string | null = null): string {
  // Inside backticks: a backtick of its own would close the code span.
  const quoted = escapeClip(command.replace(/`/g, "'"), 40);
  return suggestion
    ? t(locale, "notice.unknown_command_suggest", { command: quoted, suggestion })
    : t(locale, "notice.unknown_command", { command: quoted });
}

/** A project as `/codex projects` lists it. */
export interface ProjectListItem {
  name: string;
  path: string;
  ownerId: string | null;
  fullAccess: boolean;
  mergeConfirmation: boolean;
  channelId: string | null;
  role: ProjectRole;
  /** Whether its agent asks before escalating (absent: never). */
  approvalsOnRequest?: boolean;
  /** Replies written while its agent works go into the running turn. */
  steer?: boolean;
  /** Only a conversation's author (and the owner, admins) carries it on (`--thread-prompters author`). */
  threadsToAuthor?: boolean;
  /** Its channel's members may read and follow it. */
  visibleToChannel?: boolean;
  /** Where its conversations work: its checkout, one agent at a time, or a lane each. */
  workspaceMode?: WorkspaceMode;
  /** The models a request may name with `model=` (absent or empty: only the configured one). */
  allowedModels?: string[];
  /** How its agents reach the network; absent for those who may not change it. */
  network?: NetworkPolicy;
}

/** The `/codex projects` message. */
export function projectsView(locale: Locale, projects: ProjectListItem[]): SlackMessage {
  const title = t(locale, "projects.title", { n: projects.length });
  if (projects.length === 0)
    return {
      text: t(locale, "projects.empty"),
      blocks: [header(title), section(t(locale, "projects.empty"))],
    };
  const entries = projects.map((p) => {
    const facts = [
      ...(p.role === "project" ? [] : [`*${t(locale, `projects.role.${p.role}`)}*`]),
      t(locale, "projects.owner", { owner: p.ownerId ? userMention(p.ownerId) : t(locale, "common.shared") }),
      ...(p.channelId ? [t(locale, "projects.channel", { channel: channelMention(p.channelId) })] : []),
      ...(p.visibleToChannel && p.channelId ? [t(locale, "projects.visible_channel")] : []),
      t(locale, p.fullAccess ? "projects.full_access" : "projects.sandboxed"),
      ...(p.mergeConfirmation ? [t(locale, "projects.merge_confirmation")] : []),
      ...(p.approvalsOnRequest ? [t(locale, "projects.approvals_on_request")] : []),
      ...(p.steer ? [t(locale, "projects.steer")] : []),
      ...(p.threadsToAuthor ? [t(locale, "projects.thread_author")] : []),
      ...(p.workspaceMode ? [t(locale, `projects.workspace.${p.workspaceMode}`)] : []),
      ...(p.allowedModels?.length
        ? [t(locale, "projects.models", { models: escapeClip(p.allowedModels.join(", "), 400) })]
        : []),
      ...(p.network ? [networkFact(locale, p.network)] : []),
    ];
    return `*${escapeClip(p.name, 200)}* · \`${escapeClip(p.path, 400)}\`\n${facts.join(" · ")}`;
  });
  return {
    text: title,
    blocks: [
      header(title),
      ...listBlocks(entries, {
        maxBlocks: MAX_MESSAGE_BLOCKS - 1,
        idPrefix: BLOCKS.projectsList,
        more: more(locale),
        separator: "\n\n",
      }),
    ],
  };
}

/** An agent running now, for `/codex status`. */
export interface RunningAgent {
  projectName: string;
  title: string;
  activity: string | null;
  startedAt: number | null;
  /** A permalink to the conversation's thread, when known. */
  conversationLink?: string | null;
}

/** What `/codex status` shows. */
export interface StatusInput {
  queued: number;
  running: RunningAgent[];
  limits: RuntimePolicy;
  host: { loadPercent: number; memoryPercent: number };
  paused: PauseReason[];
  now: number;
}

/** The `/codex status` message: queue, running agents, load against thresholds, pauses. */
export function statusView(locale: Locale, s: StatusInput): SlackMessage {
  const l = s.limits;
  const window =
    l.background_start_hour === l.background_end_hour
      ? t(locale, "status.window_always")
      : t(locale, "status.window", { start: l.background_start_hour, end: l.background_end_hour });
  const blocks: Block[] = [
    header(t(locale, "status.title")),
    fields(
      [
        t(locale, "status.queued", { n: s.queued }),
        t(locale, "status.running", { n: s.running.length, max: l.max_concurrent }),
        t(locale, "status.load", { value: percent(s.host.loadPercent), limit: l.load_pause_percent }),
        t(locale, "status.memory", { value: percent(s.host.memoryPercent), limit: l.memory_pause_percent }),
        window,
      ],
      BLOCKS.statusSummary,
    ),
  ];
  if (s.paused.length > 0) {
    const reasons = [...new Set(s.paused)].map((r) => t(locale, `pause.${r}`)).join(", ");
    blocks.push(section(t(locale, "status.paused", { reasons }), { blockId: BLOCKS.statusPaused }));
  }
  blocks.push(section(`*${t(locale, "status.running_title")}*`));
  if (s.running.length === 0) {
    blocks.push(context([t(locale, "status.none_running")]));
  } else {
    const entries = s.running.map((r) => {
      const parts = [`*${escapeClip(r.projectName, 100)}*`, escapeClip(r.title.replace(/\s+/g, " "), 150)];
      const progress = parseProgress(r.activity);
      if (progress) parts.push(`_${progressLine(locale, progress)}_`);
      else if (r.activity?.trim()) parts.push(`_${escapeClip(r.activity.trim().replace(/\s+/g, " "), 200)}_`);
      if (r.startedAt != null)
        parts.push(t(locale, "status.since", { duration: formatDuration(locale, s.now - r.startedAt) }));
      if (r.conversationLink) parts.push(slackLink(r.conversationLink, t(locale, "status.open")));
      return `• ${parts.join(" — ")}`;
    });
    blocks.push(
      ...listBlocks(entries, {
        maxBlocks: MAX_MESSAGE_BLOCKS - blocks.length,
        idPrefix: BLOCKS.statusRunning,
        more: more(locale),
      }),
    );
  }
  return { text: t(locale, "status.title"), blocks };
}

/** An engine error as the engine throws it (`EngineError`), or its code and text. */
export interface ErrorInput {
  code: string;
  message: string;
  params?: Readonly<Record<string, string | number>>;
}

/**
 * The ephemeral text for an engine error: the catalog's message for its code, with the detail
 * (`params.detail`, else the error's own text) escaped. An unknown code gets the generic one.
 */
export function errorView(locale: Locale, error: ErrorInput): string {
  const key = `error.${error.code}`;
  const params: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(error.params ?? {}))
    params[k] = typeof v === "string" ? escapeClip(v, 500) : v;
  const detail = error.params?.detail ?? error.message;
  params.detail = escapeClip(String(detail), 1500);
  return `⚠️ ${t(locale, isMessageKey(key) ? key : "error.internal", params)}`;
}
