import { sql } from "kysely";
import type { Database } from "../database.js";
import "./schema.js";

/** Every project's usage since the beginning (metrics: counters read from the recorded turns). */
export async function usageTotals(db: Database) {
  const rows = await db
    .selectFrom("turn_usage")
    .leftJoin("projects", "projects.id", "turn_usage.project_id")
    .select([
      "turn_usage.project_id",
      "projects.name",
      sql<number>`sum(turn_usage.input_tokens)`.as("input"),
      sql<number>`sum(turn_usage.cached_input_tokens)`.as("cached"),
      sql<number>`sum(turn_usage.output_tokens)`.as("output"),
      sql<number>`sum(turn_usage.agent_ms)`.as("agent_ms"),
    ])
    .groupBy(["turn_usage.project_id", "projects.name"])
    .execute();
  return rows.map((r) => ({
    project: r.name ?? r.project_id,
    input: Number(r.input),
    cached: Number(r.cached),
    output: Number(r.output),
    agentMs: Number(r.agent_ms),
  }));
}
