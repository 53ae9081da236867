import type { MemoryListing, UsageReport } from "../engine/api/model.js";
import { homeMemoryBlocks } from "./memory.js";
import { homeUsageBlocks } from "./usage.js";
import type { RuntimePolicy } from "../engine/api/model.js";
import type * as slack from "@slack/types";
import { isMessageKey, t, type Locale, type MessageKey } from "../i18n/index.js";
import { button, context, divider, header, listBlocks, section, type Block } from "./blocks.js";
import { ACTIONS, BLOCKS } from "./ids.js";
import { MAX_SURFACE_BLOCKS } from "./limits.js";
import { escapeClip } from "./mrkdwn.js";
import { failureText } from "../i18n/failures.js";
import { pendingApprovalBlock, type PendingApprovalItem } from "./approvals.js";

/** A decision waiting for the user's answer (its buttons are in the conversation's thread). */
export interface HomeDecision {
  id: string;
  title: string;
  question: string;
  projectName: string;
}

/** An incident; `retryable` overrides the default (failed or needing the user). */
export interface HomeIncident {
  id: string;
  status: string;
  projectName: string;
  error: string | null;
  retryable?: boolean;
}

/** A specialist agent; a failed one gets a Rebuild button. */
export interface HomeSpecialist {
  id: string;
  name: string;
  status: string;
  capabilities: string[];
}

/** The engine's overview (S-CO-10: exactly four parts), plus the current run when there is one. */
export interface HomeOverview {
  decisions: HomeDecision[];
  /** Pending approvals the person may answer (listed with the decisions; answered on their card). */
  approvals?: PendingApprovalItem[];
  incidents: HomeIncident[];
  runtime_policies: {
    global: RuntimePolicy;
    projects: Array<{ name: string; effective_max_concurrent: number }>;
  };
  specialists: HomeSpecialist[];
  run?: { status: string; stage: string; title: string } | null;
  /** The last 7 days' usage of what the person may read (issue 21). */
  usage?: UsageReport | null;
  /** The notes of the projects the person may read that keep any (issue 34). */
  memory?: MemoryListing[];
}

/** The App Home view. */
export interface HomeView extends slack.HomeView {
  type: "home";
  blocks: Block[];
}

/** Items shown per list; with the headers and dividers the view stays under 100 blocks. */
export const HOME_LIST_ITEMS = 20;

const RETRYABLE = new Set(["FAILED", "NEEDS_USER"]);

/**
 * The first `HOME_LIST_ITEMS` items as blocks and an "and N more" line for the rest, or the empty
 * state when there is nothing.
 */
function list<T>(
  locale: Locale,
  items: T[],
  empty: MessageKey,
  render: (item: T, index: number) => Block,
): Block[] {
  if (items.length === 0) return [context([t(locale, empty)])];
  const blocks = items.slice(0, HOME_LIST_ITEMS).map(render);
  if (items.length > HOME_LIST_ITEMS)
    blocks.push(context([t(locale, "common.more", { n: items.length - HOME_LIST_ITEMS })]));
  return blocks;
}

const oneLine = (text: string, max: number): string => escapeClip(text.trim().replace(/\s+/g, " "), max);

// The states a person reads, from the same catalog entries as the commands' views; a state this
// table does not know (a newer engine) is shown as it is rather than hidden.
const STATE_LABELS: Readonly<Record<string, MessageKey>> = {
  "incident.OPEN": "incident.view.status.open",
  "incident.REPAIRING": "incident.view.status.repairing",
  "incident.RESOLVED": "incident.view.status.resolved",
  "incident.FAILED": "incident.view.status.failed",
  "specialist.BUILDING": "specialist.view.status.building",
  "specialist.ACTIVE": "specialist.view.status.active",
  "specialist.FAILED": "specialist.view.status.failed",
  "run.RUNNING": "run_view.status.RUNNING",
  "run.BLOCKED": "run_view.status.BLOCKED",
  "run.COMPLETED": "run_view.status.COMPLETED",
  "run.CANCELLED": "run_view.status.CANCELLED",
};

function stateLabel(locale: Locale, family: "incident" | "specialist" | "run", status: string): string {
  const key = STATE_LABELS[`${family}.${status.toUpperCase()}`];
  return key ? t(locale, key) : oneLine(status, 40);
}

function stageLabel(locale: Locale, stage: string): string {
  const key = `run_view.stage.${stage}`;
  return isMessageKey(key) ? t(locale, key) : oneLine(stage, 40);
}

/** The App Home: the current run, decisions, incidents, runtime policies and specialists. */
export function homeView(locale: Locale, overview: HomeOverview): HomeView {
  const blocks: Block[] = [
    header(t(locale, "home.title")),
    ...runBlocks(locale, overview.run),
    ...pendingBlocks(locale, overview.decisions, overview.approvals ?? []),
    ...incidentBlocks(locale, overview.incidents),
    ...policyBlocks(locale, overview.runtime_policies),
    ...specialistBlocks(locale, overview.specialists),
    ...(overview.usage ? homeUsageBlocks(locale, overview.usage) : []),
    ...(overview.memory?.length ? homeMemoryBlocks(locale, overview.memory) : []),
  ];
  return { type: "home", blocks: blocks.slice(0, MAX_SURFACE_BLOCKS) };
}

