import type { Generated, Selectable } from "kysely";

// Row type of db/migrations/0028_audit_events. Times are epoch milliseconds.

/** Where a change came from. */
export type AuditVia = "slack" | "cli" | "schedule" | "agent" | "forge";

/** What became of it: done, refused (rights, policy, budget, validation) or failed. */
export type AuditOutcome = "ok" | "refused" | "failed";

/** One change a person or an agent made through codexpi, appended once. */
export interface AuditEventsTable {
  id: Generated<number>;
  at: number;
  /** A Slack user id, `agent:<conversation>`, `schedule:<id>` or `cli:<os user>`. */
  actor: string;
  via: AuditVia;
  /** `<aggregate>.<verb>`: `conversation.ask`, `lane.merge`, `schedule.add`, … */
  action: string;
  /** `project:<name>`, `conversation:<id>`, `schedule:<id>`, … */
  target: string;
  /** The project's name, when the change concerns one (what `/codex audit <project>` filters on). */
  project: string | null;
  outcome: AuditOutcome;
  /** Why it was refused or failed (an error's reason code, or a short redacted text). */
  reason: string | null;
  /** Redacted, clipped detail (a prompt's first words, the options changed). */
  detail: string | null;
}

/** An audit row as read. */
export type AuditEvent = Selectable<AuditEventsTable>;

// The engine's schema (src/engine/schema.ts) is shared; this aggregate adds its table to it.
declare module "../schema.js" {
  interface DB {
    audit_events: AuditEventsTable;
  }
}
