import type { IncomingMessage, Server, ServerResponse } from "node:http";
import path from "node:path";
import type { AddressInfo } from "node:net";
import {
  App,
  HTTPReceiver,
  LogLevel,
  type Receiver,
  SocketModeReceiver,
  type Logger as BoltLogger,
} from "@slack/bolt";
import { WebClient } from "@slack/web-api";
import type { Logger } from "pino";
import type { Config } from "../config.js";
import { createEngineApi, dialectOf, type Engine } from "../engine/api/runtime.js";
import type { Locale } from "../i18n/index.js";
import type { BotContext } from "./context.js";
import { AfterAck } from "./afterAck.js";
import { PendingAcks } from "./pendingAcks.js";
import { serveHealth, startHealthServer, type Health } from "./health.js";
import { type HealthAccess, publicAccess } from "./healthAccess.js";
import { registerActions } from "./listeners/actions.js";
import { registerLaneActions } from "./listeners/lanes.js";
import { registerMemoryActions } from "./listeners/memory.js";
import { registerCoordinationActions } from "./listeners/coordination.js";
import { registerApprovalActions } from "./listeners/approvals.js";
import { registerRunActions } from "./listeners/runs.js";
import { registerOrchestrationActions } from "./listeners/orchestrations.js";
import { registerCommands } from "./listeners/commands.js";
import { registerEvents } from "./listeners/events.js";
import { registerGuards, registerPersonLocale } from "./listeners/guards.js";
import { currentLocale, UserLocales } from "./userLocales.js";
import { type SlackCallMetrics, slackCallMetrics } from "./slackMetrics.js";
import { webClientOptions } from "./webClientOptions.js";

export { webClientOptions } from "./webClientOptions.js";
import { redactAcks } from "./receiver/ackRedaction.js";
import { ComposedReceiver } from "./receiver/composed.js";
import { CheckedHttpReceiver } from "./receiver/http.js";
import { InFlight } from "./receiver/inFlight.js";
import { SeenRequests } from "./receiver/signatureCheck.js";
import { slackStartupError } from "./startupErrors.js";
import { SlackAddresses } from "./store/addresses.js";
import { SlackChannelDefaults } from "./store/channelDefaults.js";
import { SlackThreadNotices } from "./store/threadNotices.js";
import { SlackPosts } from "./store/posts.js";
import { ChannelMembers } from "./channelMembers.js";
import { ChannelAccessCheck, DisplayNames, ThreadReader } from "./threadContext/index.js";
import { HandledEvents } from "./store/events.js";
import { Intake, type IntakeTiming } from "./intake/intake.js";
import { intakeCommitMetrics } from "./intake/commitMetrics.js";
import { IntakeStore } from "./intake/store.js";
import type { IntakeJournal } from "./store/intakeJournal.js";
import { SharedIntakeStore } from "./store/sharedIntake.js";
import { forgeRoutes } from "./forgeSlack.js";
import type { ForgeFrontEnd } from "../forge/index.js";

/** A started Slack app: its mode, the bound HTTP port (HTTP mode, or health in Socket Mode), and stop(). */
export interface SlackApp {
  app: App;
  mode: "socket" | "http";
  port: number | null;
  healthPort: number | null;
  botUserId: string;
  client: WebClient;
  /** The `/codex ask` acknowledgements that wait for their root (the notifier removes them). */
  acks: PendingAcks;
  /** Resolves once every request received so far has been processed, its work after ack included. */
  settled(): Promise<void>;
  stop(): Promise<void>;
}

/** Bolt's logger interface over pino. */
function boltLogger(logger: Logger): BoltLogger {
  const l = logger.child({ component: "bolt" });
  let level = LogLevel.INFO;
  return {
    debug: (...m: unknown[]) => l.debug(m.map(String).join(" ")),
    info: (...m: unknown[]) => l.info(m.map(String).join(" ")),
    warn: (...m: unknown[]) => l.warn(m.map(String).join(" ")),
    error: (...m: unknown[]) => l.error(m.map(String).join(" ")),
    setLevel: (v: LogLevel) => {
      level = v;
    },
    getLevel: () => level,
    setName: () => undefined,
  };
}

/** What startSlackApp is given: configuration, the engine, and the seams tests shorten. */
interface SlackAppOptions {
  config: Config;
  engine: Engine;
  logger: Logger;
  locale: Locale;
  health: Health;
  /** Who sees what of health on Slack's listener or Socket Mode's (default: the token only). */
  healthAccess?: HealthAccess;
  /** The intake database's file (default `<data dir>/intake.db`) and its waits (tests shorten them). */
  intake?: { file?: string; timing?: Partial<IntakeTiming> };
  /** The forge front end (src/forge): its webhook handler on Slack's listener (HTTP mode), its link codes. */
  forge?: Pick<ForgeFrontEnd, "listener" | "linkCode" | "changeSettings">;
}

