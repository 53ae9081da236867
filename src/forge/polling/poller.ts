import type { ForgeDeps } from "../deps.js";
import { DEFAULT_HANDLE } from "../store/threads.js";
import type { ForgePolling, PolledProject } from "../store/polling.js";
import { deliveryOf } from "./payloads.js";

// Polling mode (issue 33, item 1): for installs whose forge cannot reach them (Socket Mode, no
// public URL), the coordinator reads each polled project's new comments from the forge's API
// every period, and journals each as a delivery — the webhooks' journal, under an id of its own
// (`poll:…`) — so that everything after (links, rights, budgets, replies, retries, dedupe) is the
// webhooks' code. A listing's cursor is saved only once what it gave is journaled: a crash reads
// it again (the journal keeps one row per id), and never skips a comment.

/** What the poller needs: the engine's forge API, the journal, a clock and a logger. */
export interface PollerOptions {
  deps: Pick<ForgeDeps, "api" | "deliveries" | "threads" | "clock" | "logger">;
  polling: ForgePolling;
  /** How often each polled project is read (CODEXPI_FORGE_POLL_SECONDS). */
  periodMs: number;
  /** Only the coordinator polls (another instance would journal the same comments for nothing). */
  isCoordinator(): boolean | Promise<boolean>;
  /** Called once new deliveries are journaled (the delivery pass takes them at once). */
  journaled(): void;
}

export interface Poller {
  start(): void;
  /** Resolves once the current pass (if any) is over. */
  settled(): Promise<void>;
  stop(): Promise<void>;
}

export function createPoller(o: PollerOptions): Poller {
  const { api, deliveries, threads, clock, logger } = o.deps;
  /** Projects whose forge's rate limit is spent, until when (epoch ms). */
  const limited = new Map<string, number>();
  let timer: NodeJS.Timeout | null = null;
  let pass: Promise<void> | null = null;
  let stopped = false;

  /** Whether polling is still on since the same start (turned off, or off and on, meanwhile: no). */
  const still = async (p: PolledProject) => (await o.polling.pollOf(p.project_id)).from === p.poll_from;

  const pollProject = async (p: PolledProject) => {
    // The project's label is its handle (labels.ts): the issues given it are asked for.
    const label = (await threads.settings(p.project_id)).handle ?? DEFAULT_HANDLE;
    const results = await api.forge.poll(
      p.project_id,
      await o.polling.cursors(p.project_id),
      p.poll_from,
      label,
    );
    // What a pass read for a polling since turned off (or restarted) is not kept.
    if (!(await still(p))) return;
    let fresh = 0;
    for (const r of results) {
      if (r.state === "limited") {
        limited.set(p.project_id, r.until);
        logger.warn(
          { project: p.project_id, listing: r.listing, until: new Date(r.until).toISOString() },
          "forge rate limit reached: polling this project waits until then",
        );
        continue;
      }
      if (r.state === "unchanged") continue;
      const forge = r.listing.startsWith("gitlab:") ? "gitlab" : "github";
      for (const c of r.comments) {
        const d = deliveryOf(forge, c);
        const journaled = await deliveries.journal(
          {
            forge,
            delivery_id: d.deliveryId,
            event: d.event,
            project_id: p.project_id,
            body: JSON.stringify(d.payload),
          },
          clock.now(),
        );
        if (journaled) fresh += 1;
      }
      await o.polling.saveCursor(p.project_id, r.listing, r.cursor, clock.now());
    }
    if (fresh > 0) {
      logger.info({ project: p.project_id, fresh }, "forge comments polled");
      o.journaled();
    }
  };

  const runPass = async () => {
    if (!(await o.isCoordinator())) return;
    for (const p of await o.polling.polled()) {
      if (stopped) return;
      if ((limited.get(p.project_id) ?? 0) > clock.now()) continue;
      limited.delete(p.project_id);
      // One project's failure (its token refused, its forge down) never holds the others back.
      await pollProject(p).catch((err: unknown) =>
        logger.warn({ err, project: p.project_id }, "forge poll failed"),
      );
    }
  };

  const kick = () => {
    if (pass || stopped) return;
    pass = runPass()
      .catch((err: unknown) => logger.warn({ err }, "forge poll pass failed"))
      .finally(() => {
        pass = null;
      });
  };

  return {
    start() {
      stopped = false;
      timer = setInterval(kick, o.periodMs);
      timer.unref();
      kick();
    },
    async settled() {
      while (pass) await pass;
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      while (pass) await pass;
    },
  };
}
