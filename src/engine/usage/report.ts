import { sql } from "kysely";
import type { Kernel } from "../kernel.js";
import { EngineError } from "../errors.js";
import { type Actor, findProjectByName, listProjects, projectNotFound } from "../projects/index.js";
import { costOf, type TokenSums } from "../../prices.js";
import "./schema.js";

/** Usage summed over some turns: tokens, agent time and (with a price table) estimated cost. */
export interface UsageSums extends TokenSums {
  turns: number;
  agentMs: number;
  /** Estimated cost in the table's currency; null without prices (or for unpriced models only). */
  cost: number | null;
}

/** A row of the report: a project, a person or a UTC day, with its sums. */
export interface UsageRow extends UsageSums {
  key: string;
}

/** Usage of the last `days` UTC days (today included) as the actor may see it. */
export interface UsageReport {
  days: number;
  since: number;
  /** The project it is limited to, when one was named. */
  project: string | null;
  currency: string | null;
  total: UsageSums;
  byProject: UsageRow[];
  byPerson: UsageRow[];
  byDay: UsageRow[];
}

const DAY_MS = 86_400_000;
const empty = (): UsageSums => ({ turns: 0, input: 0, cached: 0, output: 0, agentMs: 0, cost: null });

/**
 * The usage report: admins see every project, others the projects they may read. Sums come from
 * `turn_usage`, grouped in SQL by (key, model) so that each model's turns are priced at its price.
 */
export async function usageReport(
  engine: Kernel,
  actor: Actor,
  query: { project?: string | null; days?: number },
): Promise<UsageReport> {
  const days = query.days ?? 7;
  if (!Number.isInteger(days) || days < 1 || days > 366)
    throw new EngineError("invalid", "usage_days_invalid");
  const visible = await listProjects(engine.db, actor);
  let projects = visible;
  if (query.project) {
    const p = await findProjectByName(engine.db, query.project);
    if (!p || !visible.some((v) => v.id === p.id))
      throw await projectNotFound(engine.db, actor, query.project);
    projects = [p];
  }
  const now = engine.clock.now();
  const since =
    Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), new Date(now).getUTCDate()) -
    (days - 1) * DAY_MS;
  const names = new Map(projects.map((p) => [p.id, p.name]));
  const ids = [...names.keys()];
  const grouped = async (column: "project_id" | "person" | "day") =>
    ids.length === 0
      ? []
      : engine.db
          .selectFrom("turn_usage")
          .select([
            `${column} as key`,
            "model",
            sql<number>`count(*)`.as("turns"),
            sql<number>`sum(input_tokens)`.as("input"),
            sql<number>`sum(cached_input_tokens)`.as("cached"),
            sql<number>`sum(output_tokens)`.as("output"),
            sql<number>`sum(agent_ms)`.as("agent_ms"),
          ])
          .where("project_id", "in", ids)
          .where("finished_at", ">=", since)
          .groupBy([column, "model"])
          .execute();
  const prices = engine.config.prices;
  const fold = (rows: Awaited<ReturnType<typeof grouped>>, label: (k: string) => string): UsageRow[] => {
    const out = new Map<string, UsageRow>();
    for (const r of rows) {
      const key = label(String(r.key ?? "?"));
      const row = out.get(key) ?? { key, ...empty() };
      addInto(row, r, prices ? costOf(prices, r.model, toSums(r)) : null);
      out.set(key, row);
    }
    return [...out.values()].sort(
      (a, b) => b.input + b.output - (a.input + a.output) || a.key.localeCompare(b.key),
    );
  };
  const byProject = fold(await grouped("project_id"), (id) => names.get(id) ?? id);
  const total = byProject.reduce((acc, r) => {
    addInto(
      acc,
      { turns: r.turns, input: r.input, cached: r.cached, output: r.output, agent_ms: r.agentMs },
      r.cost,
    );
    return acc;
  }, empty());
  return {
    days,
    since,
    project: query.project ? (projects[0]?.name ?? null) : null,
    currency: prices?.currency ?? null,
    total,
    byProject,
    byPerson: fold(await grouped("person"), (k) => k),
    byDay: fold(await grouped("day"), (k) => k).sort((a, b) => a.key.localeCompare(b.key)),
  };
}

interface SumRow {
  turns: number;
  input: number;
  cached: number;
  output: number;
  agent_ms: number;
}

const toSums = (r: SumRow): TokenSums => ({
  input: Number(r.input),
  cached: Number(r.cached),
  output: Number(r.output),
});

function addInto(acc: UsageSums, r: SumRow, cost: number | null): void {
  acc.turns += Number(r.turns);
  acc.input += Number(r.input);
  acc.cached += Number(r.cached);
  acc.output += Number(r.output);
  acc.agentMs += Number(r.agent_ms);
  if (cost !== null) acc.cost = (acc.cost ?? 0) + cost;
}
