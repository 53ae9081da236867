import SQLite from "better-sqlite3";
import { CompiledQuery, sql } from "kysely";
import type { Config } from "../../src/config.js";
import { openDatabase, type Database } from "../../src/engine/database.js";

/** A second handle on the test's database that records every statement run through it. */
export function loggingDatabase(config: Config, queries: CompiledQuery[]): Database {
  return openDatabase(config.database, {
    log: (e) => void (e.level === "query" && queries.push(e.query)),
  });
}

/** The statements whose plans matter: reads and writes (not BEGIN, PRAGMA, locks' SET…). */
export const planned = (q: CompiledQuery) => /^\s*(select|update|delete|insert)/i.test(q.sql);

/** One node of PostgreSQL's `EXPLAIN (FORMAT JSON)` plan tree (the fields read here). */
interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Index Cond"?: string;
  Filter?: string;
  Plans?: PlanNode[];
}

/**
 * The nodes of a plan that read a whole table or a whole index: SQLite's `SCAN` steps. With
 * sequential scans off, PostgreSQL reads a whole index instead where it can (an index or bitmap
 * index scan without an index condition): that counts too, except for
 * - a partial index (`partial`), which holds only the rows its predicate admits: the schema's
 *   partial indexes are the live rows (`uq_remediation_runs_active`: the active run), and the
 *   query's own condition is that predicate, so PostgreSQL shows none;
 * - an index read right under a Limit, filtering nothing, which stops after the limit's rows:
 *   `max(seq)` read from the end of its index (SQLite's min/max `SEARCH`).
 */
function scansIn(node: PlanNode, partial: ReadonlySet<string>, underLimit = false): string[] {
  const wholeIndex =
    /^(Index|Index Only|Bitmap Index) Scan$/.test(node["Node Type"]) &&
    !node["Index Cond"] &&
    !partial.has(node["Index Name"] ?? "") &&
    (!underLimit || !!node.Filter);
  const own =
    node["Node Type"] === "Seq Scan"
      ? [`Seq Scan on ${node["Relation Name"]}`]
      : wholeIndex
        ? [
            `${node["Node Type"]} on ${node["Relation Name"] ?? "its table"} using ${node["Index Name"]} (whole index)`,
          ]
        : [];
  return [
    ...own,
    ...(node.Plans ?? []).flatMap((child) => scansIn(child, partial, node["Node Type"] === "Limit")),
  ];
}

/**
 * Every step of the statements' plans that reads a whole table, as `step  ←  statement`: what
 * makes a query's cost grow with history rather than with live work.
 *
 * - SQLite: `EXPLAIN QUERY PLAN` on a read-only connection; a `SCAN` step (other than a constant
 *   row) reads every row of its table or index.
 * - PostgreSQL: `EXPLAIN (FORMAT JSON)` with `enable_seqscan = off` (for that transaction
 *   only): on a small test table the planner would rightly prefer a sequential scan, so the
 *   question asked is whether an index can serve the query at all. A sequential scan still chosen,
 *   or an index read without an index condition, means none can. Hash and merge joins are off
 *   too, for the same reason: on a few rows either may read a whole index of the joined table
 *   (a reaper's join once read all of `conversations` through `idx_conversations_project`, in CI
 *   only) where a nested loop looks each row up by its key; one still read whole means no index
 *   serves the join.
 */
export async function tableScans(
  env: { config: Config; db: Database },
  statements: CompiledQuery[],
): Promise<string[]> {
  const scans: string[] = [];
  if (env.config.database.dialect === "sqlite") {
    const raw = new SQLite(env.config.database.file, { readonly: true });
    try {
      for (const q of statements) {
        const plan = raw.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...(q.parameters as unknown[])) as Array<{
          detail: string;
        }>;
        for (const step of plan)
          if (/^SCAN /.test(step.detail) && !/CONSTANT ROW/.test(step.detail))
            scans.push(`${step.detail}  ←  ${q.sql}`);
      }
    } finally {
      raw.close();
    }
    return scans;
  }
  const { rows: partialIndexes } = await sql<{ indexname: string }>`
    select indexname from pg_indexes where schemaname = current_schema() and indexdef like '% WHERE %'
  `.execute(env.db);
  const partial = new Set(partialIndexes.map((r) => r.indexname));
  await env.db.transaction().execute(async (trx) => {
    // Each ends with the transaction.
    await sql`set local enable_seqscan = off`.execute(trx);
    await sql`set local enable_hashjoin = off`.execute(trx);
    await sql`set local enable_mergejoin = off`.execute(trx);
    for (const q of statements) {
      const { rows } = await trx.executeQuery<{ "QUERY PLAN": Array<{ Plan: PlanNode }> }>(
        CompiledQuery.raw(`EXPLAIN (FORMAT JSON) ${q.sql}`, [...q.parameters]),
      );
      for (const step of rows[0]!["QUERY PLAN"].flatMap((p) => scansIn(p.Plan, partial)))
        scans.push(`${step}  ←  ${q.sql}`);
    }
  });
  return scans;
}
