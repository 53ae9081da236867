import { stop } from "../engine/conversations/conversationService.js";
import { CLI_ACTOR } from "../engine/projects/projects.js";
import { waitForItem } from "../engine/conversations/waitFor.js";
import { t } from "../i18n/index.js";
import { args, cliEngine, out } from "./context.js";

/** How long `stop` waits for a signalled worker to record its item as cancelled. */
const SETTLE_MS = 30_000;

/** `codexpi stop <conversation>`: stops its running agent and cancels its queued prompts. */
export async function run(argv: string[]): Promise<number> {
  const { positionals } = args(argv, {}, 1);
  const { db, engine, config } = await cliEngine();
  try {
    const id = positionals[0] as string;
    const running = await db
      .selectFrom("prompt_queue")
      .select("id")
      .where("conversation_id", "=", id)
      .where("status", "=", "running")
      .execute();
    const report = await stop(engine, CLI_ACTOR, id);
    // The worker writes `cancelled` once Codex is gone: returning before that would let the
    // operator believe the agent is still at work (or already gone when it is not).
    for (const r of running) await waitForItem(db, r.id, SETTLE_MS);
    const none = report.stoppingRunning === 0 && report.cancelledQueued === 0;
    out(
      none
        ? t(config.locale, "cli.stop.nothing", { id })
        : t(config.locale, "cli.stop.done", {
            id,
            running: report.stoppingRunning,
            queued: report.cancelledQueued,
          }),
    );
    return 0;
  } finally {
    await db.destroy();
  }
}
