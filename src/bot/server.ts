import {
  type Database,
  Engine,
  type EngineOptions,
  type Ticker,
  type Wakeups,
  closeWakeups,
  createEngineApi,
  dialectOf,
  openWritable,
  pruneClones,
  pruneStaleFiles,
  startTicker,
  wakeupsOf,
  warmSpawner,
  systemClock,
} from "../engine/api/runtime.js";
import { scheduledInSlack } from "./askedIn.js";
import type { Logger } from "pino";
import { requireSlack, type Config } from "../config.js";
import { HandledEvents } from "./store/events.js";
import { startSlackApp, type SlackApp } from "./app.js";
import { channelMemberSeam } from "./channelMembers.js";
import type { IntakeTiming } from "./intake/intake.js";
import { Health, startHealthServer } from "./health.js";
import { metricsListenerAccess, metricsUrlOf, publicAccess } from "./healthAccess.js";
import { Notifier } from "./notifier/notifier.js";
import { Counter } from "../metrics/index.js";
import { configuredSecrets, registerSecrets } from "../redaction.js";
import { runShutdown, type ShutdownStep } from "./shutdown.js";
import { createForgeFrontEnd, type ForgeFrontEnd, pruneForge } from "../forge/index.js";
import { forgeSlackSide } from "./forgeSlack.js";

const HOUSEKEEPING_MS = 3600_000;
const EVENT_MEMORY_MS = 24 * 3600_000; // Slack retries within minutes; a day is plenty
const OUTBOX_MEMORY_MS = 7 * 24 * 3600_000;
/** The notifier's safety-net poll on PostgreSQL, where NOTIFY wakes it (250 ms on SQLite). */
const POSTGRES_OUTBOX_POLL_MS = 2_000;

/**
 * Forgets what no longer matters: handled event ids, delivered outbox rows after a week, and
 * agents' clones nobody needs any more (see `pruneClones`), files staged or handed back a week ago
 * and never taken, here or in the database (docs/files.md).
 */
export async function prune(engine: Engine): Promise<void> {
  const now = engine.clock.now();
  await new HandledEvents(engine.db).forget(now - EVENT_MEMORY_MS);
  const api = createEngineApi(engine);
  await api.events.pruneDelivered(now - OUTBOX_MEMORY_MS);
  await api.files.pruneTransfers(now - OUTBOX_MEMORY_MS);
  await pruneClones(engine);
  await pruneForge(engine.db, now);
  pruneStaleFiles(engine.config.dataDir, now - OUTBOX_MEMORY_MS);
}

/**
 * Everything `codexpi serve` runs, started; stop() ends it all (running agents keep working), each
 * step bounded, and resolves false when a step failed or hung.
 */
export interface RunningBot {
  engine: Engine;
  slack: SlackApp | null;
  notifier: Notifier | null;
  /** The forge front end (webhooks on Slack's HTTP listener), null when headless. */
  forge: ForgeFrontEnd | null;
  health: Health;
  /** Slack's HTTP port (HTTP mode) or the health listener's: liveness for anyone, detail with the token. */
  healthPort: number | null;
  /** The metrics listener's port (CODEXPI_METRICS_PORT), null when it is off. */
  metricsPort: number | null;
  stop(): Promise<boolean>;
}

/**
 * The bot's engine, with its seams into Slack when the bot speaks to Slack: a schedule's
 * conversations live in its channel, and each firing asks whether its creator is still there.
 */
function slackEngine(
  config: Config,
  db: Database,
  logger: Logger,
  spawner: NonNullable<EngineOptions["spawner"]>,
  overrides: Partial<EngineOptions>,
): Engine {
  const scheduledIn = config.slack.botToken ? scheduledInSlack(overrides.clock ?? systemClock) : undefined;
  const members = config.slack.botToken ? channelMemberSeam(config, logger) : null;
  const engine = new Engine({
    config,
    db,
    logger,
    spawner,
    scheduledIn,
    channelMember: members?.seam,
    ...overrides,
  });
  members?.bind(createEngineApi(engine), engine.clock);
  return engine;
}

/**
 * Starts the bot: migrations, the engine with a standby worker, the Slack app and its notifier,
 * the health endpoint and the ticker. Headless (asked for: the CLI-only set-up) it runs without
 * Slack (engine, ticker and health only); otherwise Slack's settings are required.
 */
