import type { usage as fr } from "../fr/usage.js";
import type { Message, Params } from "../message.js";

const period = (p: Params) => (p.period === "monthly" ? "monthly" : "daily");
const subject = (p: Params) => (p.scope === "user" ? "of user {name}" : "of project {name}");

/** English messages of usage and budgets (issue 21). */
export const usage = {
  "reason.over_budget": (p: Params) =>
    `the ${period(p)} budget ${subject(p)} is reached: {used} tokens used of {budget}; it resets at {resets}. A turn already running finishes; new prompts wait for the reset (or for an admin to raise the budget).`,
  "reason.budget_invalid":
    "a budget is given in tokens, positive whole numbers: `--daily N` and/or `--monthly N`",
  "reason.budget_not_found": "there is no budget for {name}",
  "reason.usage_days_invalid": "`--days` takes a number of days from 1 to 366",
  "command.usage.syntax": "/codex usage [<project>] [--days N]",
  "command.usage.help": "Tokens, agent minutes and estimated cost per project, per person and per day.",
  "command.budget.syntax":
    "/codex budget set project <project>|user @someone [--daily N] [--monthly N] · budget list · budget clear project <project>|user @someone",
  "command.budget.help": "Token budgets per project and per person, per day (UTC) and per month.",
  "spend.title": (p: Params) =>
    p.project ? "Usage of *{project}* over {days} day(s)" : "Usage over {days} day(s)",
  "spend.none": "No finished turn in this period.",
  "spend.total": "*Total*",
  "spend.by_project": "*By project*",
  "spend.by_person": "*By person*",
  "spend.by_day": "*By day (UTC)*",
  "spend.line":
    "{key}: {tokens} tokens (input {input} of which {cached} cached, output {output}) · {minutes} agent min · {turns} turn(s)",
  "spend.cost": " · ~{cost} {currency}",
  "budget.set": (p: Params) => `Budget ${p.scope === "user" ? "of {who}" : "of project {who}"}: {limits}.`,
  "budget.cleared": (p: Params) => `Budget ${p.scope === "user" ? "of {who}" : "of project {who}"} removed.`,
  "budget.limits": "{daily} per day, {monthly} per month",
  "budget.unlimited": "no limit",
  "budget.tokens": "{n} tokens",
  "budget.list_title": "*Budgets* (tokens; UTC days and months)",
  "budget.list_none": "No budget. `/codex budget set project PROJECT --daily N` sets one.",
  "budget.line": (p: Params) =>
    `${p.scope === "user" ? "{who}" : "project {who}"}: {limits} — used today {today}, this month {month}`,
  "notice.budget_reached": (p: Params) =>
    `:warning: The ${period(p)} budget ${p.scope === "user" ? "of {who}" : "of project {who}"} is reached: {used} tokens used of {budget}. New prompts are refused until {resets} (a turn already running finishes). \`/codex budget set\` raises it.`,
  "home.usage.title": "Usage over the last 7 days",
  "home.usage.none": "No finished turn in the last 7 days.",
  "cli.about.usage": "Usage per project, person and day (`--json` for the raw figures).",
  "cli.about.budget": "Token budgets per project and per person (admins).",
  "cli.budget.none": "no budget",
} satisfies Record<keyof typeof fr, Message>;
