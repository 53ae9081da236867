import type { Kernel } from "../kernel.js";
import { writeTransaction } from "../database.js";
import { emit } from "../outbox.js";
import { lockConversation } from "../conversations/index.js";
import type { CodexState } from "../codex/index.js";
import { serializeProgress } from "../conversations/index.js";
import { trailingThrottle } from "../system/index.js";

const PROGRESS_WRITE_MS = 1_000;
// A long command emits no event: the status's elapsed time is refreshed this often meanwhile.
const PROGRESS_HEARTBEAT_MS = 30_000;

/** The database side of a running turn: its progress and its Codex thread, written in order. */
export interface ProgressWrites {
  /** The runner's `onState`. */
  onState(state: CodexState): void;
  /** Stops the heartbeat, writes the newest progress at once and waits for every write. */
  close(): Promise<void>;
}

/**
 * Progress is written in order, at most once a second, off the stream's hot path; the newest
 * activity waits for the end of the window rather than being dropped (each write announces
 * itself: the notifier coalesces the edits under Slack's limits). A new Codex thread id is kept on
 * the conversation, in the same queue of writes.
 */
export function progressWrites(
  engine: Pick<Kernel, "db" | "clock">,
  log: { warn(obj: object, msg: string): void },
  queueId: string,
  conversation: { id: string; codex_thread_id: string | null },
): ProgressWrites {
  const { db, clock } = engine;
  let writes: Promise<unknown> = Promise.resolve();
  let knownThread = conversation.codex_thread_id;
  let lastProgress: string | null = null;
  const progress = trailingThrottle<string>(
    PROGRESS_WRITE_MS,
    (activity) => {
      const now = clock.now();
      writes = writes
        .then(() => writeActivity(engine, { queueId, conversationId: conversation.id, activity, now }))
        .catch((err) => log.warn({ err }, "progress write failed"));
    },
    () => clock.now(),
  );
  const heartbeat = setInterval(() => lastProgress && progress.push(lastProgress), PROGRESS_HEARTBEAT_MS);
  return {
    onState(state) {
      const now = clock.now();
      if (state.threadId && state.threadId !== knownThread) {
        knownThread = state.threadId;
        const threadId = state.threadId;
        writes = writes.then(() =>
          db
            .updateTable("conversations")
            .set({ codex_thread_id: threadId, updated_at: now })
            .where("id", "=", conversation.id)
            .execute(),
        );
      }
      if (!state.progress) return;
      const activity = serializeProgress(state.progress);
      if (activity === lastProgress) return;
      lastProgress = activity;
      progress.push(activity);
    },
    async close() {
      clearInterval(heartbeat);
      progress.flush();
      await writes;
    },
  };
}

/** One progress write: the item's last activity, and its event (only while the item still runs). */
function writeActivity(
  engine: Pick<Kernel, "db">,
  p: { queueId: string; conversationId: string; activity: string; now: number },
) {
  return writeTransaction(
    engine.db,
    async (trx) => {
      const updated = await trx
        .updateTable("prompt_queue")
        .set({ last_activity: p.activity, last_activity_at: p.now })
        .where("id", "=", p.queueId)
        .where("status", "=", "running")
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) return;
      // The conversation's events leave in commit order (no global lock: item row, then conversation).
      await lockConversation(trx, p.conversationId);
      await emit(trx, p.now, {
        kind: "conversation.progress",
        conversationId: p.conversationId,
        queueId: p.queueId,
        activity: p.activity,
      });
    },
    { locks: [] },
  );
}
