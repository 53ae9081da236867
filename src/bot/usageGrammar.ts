// `/codex usage` and `/codex budget` (issue 21): parsed apart from commandGrammar.ts, which only
// routes the two words here.

/** Whom a budget command is about: a project by name, or a Slack user. */
export interface BudgetTargetArg {
  scope: "project" | "user";
  name: string;
}

/** The usage and budget commands, or the usage topic to show when malformed. */
export type UsageCommand =
  | { kind: "usage.show"; project: string | null; days: number | null }
  | { kind: "budget.set"; target: BudgetTargetArg; daily?: number | null; monthly?: number | null }
  | { kind: "budget.list" }
  | { kind: "budget.clear"; target: BudgetTargetArg }
  | { kind: "usage"; topic: "usage" | "budget" };

const TOKENS = /^\d{1,15}$/;

/** `usage [<project>] [--days N]`. */
export function parseUsage(args: string[]): UsageCommand {
  const bad: UsageCommand = { kind: "usage", topic: "usage" };
  let project: string | null = null;
  let days: number | null = null;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === "--days") {
      const v = args[++i];
      if (!v || !/^\d{1,3}$/.test(v)) return bad;
      days = Number(v);
    } else if (!a.startsWith("--") && project === null) project = a;
    else return bad;
  }
  return { kind: "usage.show", project, days };
}

/** A Slack mention or id to a user id (commandGrammar's `slackUser`). */
type UserOf = (token: string) => string | null;

function targetOf(
  scope: string | undefined,
  name: string | undefined,
  slackUser: UserOf,
): BudgetTargetArg | null {
  if (scope === "project" && name && !name.startsWith("--")) return { scope: "project", name };
  const user = scope === "user" && name ? slackUser(name) : null;
  return user ? { scope: "user", name: user } : null;
}

/** `budget set project <p>|user @x [--daily N|none] [--monthly N|none]`, `budget list`, `budget clear …`. */
export function parseBudget(args: string[], slackUser: UserOf): UsageCommand {
  const bad: UsageCommand = { kind: "usage", topic: "budget" };
  const [verb, scope, name, ...flags] = args;
  if (verb === "list") return args.length === 1 ? { kind: "budget.list" } : bad;
  const target = targetOf(scope, name, slackUser);
  if (!target) return bad;
  if (verb === "clear") return flags.length === 0 ? { kind: "budget.clear", target } : bad;
  if (verb !== "set" || flags.length === 0 || flags.length % 2) return bad;
  const cmd: Extract<UsageCommand, { kind: "budget.set" }> = { kind: "budget.set", target };
  for (let i = 0; i < flags.length; i += 2) {
    const [flag, value] = [flags[i], flags[i + 1] as string];
    const limit = value === "none" ? null : TOKENS.test(value) ? Number(value) : undefined;
    if (limit === undefined) return bad;
    if (flag === "--daily") cmd.daily = limit;
    else if (flag === "--monthly") cmd.monthly = limit;
    else return bad;
  }
  return cmd;
}
