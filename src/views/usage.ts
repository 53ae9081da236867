import type {
  BudgetChange,
  BudgetLimits,
  BudgetView,
  UsageReport,
  UsageRow,
  UsageSums,
} from "../engine/api/model.js";
import { t, type Locale } from "../i18n/index.js";
import { context, header, packLines, section, type Block, type SlackMessage } from "./blocks.js";
import { escapeClip, userMention } from "./mrkdwn.js";

// Usage and budgets (issue 21): the `/codex usage` report, the budget commands' answers, the
// admins' notice and the App Home's section. Pure. Figures are plain integers (no grouping), the
// same in every language, so that people and tests read them alike.

/** How a person or a project is named in a line: a Slack mention, or the project's name in bold. */
const subjectLabel = (scope: "project" | "user", name: string): string =>
  scope === "user" ? userMention(name) : `*${escapeClip(name, 100)}*`;

const costText = (locale: Locale, sums: UsageSums, currency: string | null): string =>
  sums.cost === null || currency === null
    ? ""
    : t(locale, "spend.cost", {
        cost: sums.cost >= 1 ? sums.cost.toFixed(2) : sums.cost.toFixed(4),
        currency,
      });

/** One line of sums: tokens, agent minutes, turns and (with prices) the estimated cost. */
function usageLine(locale: Locale, key: string, sums: UsageSums, currency: string | null): string {
  return (
    t(locale, "spend.line", {
      key,
      tokens: sums.input + sums.output,
      input: sums.input,
      cached: sums.cached,
      output: sums.output,
      minutes: (sums.agentMs / 60_000).toFixed(1),
      turns: sums.turns,
    }) + costText(locale, sums, currency)
  );
}

/** Every line of a report: total, then by project, by person and by day (CLI and Slack alike). */
export function usageLines(
  locale: Locale,
  r: UsageReport,
  label: { project: (name: string) => string; person: (id: string) => string },
): string[] {
  if (r.total.turns === 0) return [t(locale, "spend.none")];
  const rows = (title: string, list: UsageRow[], name: (k: string) => string) => [
    "",
    t(locale, title as "spend.by_project"),
    ...list.map((row) => `• ${usageLine(locale, name(row.key), row, r.currency)}`),
  ];
  return [
    usageLine(locale, t(locale, "spend.total"), r.total, r.currency),
    ...rows("spend.by_project", r.byProject, label.project),
    ...rows("spend.by_person", r.byPerson, label.person),
    ...rows("spend.by_day", r.byDay, (k) => k),
  ];
}

/** `/codex usage`: the report as a message. */
export function usageView(locale: Locale, r: UsageReport): SlackMessage {
  const title = t(locale, "spend.title", {
    days: r.days,
    project: r.project ? escapeClip(r.project, 100) : "",
  });
  const lines = usageLines(locale, r, {
    project: (name) => `*${escapeClip(name, 100)}*`,
    person: (id) => (/^[UW][A-Z0-9]+$/.test(id) ? userMention(id) : escapeClip(id, 60)),
  });
  const blocks: Block[] = [section(title)];
  for (const text of packLines(lines).slice(0, 40)) blocks.push(section(text));
  return { text: title, blocks };
}

/** A budget's limits as a phrase. */
export function limitsText(locale: Locale, l: BudgetLimits): string {
  const one = (n: number | null) =>
    n === null ? t(locale, "budget.unlimited") : t(locale, "budget.tokens", { n });
  return t(locale, "budget.limits", { daily: one(l.daily), monthly: one(l.monthly) });
}

/** The answer to `budget set` and `budget clear`. */
export function budgetChangeText(locale: Locale, c: BudgetChange): string {
  const who = subjectLabel(c.scope, c.name);
  return c.after
    ? t(locale, "budget.set", { scope: c.scope, who, limits: limitsText(locale, c.after) })
    : t(locale, "budget.cleared", { scope: c.scope, who });
}

/** `budget list`. */
export function budgetsView(locale: Locale, budgets: BudgetView[]): SlackMessage {
  const title = t(locale, "budget.list_title");
  if (budgets.length === 0)
    return { text: title, blocks: [section(title), context([t(locale, "budget.list_none")])] };
  const lines = budgets.map(
    (b) =>
      `• ${t(locale, "budget.line", {
        scope: b.scope,
        who: subjectLabel(b.scope, b.name),
        limits: limitsText(locale, b.limits),
        today: b.used.daily,
        month: b.used.monthly,
      })}`,
  );
  return { text: title, blocks: [section(title), ...packLines(lines).map((text) => section(text))] };
}

/** The DM an admin gets the first time a budget is found reached in its period. */
export function budgetReachedText(
  locale: Locale,
  e: {
    scope: "project" | "user";
    name: string;
    period: string;
    budget: number;
    used: number;
    resets: string;
  },
): string {
  return t(locale, "notice.budget_reached", { ...e, who: subjectLabel(e.scope, e.name) });
}

/** The App Home's usage section: the last 7 days by project (what the person may read). */
export function homeUsageBlocks(locale: Locale, r: UsageReport): Block[] {
  const blocks: Block[] = [header(t(locale, "home.usage.title"))];
  if (r.total.turns === 0) return [...blocks, context([t(locale, "home.usage.none")])];
  const lines = [
    usageLine(locale, t(locale, "spend.total"), r.total, r.currency),
    ...r.byProject
      .slice(0, 10)
      .map((row) => `• ${usageLine(locale, `*${escapeClip(row.key, 100)}*`, row, r.currency)}`),
  ];
  return [
    ...blocks,
    ...packLines(lines)
      .slice(0, 3)
      .map((text) => section(text)),
  ];
}
