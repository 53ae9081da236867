import type { Kernel } from "../kernel.js";
import { EngineError } from "../errors.js";
import { assertAdmin, type Actor } from "../projects/index.js";
import { auditPage, auditRows, type AuditEvent, type AuditFilter, type AuditPage } from "../audit/index.js";

/** What `/codex audit` and `codexpi audit` filter on; `since` is a date (2026-12-01) or an age (7d, 12h). */
export interface AuditQuery {
  project?: string | null;
  user?: string | null;
  since?: string | null;
}

/** The audit trail, for admins only. */
export interface AuditApi {
  /** One page (1-based) of the matching events, oldest first. */
  page(actor: Actor, query: AuditQuery, page: number, size?: number): Promise<AuditPage>;
  /** Every matching event, oldest first (the export). */
  rows(actor: Actor, query: AuditQuery): AsyncGenerator<AuditEvent>;
}

const DAY = 24 * 3600_000;

/** A `since` as epoch ms: `YYYY-MM-DD` (UTC midnight) or `<n>d` / `<n>h` before now. */
function sinceOf(text: string | null | undefined, now: number): number | null {
  if (!text) return null;
  const age = /^(\d{1,5})([dh])$/.exec(text.trim());
  if (age) return now - Number(age[1]) * (age[2] === "d" ? DAY : 3600_000);
  if (/^\d{4}-\d{2}-\d{2}$/.test(text.trim())) {
    const at = Date.parse(`${text.trim()}T00:00:00Z`);
    if (Number.isFinite(at)) return at;
  }
  throw new EngineError("invalid", "audit_since_invalid", { since: text });
}

function filterOf(kernel: Kernel, actor: Actor, q: AuditQuery): AuditFilter {
  assertAdmin(actor);
  return { project: q.project ?? null, user: q.user ?? null, since: sinceOf(q.since, kernel.clock.now()) };
}

export function auditApi(kernel: Kernel): AuditApi {
  return {
    page: async (actor, query, page, size = 20) =>
      auditPage(kernel.db, filterOf(kernel, actor, query), page, size),
    rows: (actor, query) => auditRows(kernel.db, filterOf(kernel, actor, query)),
  };
}
