import type { Tx } from "../database.js";

/** Where a run was started from and whose it is. */
export interface RunOrigin {
  runId: string;
  ownerId: string;
  /** The Slack channel it was started from; null when it was not started from Slack. */
  channelId: string | null;
}

/** Of these runs, those started from Slack, with their origin. */
export async function runsFromSlack(db: Tx, ids: string[]): Promise<Map<string, RunOrigin>> {
  if (!ids.length) return new Map();
  const rows = await db
    .selectFrom("remediation_runs")
    .select(["id", "owner_id", "slack_channel_id"])
    .where("id", "in", ids)
    .where("slack_channel_id", "is not", null)
    .execute();
  return new Map(
    rows.map((r) => [r.id, { runId: r.id, ownerId: r.owner_id, channelId: r.slack_channel_id }]),
  );
}

/** One run's origin; null when it does not exist. */
export async function runOrigin(db: Tx, runId: string): Promise<RunOrigin | null> {
  const r = await db
    .selectFrom("remediation_runs")
    .select(["id", "owner_id", "slack_channel_id"])
    .where("id", "=", runId)
    .executeTakeFirst();
  return r ? { runId: r.id, ownerId: r.owner_id, channelId: r.slack_channel_id } : null;
}
