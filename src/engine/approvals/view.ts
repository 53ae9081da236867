import type { Kysely } from "kysely";
import { mayAnswer } from "../projects/index.js";
import type { Actor } from "../projects/index.js";
import type { ApprovalStatus, ApprovalsTable, DB } from "../schema.js";

/** An approval as people and views see it. */
export interface ApprovalView {
  id: string;
  conversation_id: string;
  queue_id: string;
  /** The person at the root of the conversation (its card and DM are for them). */
  user_id: string | null;
  kind: ApprovalsTable["kind"];
  command: string | null;
  cwd: string | null;
  reason: string | null;
  diff: string | null;
  files: string[];
  status: ApprovalStatus;
  answered_by: string | null;
  answered_at: number | null;
  created_at: number;
  expires_at: number;
  project_name: string;
}

/** Reads one approval with its project's name; undefined when none. */
export async function readApproval(db: Kysely<DB>, id: string): Promise<ApprovalView | undefined> {
  const r = await db
    .selectFrom("approvals as a")
    .innerJoin("conversations as c", "c.id", "a.conversation_id")
    .innerJoin("projects as p", "p.id", "c.project_id")
    .selectAll("a")
    .select("p.name as project_name")
    .where("a.id", "=", id)
    .executeTakeFirst();
  if (!r) return undefined;
  return {
    id: r.id,
    conversation_id: r.conversation_id,
    queue_id: r.queue_id,
    user_id: r.user_id,
    kind: r.kind,
    command: r.command,
    cwd: r.cwd,
    reason: r.reason,
    diff: r.diff,
    files: parseFiles(r.files),
    status: r.status,
    answered_by: r.answered_by,
    answered_at: r.answered_at,
    created_at: r.created_at,
    expires_at: r.expires_at,
    project_name: r.project_name,
  };
}

function parseFiles(json: string): string[] {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

/**
 * The pending approvals `actor` may answer (the one answer rule: the conversation's person, the
 * project's owner, admins), newest first: what `/codex decisions` and App Home list beside decisions.
 */
export async function pendingApprovalsFor(db: Kysely<DB>, actor: Actor): Promise<ApprovalView[]> {
  const rows = await db
    .selectFrom("approvals")
    .select("id")
    .where("status", "=", "pending")
    .orderBy("created_at", "desc")
    .limit(200)
    .execute();
  const shown: ApprovalView[] = [];
  for (const { id } of rows) {
    const a = await readApproval(db, id);
    if (a && (await mayAnswer(db, actor, "approval", a.conversation_id, a.user_id))) shown.push(a);
  }
  return shown;
}