/**
 * Builds and starts the Bolt app: Socket Mode when SLACK_APP_TOKEN is set (no public URL; health
 * on its own small server), HTTP otherwise (Bolt verifies signatures, receiver/signatureCheck.ts
 * refuses replays and future timestamps first; health as custom routes). The app's one receiver
 * (receiver/composed.ts) puts in front of every request, in this order: that check (HTTP), the
 * intake (durable write, then ack, then work), the in-flight count, the redaction of acks.
 * `auth.test` is called first and its identity given to Bolt, so that construction never makes a
 * network call of its own (its failure would be an unhandled rejection).
 */
export async function startSlackApp(opts: SlackAppOptions): Promise<SlackApp> {
  const { config, engine, logger } = opts;
  const token = config.slack.botToken as string;
  const blogger = boltLogger(logger);
  // Our pino logger, not the SDK's console: whatever the client logs passes the redactor too.
  const calls = slackCallMetrics(opts.health.registry);
  const client = new WebClient(token, { ...webClientOptions(config, calls), logger: blogger });
  const identity = await checkTokens(config, client, calls);
  const botUserId = identity.user_id as string;
  const intakeStore = openIntakeJournal(opts);
  const handledEvents = new HandledEvents(engine.db);
  const intake = new Intake({
    store: intakeStore,
    handled: handledEvents,
    clock: engine.clock,
    logger: logger.child({ component: "intake" }),
    timing: opts.intake?.timing,
    counters: intakeCommitMetrics(opts.health.registry),
  });
  // Counted after the intake: a replayed request is in flight like a new one.
  const inFlight = new InFlight();
  const transport = createTransport(opts, blogger, intakeStore, calls);
  const receiver = new ComposedReceiver(transport, [intake, inFlight, redactAcks]);
  const app = new App({
    token,
    receiver,
    botId: identity.bot_id as string,
    botUserId,
    tokenVerificationEnabled: false,
    clientOptions: webClientOptions(config, calls),
    logger: blogger,
  });
  app.error(async (err) => {
    logger.error({ err }, "unhandled error in a Slack listener");
  });

  const afterAck = new AfterAck(logger, () => intake.acksSent());
  const acks = new PendingAcks(logger, () => engine.clock.now());
  registerListeners(app, botContext(opts, client, botUserId, afterAck, handledEvents, acks));

  // The receiver starts the intake (its replay) before it listens.
  const listening = await listen(opts, receiver);
  const { port, healthPort } = listening;
  const mode = transport instanceof CheckedHttpReceiver ? "http" : "socket";
  logger.info({ mode, port, healthPort, botUserId }, "Slack app started");
  return {
    app,
    mode,
    port,
    healthPort,
    botUserId,
    client,
    acks,
    async settled() {
      // Work after ack may come from a request still in Bolt, and vice versa: wait until both are idle.
      do {
        await inFlight.settled();
        await afterAck.settled();
      } while (!inFlight.idle || afterAck.busy);
    },
    async stop() {
      // The transport first, then the intake's retries.
      await receiver.stop().catch(() => undefined);
      await afterAck.settled();
      await intakeStore.close();
      const { healthServer } = listening;
      await new Promise<void>((resolve) => (healthServer ? healthServer.close(() => resolve()) : resolve()));
    },
  };
}

/**
 * The bot's identity from `auth.test`, after checking the app token too when there is one.
 * Before anything listens: a rejected token or an unreachable Slack stops the start with one
 * line naming the variable to fix (Bolt would retry an app token's failure forever).
 */
async function checkTokens(config: Config, client: WebClient, calls: SlackCallMetrics) {
  const identity = await client.auth.test().catch((err: unknown) => {
    throw slackStartupError(err, "bot", config.slack.apiUrl, config.locale) ?? err;
  });
  if (config.slack.appToken)
    await new WebClient(config.slack.appToken, webClientOptions(config, calls)).apps.connections
      .open()
      .catch((err: unknown) => {
        throw slackStartupError(err, "app", config.slack.apiUrl, config.locale) ?? err;
      });
  return identity;
}

