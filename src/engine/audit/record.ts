import os from "node:os";
import type { Kysely } from "kysely";
import { redactText } from "../../redaction.js";
import type { DB } from "../schema.js";
import type { AuditOutcome, AuditVia } from "./schema.js";
import "./schema.js";

const DETAIL_MAX = 400;
const REASON_MAX = 200;

/** What one audit row says; `at` comes from the caller's clock. */
export interface AuditEntry {
  actor: string;
  via: AuditVia;
  action: string;
  target: string;
  project?: string | null;
  outcome: AuditOutcome;
  reason?: string | null;
  detail?: string | null;
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * Appends one audit row (in the caller's transaction when given one: the change and its record
 * commit together). Detail and reason pass the redactor and are clipped: nothing secret is kept.
 * Other branches (budgets, the coordinator) call this for changes made outside the API wrapper.
 */
export async function recordAudit(db: Kysely<DB>, at: number, entry: AuditEntry): Promise<void> {
  await db
    .insertInto("audit_events")
    .values({
      at,
      actor: entry.actor,
      via: entry.via,
      action: entry.action,
      target: entry.target,
      project: entry.project ?? null,
      outcome: entry.outcome,
      reason: entry.reason ? clip(redactText(entry.reason), REASON_MAX) : null,
      detail: entry.detail ? clip(redactText(entry.detail), DETAIL_MAX) : null,
    })
    .execute();
}

/** The operator running the CLI (`cli:<os user>`), as the audit names them. */
function cliActorName(): string {
  let user = "unknown";
  try {
    user = os.userInfo().username;
  } catch {
    // No passwd entry (a container's uid): the name stays unknown.
  }
  return `cli:${user}`;
}

/**
 * How the audit names a person acting through a front end: the CLI's operator, or a Slack member
 * (through Slack, or through the forge when `via` says so: a linked account's request).
 */
export function auditActorOf(userId: string, via?: "forge"): { actor: string; via: AuditVia } {
  if (userId === "cli") return { actor: cliActorName(), via: "cli" };
  if (userId.startsWith("schedule:")) return { actor: userId, via: "schedule" };
  if (userId.startsWith("agent:")) return { actor: userId, via: "agent" };
  return { actor: userId, via: via ?? "slack" };
}

/**
 * Records what an agent did of its own (a decision it asks, a delegation, an approval it requests)
 * as `agent:<conversation>`, in the transaction that records the act, with its project's name.
 */
export async function recordAgentAudit(
  trx: Kysely<DB>,
  at: number,
  conversationId: string,
  entry: { action: string; target: string; detail?: string | null },
): Promise<void> {
  await recordAudit(trx, at, {
    actor: `agent:${conversationId}`,
    via: "agent",
    outcome: "ok",
    project: await projectNameOf(trx, conversationId),
    ...entry,
  });
}

/** The name of a conversation's project (null when the conversation is gone), as the audit names it. */
export async function projectNameOf(trx: Kysely<DB>, conversationId: string): Promise<string | null> {
  const project = await trx
    .selectFrom("conversations")
    .innerJoin("projects", "projects.id", "conversations.project_id")
    .select("projects.name")
    .where("conversations.id", "=", conversationId)
    .executeTakeFirst();
  return project?.name ?? null;
}