export async function startBot(
  config: Config,
  logger: Logger,
  overrides: Partial<EngineOptions> = {},
  slackOptions: { intake?: { timing?: Partial<IntakeTiming> }; headless?: boolean } = {},
): Promise<RunningBot> {
  const headless = slackOptions.headless === true;
  if (!headless) requireSlack(config); // before anything starts: a bad config changes nothing
  // Before anything is logged or posted: the bot's own tokens are redacted wherever they appear.
  registerSecrets(configuredSecrets(config));
  // A database that cannot be opened, migrated or written stops the start with its path and the fix;
  // yielding: nothing in the bot may freeze its event loop (and its acks) behind another process's
  // write lock.
  const db = await openWritable(config.database, { busy: "yield", locale: config.locale });
  const spawner = overrides.spawner ?? warmSpawner(config, logger);
  const engine = slackEngine(config, db, logger, spawner, overrides);
  // On PostgreSQL, changes made by other processes wake this one (LISTEN/NOTIFY); on SQLite the
  // wake-ups stay in this process and the polls do the rest, as before.
  const onPostgres = dialectOf(db) === "postgres";
  const wakeups = wakeupsOf(db);
  const offDispatch = onPostgres ? engine.dispatchOnWake(wakeups) : () => undefined;
  const health = new Health(engine);
  registerNotifierFailures(health, () => notifier);
  let slack: SlackApp | null = null;
  let notifier: Notifier | null = null;
  let forge: ForgeFrontEnd | null = null;
  let healthPort: number | null = null;
  let healthServer: { close(cb: () => void): void } | null = null;
  let metricsServer: { close(cb: () => void): void } | null = null;
  let metricsPort: number | null = null;
  let ticker: Ticker | null = null;
  let housekeeping: NodeJS.Timeout | null = null;
  try {
    // One tick before Slack starts: this process takes the lease at once if it is free.
    await engine.tick().catch((err) => logger.error({ err }, "first tick failed"));
    // First, so that the other listeners' refusals can say where /metrics is.
    const metrics = await startMetricsListener(config, health);
    metricsServer = metrics?.server ?? null;
    metricsPort = metrics?.port ?? null;
    const healthAccess = publicAccess(config, metrics?.url ?? null);
    if (!headless) {
      forge = forgeFrontEnd(config, engine, logger);
      slack = await startSlackApp({
        config,
        engine,
        logger,
        locale: config.locale,
        health,
        healthAccess,
        intake: { file: config.intakeFile, ...slackOptions.intake },
        forge,
      });
      forge.start(forgeSlackSide(slack.client, engine.clock, engine.db));
      healthPort = slack.healthPort;
      notifier = startNotifier(config, engine, slack, logger, { wakeups, onPostgres });
    } else {
      logger.info("headless: running without Slack (CLI, dispatcher, ticker and health only)");
      const h = await startHealthServer(health, healthAccess, config.health.host, config.health.port);
      healthServer = h.server;
      healthPort = h.port;
    }
    ticker = startTicker(engine, config.tick, logger);
    housekeeping = startHousekeeping(engine, logger);
  } catch (err) {
    await forge?.stop().catch(() => undefined);
    await slack?.stop().catch(() => undefined);
    for (const server of [metricsServer, healthServer]) await closeServer(server);
    await closeSpawner(spawner);
    offDispatch();
    await closeWakeups(db).catch(() => undefined);
    await db.destroy().catch(() => undefined);
    throw err;
  }
  logger.info(
    { owner: engine.owner, tick: config.tick, database: config.databasePath, healthPort, metricsPort },
    "codexpi serving",
  );
  const parts = { db, spawner, offDispatch, slack, notifier, forge, ticker, healthServer, metricsServer };
  return {
    engine,
    slack,
    notifier,
    forge,
    health,
    healthPort,
    metricsPort,
    async stop() {
      if (housekeeping) clearInterval(housekeeping);
      return runShutdown(shutdownSteps(parts), logger);
    },
  };
}

/**
 * The metrics listener (CODEXPI_METRICS_HOST:CODEXPI_METRICS_PORT, loopback by default): /metrics
 * and the detailed /healthz, without credentials when no token is configured. Null when off.
 */
