// The public face of engine/audit: the one append-only trail of changes made through codexpi.
import type { Kernel } from "../kernel.js";
import { sweepAudit } from "./query.js";

export { auditActorOf, projectNameOf, recordAgentAudit, recordAudit } from "./record.js";
export { type AuditFilter, type AuditPage, auditPage, auditRows } from "./query.js";
export type { AuditEvent } from "./schema.js";
export { refusalOf } from "./refusal.js";

/** The retention sweep (a tick step): rows older than CODEXPI_AUDIT_RETENTION_DAYS are forgotten. */
export function registerAuditTicks(engine: Kernel): void {
  engine.onTick("audit", async (e) => {
    const swept = await sweepAudit(e.db, e.clock.now() - e.config.auditRetentionMs);
    return swept ? { audit_swept: swept } : undefined;
  });
}