function runBlocks(locale: Locale, r: HomeOverview["run"]): Block[] {
  if (!r) return [];
  const line = t(locale, "home.run.line", {
    title: oneLine(r.title, 300),
    status: stateLabel(locale, "run", r.status),
    stage: stageLabel(locale, r.stage),
  });
  return [section(`🚀 *${t(locale, "home.run.title")}*\n${line}`, { blockId: BLOCKS.homeRun })];
}

function pendingBlocks(locale: Locale, decisions: HomeDecision[], approvals: PendingApprovalItem[]): Block[] {
  // One list, one budget of blocks: decisions first, then approvals (each links to its card).
  const pending: Array<HomeDecision | PendingApprovalItem> = [...decisions, ...approvals];
  return [
    divider(),
    header(
      approvals.length
        ? t(locale, "home.decisions.title_with_approvals", { n: pending.length })
        : t(locale, "home.decisions.title", { n: decisions.length }),
    ),
    ...list(locale, pending, "home.decisions.empty", (d, i) =>
      "approval" in d
        ? pendingApprovalBlock(locale, d)
        : section(
            `❓ *${oneLine(d.title, 200)}* · _${oneLine(d.projectName, 100)}_\n${escapeClip(d.question.trim(), 600)}`,
            {
              blockId: `${BLOCKS.homeDecisions}.${i}`,
            },
          ),
    ),
  ];
}

function incidentBlocks(locale: Locale, incidents: HomeIncident[]): Block[] {
  return [
    divider(),
    header(t(locale, "home.incidents.title", { n: incidents.length })),
    ...list(locale, incidents, "home.incidents.empty", (incident, i) => {
      const retryable = incident.retryable ?? RETRYABLE.has(incident.status.toUpperCase());
      const failure = failureText(locale, incident.error)?.trim();
      const error = failure ? `\n${oneLine(failure, 500)}` : "";
      return section(
        `🚨 *${oneLine(incident.projectName, 100)}* · ${stateLabel(locale, "incident", incident.status)}${error}`,
        {
          blockId: `${BLOCKS.homeIncidents}.${i}`,
          ...(retryable
            ? {
                accessory: button({
                  actionId: ACTIONS.incidentRetry,
                  text: t(locale, "home.incidents.retry"),
                  value: incident.id,
                }),
              }
            : {}),
        },
      );
    }),
  ];
}

function policyBlocks(locale: Locale, policies: HomeOverview["runtime_policies"]): Block[] {
  const policy = policies.global;
  const projects = policies.projects;
  return [
    divider(),
    header(t(locale, "home.policies.title")),
    section(
      t(locale, "home.policies.global", {
        max: policy.max_concurrent,
        load: policy.load_pause_percent,
        memory: policy.memory_pause_percent,
      }) +
        "\n" +
        (policy.background_start_hour === policy.background_end_hour
          ? t(locale, "status.window_always")
          : t(locale, "status.window", {
              start: policy.background_start_hour,
              end: policy.background_end_hour,
            })),
      { blockId: BLOCKS.homePolicies },
    ),
    ...(projects.length === 0
      ? [context([t(locale, "home.policies.no_projects")])]
      : listBlocks(
          projects.map(
            (p) =>
              `• ${t(locale, "home.policies.project", { name: oneLine(p.name, 100), n: p.effective_max_concurrent })}`,
          ),
          {
            maxBlocks: 3,
            idPrefix: `${BLOCKS.homePolicies}.projects`,
            more: (n) => t(locale, "common.more", { n }),
          },
        )),
  ];
}

function specialistBlocks(locale: Locale, specialists: HomeSpecialist[]): Block[] {
  return [
    divider(),
    header(t(locale, "home.specialists.title", { n: specialists.length })),
    ...list(locale, specialists, "home.specialists.empty", (s, i) => {
      const shown = s.capabilities.slice(0, 30).map((c) => `\`${oneLine(c, 80)}\``);
      if (s.capabilities.length > 30) shown.push(t(locale, "common.more", { n: s.capabilities.length - 30 }));
      const capabilities = shown.length
        ? shown.join(" ")
        : `_${t(locale, "home.specialists.no_capabilities")}_`;
      const failed = s.status.toUpperCase() === "FAILED";
      return section(
        `🧩 *${oneLine(s.name, 100)}* · ${stateLabel(locale, "specialist", s.status)}\n${capabilities}`,
        {
          blockId: `${BLOCKS.homeSpecialists}.${i}`,
          ...(failed
            ? {
                accessory: button({
                  actionId: ACTIONS.specialistRebuild,
                  text: t(locale, "home.specialists.rebuild"),
                  value: s.id,
                }),
              }
            : {}),
        },
      );
    }),
  ];
}
