import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import type { EngineApi } from "../engine/api/index.js";
import type { Clock, Database } from "../engine/api/runtime.js";
import type { Locale } from "../i18n/index.js";
import type { ForgeDeps } from "./deps.js";
import { handleOnce } from "./commentIdentity.js";
import { createPoller } from "./polling/poller.js";
import { forgeRequestListener } from "./receiver.js";
import { postFinishedAnswers } from "./replies.js";
import type { SlackSide } from "./slackSide.js";
import { ForgeCiTries } from "./store/ciTries.js";
import { ForgeDeliveries } from "./store/deliveries.js";
import { ForgeLinks } from "./store/links.js";
import { ForgePolling } from "./store/polling.js";
import { ForgeThreads } from "./store/threads.js";
import {
  type ChangedSettings,
  changeForgeSettings,
  type ForgeSettingsInput,
  forgeSettingsChanges,
} from "./settingsInput.js";
import type { Actor } from "../engine/api/model.js";

export { FORGE_PATHS } from "./receiver.js";
export type { SlackSide } from "./slackSide.js";
export { FORGE_SETTING_SYNTAX, ForgeSettingInvalid, forgeSettingsChanges } from "./settingsInput.js";

// The forge front end (issue 33): webhook receiver → journal → engine API, replies to the forge.
// Same rules as src/bot: the engine only through its API, its own tables only (src/forge/store).

const PASS_MS = 1_000;
const DEFAULT_POLL_MS = 60_000;
const LINK_CODE_TTL_MS = 3_600_000;
/** A delivery whose handling failed this many times is given up (marked failed, logged). */
const MAX_ATTEMPTS = 8;

/** Whether a delivery that failed `attempts` times is due again: 2, 4, 8 … s after it came (about 8 min in all). */
const due = (d: { attempts: number; received_at: number }, now: number) =>
  d.attempts === 0 || now >= d.received_at + 1_000 * 2 ** d.attempts;

/** How long a handled delivery's id is kept (GitHub and GitLab redeliver within days). */
const DELIVERY_MEMORY_MS = 30 * 24 * 3600_000;

/** Housekeeping: handled deliveries after a month, expired link codes. */
export async function pruneForge(db: Database, now: number): Promise<void> {
  await new ForgeDeliveries(db).forget(now - DELIVERY_MEMORY_MS);
  await new ForgeLinks(db).forgetCodes(now);
}

/** What the bot gives the forge front end. */
export interface ForgeOptions {
  api: EngineApi;
  db: Database;
  clock: Clock;
  logger: Logger;
  locale: Locale;
  admins: readonly string[];
  /** Only the coordinator handles deliveries and posts replies (another instance only journals). */
  isCoordinator(): boolean | Promise<boolean>;
  /** How often polled projects are read from their forge (CODEXPI_FORGE_POLL_SECONDS; default a minute). */
  pollMs?: number;
}

/** The running front end: its HTTP handler, started once Slack is up, stopped with the bot. */
export interface ForgeFrontEnd {
  listener(req: IncomingMessage, res: ServerResponse): void;
  /** A one-time code for `userId` to post on the forge, proving their account there (an hour). */
  linkCode(forge: "github" | "gitlab", userId: string): Promise<string>;
  /** Changes (none: reads) a project's settings as `actor` (admins), checked as `forge set` checks them. */
  changeSettings(actor: Actor, name: string, input: ForgeSettingsInput): Promise<ChangedSettings>;
  start(slack: SlackSide): void;
  /** Resolves once the current pass (if any) is over. */
  settled(): Promise<void>;
  stop(): Promise<void>;
}

/** A one-time link code: 12 lowercase letters and digits after the prefix the handler looks for. */
const newLinkCode = () =>
  `codexpi-link-${randomBytes(9)
    .toString("base64url")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "0")
    .slice(0, 12)}`;

/** Handles the journaled deliveries that are due; a failing one is tried again later, then given up. */
async function deliveryPass(
  deps: ForgeDeps,
  side: SlackSide,
  polledProject: (id: string) => Promise<boolean>,
): Promise<void> {
  for (const d of await deps.deliveries.pending()) {
    if (!due(d, deps.clock.now())) continue;
    try {
      const outcome = await handleOnce(deps, side, d, polledProject);
      await deps.deliveries.finish(d, "done", outcome, deps.clock.now());
      deps.logger.info({ forge: d.forge, delivery: d.delivery_id, outcome }, "forge delivery handled");
    } catch (err) {
      deps.logger.warn({ err, forge: d.forge, delivery: d.delivery_id }, "forge delivery failed");
      if (d.attempts + 1 >= MAX_ATTEMPTS)
        await deps.deliveries.finish(d, "failed", "error", deps.clock.now());
      else await deps.deliveries.attempted(d);
    }
  }
  await postFinishedAnswers(deps, side);
}

export function createForgeFrontEnd(opts: ForgeOptions): ForgeFrontEnd {
  const logger = opts.logger.child({ component: "forge" });
  const deps: ForgeDeps = {
    api: opts.api,
    deliveries: new ForgeDeliveries(opts.db),
    links: new ForgeLinks(opts.db),
    threads: new ForgeThreads(opts.db),
    ciTries: new ForgeCiTries(opts.db),
    clock: opts.clock,
    logger,
    locale: opts.locale,
    isAdmin: (userId) => opts.admins.includes(userId),
  };
  const polling = new ForgePolling(opts.db);
  const polledProject = async (id: string) => (await polling.pollOf(id)).poll === "on";
  let slack: SlackSide | null = null;
  let timer: NodeJS.Timeout | null = null;
  let pass: Promise<void> | null = null;
  let again = false;

  const runPass = (side: SlackSide) => deliveryPass(deps, side, polledProject);
  const kick = (): void => {
    if (!slack) return;
    if (pass) {
      again = true;
      return;
    }
    const side = slack;
    pass = (async () => {
      if (await opts.isCoordinator()) await runPass(side);
    })()
      .catch((err: unknown) => logger.warn({ err }, "forge pass failed"))
      .finally(() => {
        pass = null;
        if (again) {
          again = false;
          kick();
        }
      });
  };
  // Polling (projects with `--poll on`): what it reads is journaled like a webhook's delivery.
  const poller = createPoller({
    deps,
    polling,
    periodMs: opts.pollMs ?? DEFAULT_POLL_MS,
    isCoordinator: opts.isCoordinator,
    journaled: kick,
  });
  return {
    listener: forgeRequestListener({
      api: opts.api,
      deliveries: deps.deliveries,
      clock: opts.clock,
      logger,
      journaled: kick,
    }),
    async linkCode(forge, userId) {
      const code = newLinkCode();
      await deps.links.newCode(forge, userId, code, deps.clock.now() + LINK_CODE_TTL_MS);
      return code;
    },
    changeSettings: (actor, name, input) =>
      changeForgeSettings(opts.api, deps.threads, actor, name, forgeSettingsChanges(input), deps.clock.now()),
    start(side) {
      slack = side;
      timer = setInterval(kick, PASS_MS);
      timer.unref();
      kick();
      poller.start();
    },
    async settled() {
      await poller.settled();
      while (pass) await pass;
    },
    async stop() {
      if (timer) clearInterval(timer);
      await poller.stop();
      slack = null;
      while (pass) await pass;
    },
  };
}
