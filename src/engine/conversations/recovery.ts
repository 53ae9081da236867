import path from "node:path";
import type { Config } from "../../config.js";
import type { Database } from "../database.js";
import { readRegularFile, regularFilesUnder } from "../isolation/index.js";
import { operatorCodexHome, projectCodexState } from "../isolation/index.js";
import { readKeptOutcome } from "./keptOutcome.js";
import type { Outcome } from "./outcome.js";

/** What the reaper knows of a running item whose worker is gone. */
export interface LostItem {
  id: string;
  attempt: number;
}

/**
 * The outcome a dead worker did not write, when it can be proved: the outcome it kept beside its
 * log, else the completed turn in Codex's own session record. Null when the turn did not finish
 * (the item is then interrupted, as before).
 */
export async function recoverOutcome(config: Config, db: Database, item: LostItem): Promise<Outcome | null> {
  const kept = readKeptOutcome(config, item.id, item.attempt);
  if (kept) return kept;
  const row = await db
    .selectFrom("prompt_queue")
    .innerJoin("conversations", "conversations.id", "prompt_queue.conversation_id")
    .select([
      "conversations.project_id",
      "conversations.codex_thread_id",
      "prompt_queue.codex_started_at",
      "prompt_queue.claimed_at",
    ])
    .where("prompt_queue.id", "=", item.id)
    .executeTakeFirst();
  const since = row?.codex_started_at ?? row?.claimed_at;
  if (!row?.codex_thread_id || !since) return null;
  // Jailed agents keep their sessions in the project's Codex state; unjailed ones in the operator's.
  const home =
    config.jail === "off"
      ? operatorCodexHome(config.codexHome)
      : projectCodexState(config.dataDir, row.project_id);
  // The project's agents write its Codex state: from the directory above it, no link is followed.
  const root = path.dirname(home);
  const file = findRollout(root, path.join(path.basename(home), "sessions"), row.codex_thread_id);
  const rollout = file ? readRegularFile(root, file) : null;
  const answer = rollout ? completedTurnAnswer(rollout.toString("utf8"), since) : null;
  return answer === null ? null : { status: "done", content: answer, error: null, errorCode: null };
}

/** The rollout file of a Codex thread (`sessions/YYYY/MM/DD/rollout-…-<thread id>.jsonl`), relative to `root`. */
function findRollout(root: string, sessions: string, threadId: string): string | null {
  return regularFilesUnder(root, sessions).find((f) => f.endsWith(`-${threadId}.jsonl`)) ?? null;
}

/**
 * The final answer of the last turn of a rollout, if that turn started (its user message) and
 * completed (`task_complete`) after `sinceMs`: an earlier turn's answer is never taken for this one.
 */
export function completedTurnAnswer(rollout: string, sinceMs: number): string | null {
  let answer: string | null = null;
  let lastMessage: string | null = null;
  // Codex also completes a turn its model failed (an error event, or task_complete's own `error`):
  // that turn is not an answer to record. With the model behind a gateway that dies with its
  // worker, Codex sees the connection drop as its jail is being killed, and may write both.
  let failed = false;
  for (const line of rollout.split("\n")) {
    if (!line.trim()) continue;
    let rec: { timestamp?: string; type?: string; payload?: Record<string, unknown> };
    try {
      rec = JSON.parse(line);
    } catch {
      continue; // a line cut by the crash
    }
    const p = rec.payload ?? {};
    const at = rec.timestamp ? Date.parse(rec.timestamp) : Number.NaN;
    if (rec.type === "event_msg" && p.type === "user_message") {
      answer = null; // a new turn: only what follows counts
      lastMessage = null;
      failed = false;
    } else if (rec.type === "event_msg" && (p.type === "error" || p.type === "stream_error")) {
      failed = true;
    } else if (rec.type === "event_msg" && p.type === "agent_message" && typeof p.message === "string") {
      lastMessage = p.message;
    } else if (
      rec.type === "event_msg" &&
      p.type === "task_complete" &&
      at >= sinceMs &&
      !failed &&
      !p.error
    ) {
      const last = p.last_agent_message;
      answer = typeof last === "string" ? last : (lastMessage ?? "");
    }
  }
  return answer;
}