async function startMetricsListener(config: Config, health: Health) {
  const { host, port } = config.metrics;
  if (port === null) return null;
  const listening = await startHealthServer(health, metricsListenerAccess(config), host, port);
  return { ...listening, url: metricsUrlOf(host, listening.port) };
}

function closeServer(server: { close(cb: () => void): void } | null): Promise<void> {
  return new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
}

/** The notifier's permanent failures by Slack error code, as a counter (none before it exists). */
function registerNotifierFailures(health: Health, notifier: () => Notifier | null): void {
  new Counter<"code">({
    name: "codexpi_notifier_failures_total",
    help: "Events the notifier gave up delivering, by Slack error code",
    labelNames: ["code"],
    registers: [health.registry],
    collect() {
      this.reset();
      for (const [code, n] of notifier()?.failures ?? []) (this as Counter<"code">).inc({ code }, n);
    },
  });
}

function startNotifier(
  config: Config,
  engine: Engine,
  slack: SlackApp,
  logger: Logger,
  { wakeups, onPostgres }: { wakeups: Wakeups; onPostgres: boolean },
): Notifier {
  const notifier = new Notifier({
    api: createEngineApi(engine),
    db: engine.db,
    client: slack.client,
    clock: engine.clock,
    logger: logger.child({ component: "notifier" }),
    locale: config.locale,
    acks: slack.acks,
    isCoordinator: () => engine.holdsLease(),
    wakeups,
    // Woken by NOTIFY on PostgreSQL, the poll is only the net there.
    pollMs: onPostgres ? POSTGRES_OUTBOX_POLL_MS : undefined,
    files: { dataDir: config.dataDir, limits: config.files },
    decisionReminders: config.decisionReminders,
    progress: {
      streaming: config.progress.streaming,
      interimMs: config.progress.interimMs,
      doneDmAfterMs: config.progress.doneDmAfterMs,
      teamId: config.slack.teamId,
    },
  });
  notifier.start();
  return notifier;
}

/** The forge front end (issue 33): its deliveries are handled by the coordinator only. */
function forgeFrontEnd(config: Config, engine: Engine, logger: Logger): ForgeFrontEnd {
  return createForgeFrontEnd({
    api: createEngineApi(engine),
    db: engine.db,
    clock: engine.clock,
    logger,
    locale: config.locale,
    admins: config.admins,
    isCoordinator: () => engine.holdsLease(),
    pollMs: config.forgePollMs,
  });
}

function startHousekeeping(engine: Engine, logger: Logger): NodeJS.Timeout {
  const housekeeping = setInterval(
    () => void prune(engine).catch((err) => logger.warn({ err }, "housekeeping failed")),
    HOUSEKEEPING_MS,
  );
  // Housekeeping alone must not keep the process alive.
  housekeeping.unref();
  return housekeeping;
}

/** Ends a warm spawner's standby and waits for it to leave (other spawners have nothing to end). */
async function closeSpawner(spawner: object): Promise<void> {
  if ("close" in spawner && typeof spawner.close === "function") await spawner.close();
}

/** What stop() ends, in its order: first what posts or accepts work, the database last. */
function shutdownSteps(parts: {
  db: Database;
  spawner: object;
  offDispatch: () => void;
  slack: SlackApp | null;
  notifier: Notifier | null;
  forge: ForgeFrontEnd | null;
  ticker: Ticker | null;
  healthServer: { close(cb: () => void): void } | null;
  metricsServer: { close(cb: () => void): void } | null;
}): ShutdownStep[] {
  const { db, spawner, offDispatch, slack, notifier, forge, ticker, healthServer, metricsServer } = parts;
  return [
    { name: "forge", run: () => forge?.stop() },
    { name: "notifier", run: () => notifier?.stop() },
    { name: "slack", run: () => slack?.stop() },
    { name: "ticker", run: () => ticker?.stop() },
    { name: "health server", run: () => closeServer(healthServer) },
    { name: "metrics server", run: () => closeServer(metricsServer) },
    { name: "standby worker", run: () => closeSpawner(spawner) },
    {
      name: "wake-ups",
      run: () => {
        offDispatch();
        return closeWakeups(db);
      },
    },
    { name: "database", run: () => db.destroy() },
  ];
}
