import { CLI_ACTOR } from "../engine/api/model.js";
import { t } from "../i18n/index.js";
import { args, cliEngine, out } from "./context.js";

/** How long `stop` waits for a signalled worker to record its item as cancelled. */
const SETTLE_MS = 30_000;

/** `codexpi stop <conversation>`: stops its running agent and cancels its queued prompts. */
export async function run(argv: string[]): Promise<number> {
  const { positionals } = args(argv, {}, 1);
  const { db, api, config } = await cliEngine();
  try {
    const id = positionals[0] as string;
    const running = await api.conversations.runningItems(CLI_ACTOR, id);
    const report = await api.conversations.stop(CLI_ACTOR, id);
    // The worker writes `cancelled` once Codex is gone: returning before that would let the
    // operator believe the agent is still at work (or already gone when it is not).
    for (const queueId of running) await api.conversations.waitForItem(queueId, SETTLE_MS);
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
