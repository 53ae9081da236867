import type { Kysely, SelectQueryBuilder } from "kysely";
import type { DB } from "../schema.js";
import type { AuditEvent } from "./schema.js";

/** Which audit rows to read: a project's, a person's, since a time. */
export interface AuditFilter {
  project?: string | null;
  /** An actor as recorded (a Slack user id, `cli:<user>`, `schedule:<id>`, `agent:<id>`). */
  user?: string | null;
  since?: number | null;
}

/** One page of the audit, oldest first, and how many rows match in all. */
export interface AuditPage {
  events: AuditEvent[];
  total: number;
  page: number;
  pages: number;
}

function filtered<O>(q: SelectQueryBuilder<DB, "audit_events", O>, f: AuditFilter) {
  let out = q;
  if (f.project) out = out.where("project", "=", f.project);
  if (f.user) out = out.where("actor", "=", f.user);
  if (f.since !== undefined && f.since !== null) out = out.where("at", ">=", f.since);
  return out;
}

const numbered = (e: AuditEvent): AuditEvent => ({ ...e, id: Number(e.id), at: Number(e.at) });

/** The `page`-th page (1-based) of `size` rows, in the order they happened. */
export async function auditPage(
  db: Kysely<DB>,
  f: AuditFilter,
  page: number,
  size: number,
): Promise<AuditPage> {
  const counted = await filtered(
    db.selectFrom("audit_events").select((eb) => eb.fn.countAll().as("n")),
    f,
  ).executeTakeFirstOrThrow();
  const total = Number(counted.n);
  const pages = Math.max(1, Math.ceil(total / size));
  const current = Math.min(Math.max(1, page), pages);
  const rows = await filtered(db.selectFrom("audit_events").selectAll(), f)
    .orderBy("at")
    .orderBy("id")
    .limit(size)
    .offset((current - 1) * size)
    .execute();
  return { events: rows.map(numbered), total, page: current, pages };
}

/** Every matching row, oldest first, read in chunks (an export of a long history stays small in memory). */
export async function* auditRows(db: Kysely<DB>, f: AuditFilter, chunk = 500): AsyncGenerator<AuditEvent> {
  let afterId = 0;
  for (;;) {
    const rows = await filtered(db.selectFrom("audit_events").selectAll(), f)
      .where("id", ">", afterId)
      .orderBy("id")
      .limit(chunk)
      .execute();
    for (const r of rows) yield numbered(r);
    if (rows.length < chunk) return;
    afterId = Number(rows[rows.length - 1]?.id);
  }
}

/** Forgets the rows older than `before`; answers how many. */
export async function sweepAudit(db: Kysely<DB>, before: number): Promise<number> {
  const r = await db.deleteFrom("audit_events").where("at", "<", before).executeTakeFirst();
  return Number(r.numDeletedRows);
}
