import type { Kernel } from "../kernel.js";
import type { RunningTurn } from "./appServer/appServerRunner.js";
import { markSteerable, markSteered, steerableFollowUps } from "../conversations/index.js";
import { promptWithContext, readStoredContext, withWriter } from "../threadContext/index.js";

/** How often the worker looks for follow-ups to send into its running turn. */
const STEER_POLL_MS = 500;

/** Options of a steer loop (the poll interval is a seam for tests). */
interface SteerLoopOptions {
  pollMs?: number;
}

/** The worker's side of steering: started with the turn, stopped once it is over. */
export interface SteerLoop {
  /** The runner's `onTurnStarted`: from now on, follow-ups go into this turn. */
  onTurnStarted(turn: RunningTurn): void;
  /** Stops looking (the turn is over), lets a steer in flight be recorded, clears the mark. */
  stop(): Promise<void>;
}

/**
 * Sends the conversation's steerable follow-ups into the running turn, one poll at a time (never
 * two at once). The call comes before the mark: a follow-up is marked `steered` only once Codex
 * took it, so one the turn refused (it ended meanwhile) stays queued and runs as the next turn;
 * the mark is a guarded move out of `queued`, so nothing is steered twice.
 */
export function steerLoop(
  engine: Pick<Kernel, "db" | "clock" | "logger" | "config">,
  item: { id: string; attempt: number; conversationId: string },
  opts: SteerLoopOptions = {},
): SteerLoop {
  const log = engine.logger.child({ queueId: item.id, attempt: item.attempt });
  let turn: RunningTurn | null = null;
  let timer: NodeJS.Timeout | null = null;
  let started: Promise<void> = Promise.resolve();
  let inFlight: Promise<void> = Promise.resolve();
  let busy = false;
  let stopped = false;
  // Follow-ups this turn took: never sent again, even while their mark waits for the database.
  const sent = new Set<string>();

  const mark = async (id: string) => {
    const marked = await markSteered(
      engine.db,
      engine.clock,
      { id, conversationId: item.conversationId },
      item.id,
    );
    log.info({ followUp: id, marked }, "follow-up sent into the running turn");
  };

  const poll = async () => {
    if (!turn) return;
    const running = turn;
    for (const followUp of await steerableFollowUps(engine.db, item)) {
      if (sent.has(followUp.id)) {
        await mark(followUp.id); // taken earlier, its mark failed: only the mark is retried
        continue;
      }
      if (stopped) return;
      try {
        // As a turn's own prompt: its Slack context quoted before it (engine/threadContext).
        const context = readStoredContext(followUp.thread_context);
        const writer = { name: followUp.writer_name, isAuthor: followUp.requested_by === followUp.author };
        const prompt = withWriter(followUp.content, writer, engine.config.locale);
        await running.steer(promptWithContext(prompt, context, followUp.id, engine.config.locale));
      } catch (err) {
        log.info({ err, followUp: followUp.id }, "the turn did not take the follow-up: it stays queued");
        return;
      }
      sent.add(followUp.id);
      await mark(followUp.id);
    }
  };

  const tick = () => {
    if (busy) return;
    busy = true;
    inFlight = poll()
      .catch((err) => log.warn({ err }, "steer poll failed"))
      .finally(() => {
        busy = false;
      });
  };

  return {
    onTurnStarted(t) {
      if (stopped) return;
      turn = t;
      started = markSteerable(engine.db, item, t.turnId)
        .then(() => tick())
        .catch((err) => log.warn({ err }, "could not mark the turn steerable"));
      timer = setInterval(tick, opts.pollMs ?? STEER_POLL_MS);
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await started;
      while (busy) await inFlight;
      // A follow-up the turn took whose mark still failed: one last try before the turn's end.
      for (const id of sent)
        await mark(id).catch((err) => log.error({ err, followUp: id }, "steer mark lost"));
      if (turn)
        await markSteerable(engine.db, item, null).catch((err) => log.warn({ err }, "steer mark kept"));
    },
  };
}