function openIntakeJournal({ config, engine, intake }: SlackAppOptions): IntakeJournal {
  // On PostgreSQL the journal is shared, so that a surviving instance adopts what a dead one acked;
  // on SQLite it is the bot's own file (a write there never waits behind another process's lock).
  return dialectOf(engine.db) === "postgres"
    ? new SharedIntakeStore(engine.db, engine.clock, engine.owner, config.leaseTtlMs)
    : new IntakeStore(intake?.file ?? path.join(config.dataDir, "intake.db"));
}

/**
 * The composed receiver's transport: Bolt's Socket Mode receiver when there is an app token; else
 * Bolt's HTTP receiver (with health routes) behind the signature and replay check.
 */
function createTransport(
  opts: SlackAppOptions,
  blogger: BoltLogger,
  intakeStore: IntakeJournal,
  calls: SlackCallMetrics,
): Receiver {
  const { config, engine, logger, health } = opts;
  const access = opts.healthAccess ?? publicAccess(config);
  if (config.slack.appToken)
    return new SocketModeReceiver({
      appToken: config.slack.appToken,
      logger: blogger,
      installerOptions: { clientOptions: webClientOptions(config, calls) },
    });
  const httpReceiver = new HTTPReceiver({
    signingSecret: config.slack.signingSecret as string,
    endpoints: "/slack/events",
    logger: blogger,
    // The intake keys a command by its signature: the headers travel with the request.
    customPropertiesExtractor: (req) => ({
      slackTimestamp: req.headers["x-slack-request-timestamp"],
      slackSignature: req.headers["x-slack-signature"],
    }),
    customRoutes: [
      ...["/healthz", "/metrics"].map((path) => ({
        path,
        method: ["GET"],
        handler: (req: IncomingMessage, res: ServerResponse) => void serveHealth(health, access, req, res),
      })),
      // Forge webhooks (issue 33): the forge front end checks their own signatures.
      ...(opts.forge ? forgeRoutes(opts.forge.listener) : []),
    ],
  });
  const checks = {
    signingSecret: config.slack.signingSecret as string,
    seen: new SeenRequests(intakeStore, engine.clock),
    clock: engine.clock,
    logger,
  };
  return new CheckedHttpReceiver(httpReceiver, checks, blogger);
}

function botContext(
  opts: SlackAppOptions,
  client: WebClient,
  botUserId: string,
  afterAck: AfterAck,
  handledEvents: HandledEvents,
  acks: PendingAcks,
): BotContext {
  const { engine, config, logger } = opts;
  const api = createEngineApi(engine);
  const names = new DisplayNames(client, engine.clock, logger);
  return {
    api,
    config,
    logger,
    // Read at each use: the person's language, set per request by registerPersonLocale.
    get locale() {
      return currentLocale(opts.locale);
    },
    locales: new UserLocales(client, opts.locale, engine.clock, logger),
    botUserId,
    afterAck,
    acks,
    addresses: new SlackAddresses(engine.db, engine.clock),
    posts: new SlackPosts(engine.db, engine.clock),
    channelDefaults: new SlackChannelDefaults(engine.db, engine.clock),
    handledEvents,
    forge: opts.forge,
    channelMembers: new ChannelMembers(client, api, engine.clock, logger),
    threadReader: new ThreadReader(
      client,
      config,
      botUserId,
      new ChannelAccessCheck(client, engine.clock, logger),
      names,
      logger,
    ),
    names,
    threadNotices: new SlackThreadNotices(engine.db, engine.clock),
  };
}

function registerListeners(app: App, ctx: BotContext): void {
  registerGuards(app, ctx);
  registerPersonLocale(app, ctx);
  registerCommands(app, ctx);
  registerActions(app, ctx);
  registerCoordinationActions(app, ctx);
  registerApprovalActions(app, ctx);
  registerRunActions(app, ctx);
  registerOrchestrationActions(app, ctx);
  registerLaneActions(app, ctx);
  registerMemoryActions(app, ctx);
  registerEvents(app, ctx);
}

/** Starts the receiver; in Socket Mode health gets its own server, in HTTP mode it shares Slack's port. */
async function listen(
  { config, health, healthAccess }: SlackAppOptions,
  receiver: ComposedReceiver,
): Promise<{ port: number | null; healthPort: number | null; healthServer: Server | null }> {
  if (config.slack.appToken) {
    await receiver.start();
    const access = healthAccess ?? publicAccess(config);
    const h = await startHealthServer(health, access, config.health.host, config.health.port);
    return { port: null, healthPort: h.port, healthServer: h.server };
  }
  const server = (await receiver.start({
    port: config.http.port,
    host: config.http.host,
  })) as Server;
  const port = (server.address() as AddressInfo).port;
  return { port, healthPort: port, healthServer: null };
}
