import net from "node:net";
import path from "node:path";
import { validate as validCron } from "node-cron";
import { z } from "zod";
import type { DatabaseTarget } from "./engine/database.js";
import { DEFAULT_AGENT_ENV, isForbiddenAgentVariable } from "./engine/isolation/index.js";
import { parsePrices } from "./prices.js";

/** Validated runtime configuration, read once from the environment. */
export type Config = ReturnType<typeof parseConfig>;

/** Raised when the environment is missing or malformed; its message names the variable. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

const MIB = 1024 * 1024;
/** Prometheus's usual port for an exporter of one's own: where /metrics is served by default. */
export const DEFAULT_METRICS_PORT = 9464;
const port = z.coerce.number().int().min(0).max(65535);
const seconds = z.coerce.number().int().positive();
const slackUserIds = z
  .string()
  .transform((s) =>
    s
      .split(",")
      .map((x) => x.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.string().regex(/^[UW][A-Z0-9]+$/, "expected Slack user ids like U123ABC")));

const schema = z.object({
  SLACK_BOT_TOKEN: z.string().startsWith("xoxb-", "expected a bot token starting with xoxb-").optional(),
  SLACK_APP_TOKEN: z
    .string()
    .startsWith("xapp-", "expected an app-level token starting with xapp-")
    .optional(),
  SLACK_SIGNING_SECRET: z.string().min(1).optional(),
  SLACK_API_URL: z.string().url().optional(),
  SLACK_TEAM_ID: z
    .string()
    .regex(/^[TE][A-Z0-9]+$/, "expected a Slack team id like T123ABC")
    .optional(),
  CODEXPI_HEADLESS: z.enum(["0", "1", "false", "true"], "expected 1 or 0").optional(),
  CODEXPI_ADMINS: slackUserIds.default([]),
  CODEXPI_DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z.string().min(1).optional(),
  CODEX_BIN: z.string().min(1).optional(),
  CODEX_HOME: z.string().min(1).optional(),
  PORT: port.default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  HEALTH_PORT: port.default(3001),
  HEALTH_HOST: z.string().min(1).default("127.0.0.1"),
  // The metrics listener (docs/reliability.md#who-sees-what): `off`, or a port; anonymous on loopback only.
  CODEXPI_METRICS_PORT: z
    .union([z.literal("off"), port], "expected a TCP port (0 to 65535) or off")
    .default(DEFAULT_METRICS_PORT),
  CODEXPI_METRICS_HOST: z.string().min(1).default("127.0.0.1"),
  // RFC 6750's token characters, and long enough that guessing is no way in.
  CODEXPI_METRICS_TOKEN: z
    .string()
    .regex(/^[A-Za-z0-9._~+/-]+=*$/, "expected a bearer token: letters, digits and - . _ ~ + / only")
    .min(16, "expected at least 16 characters (e.g. the output of openssl rand -hex 32)")
    .optional(),
  CODEXPI_TICK: z
    .string()
    .min(1)
    .refine(validCron, "expected a cron expression (six fields allow seconds), e.g. */5 * * * * *")
    .default("*/5 * * * * *"),
  CODEXPI_INTAKE_FILE: z.string().min(1).optional(),
  CODEXPI_LEASE_SECONDS: z.coerce.number().int().min(2).max(3600).default(30),
  // English by default; deliberately not read from LANG: a service's LANG is its machine's (often
  // C.UTF-8), not its people's, who each get their own Slack language anyway.
  CODEXPI_LOCALE: z.enum(["fr", "en"]).default("en"),
  CODEXPI_TURN_TIMEOUT: seconds.default(30 * 60),
  CODEXPI_SETUP_TIMEOUT: seconds.default(10 * 60),
  CODEXPI_IDLE_TIMEOUT: seconds.default(10 * 60),
  CODEXPI_CONNECT_TIMEOUT: seconds.default(120),
  CODEXPI_DONE_DM_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  CODEXPI_DECISION_DM_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  CODEXPI_THREAD_ACTIVE_MINUTES: z.coerce.number().int().min(0).max(1440).default(10),
  CODEXPI_HEALTH_MODEL_FAILURES: z.coerce.number().int().min(1).max(1000).default(3),
  CODEXPI_JAIL: z.enum(["bwrap", "off"]).default("bwrap"),
  CODEXPI_NETNS: z.enum(["auto", "off"]).default("auto"),
  CODEXPI_NETNS_PORTS: z
    .string()
    .transform((s) =>
      s
        .split(",")
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^\d{1,5}$/, "expected TCP port numbers, e.g. 8080,11434")))
    .transform((ports) => ports.map(Number))
    .refine((ports) => ports.every((n) => n > 0 && n < 65536), "expected TCP port numbers from 1 to 65535")
    .optional(),
  CODEXPI_APPROVAL_TTL: seconds.default(24 * 60 * 60),
  CODEXPI_HOST_TTL: seconds.default(30),
  CODEXPI_LANE_RETENTION_DAYS: z.coerce.number().positive().default(14),
  CODEXPI_AUDIT_RETENTION_DAYS: z.coerce.number().positive().default(365),
  CODEXPI_SCHEDULE_CATCH_UP: z.enum(["once", "skip"]).default("once"),
  CODEXPI_MEMORY_CHARS: z.coerce.number().int().min(0).max(100_000).default(4000),
  CODEXPI_HOST_NAME: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/, "expected a host name (letters, digits, . _ -)")
    .optional(),
  CODEXPI_FILE_MAX_MB: z.coerce.number().positive().max(1024).default(20),
  CODEXPI_FILES_MAX_MB: z.coerce.number().positive().max(4096).default(50),
  CODEXPI_FILES_MAX_COUNT: z.coerce.number().int().min(0).max(100).default(10),
  CODEXPI_OUTBOX_MAX_MB: z.coerce.number().positive().max(1024).default(20),
  CODEXPI_OUTBOX_MAX_COUNT: z.coerce.number().int().min(0).max(100).default(10),
  CODEXPI_RUNNER: z.enum(["exec", "app-server"]).default("exec"),
  // Usage's estimated cost (issue 21): JSON, or a file holding it (docs/usage-and-budgets.md).
  CODEXPI_PRICES: z
    .string()
    .transform((s, ctx) => {
      try {
        return parsePrices(s);
      } catch (err) {
        ctx.addIssue({ code: "custom", message: (err as Error).message });
        return z.NEVER;
      }
    })
    .optional(),
  CODEXPI_INTERIM_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  CODEXPI_FORGE_POLL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  CODEXPI_STREAMING: z.enum(["auto", "off"]).default("auto"),
  CODEXPI_THREAD_CONTEXT_MESSAGES: z.coerce.number().int().min(0).max(1000).default(50),
  CODEXPI_THREAD_CONTEXT_CHARS: z.coerce.number().int().min(500).max(500_000).default(20_000),
  CODEXPI_AGENT_ENV: z
    .string()
    .transform((s) =>
      s
        .split(",")
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z
          .string()
          .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "expected variable names")
          .refine(
            (n) => !isForbiddenAgentVariable(n),
            "Slack and codexpi variables are never given to agents",
          ),
      ),
    )
    .optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

/** How long a turn, its parts and the people it waits for may take. */
function timeLimits(e: z.infer<typeof schema>) {
  return {
    turnTimeoutMs: e.CODEXPI_TURN_TIMEOUT * 1000,
    /** Wall-clock limit of a project's setup (`.codexpi/setup` or `--setup`), killed with its jail. */
    setupTimeoutMs: e.CODEXPI_SETUP_TIMEOUT * 1000,
    idleTimeoutMs: e.CODEXPI_IDLE_TIMEOUT * 1000,
    /**
     * How long a turn may do nothing but fail to reach its model (Codex's "Reconnecting…"
     * retries) before it fails with Codex's last error, whatever the idle limit.
     */
    connectTimeoutMs: e.CODEXPI_CONNECT_TIMEOUT * 1000,
    /** How long an approval request waits for a person before it expires (answered `cancel`). */
    approvalTtlMs: e.CODEXPI_APPROVAL_TTL * 1000,
    /**
     * A decision's DM waits `afterMs` after it opened (answered by then: none), and never goes
     * while its person wrote in the thread within `activeMs`: they are reading it.
     */
    decisionReminders: {
      afterMs: e.CODEXPI_DECISION_DM_SECONDS * 1000,
      activeMs: e.CODEXPI_THREAD_ACTIVE_MINUTES * 60_000,
    },
    /** How often the forge is polled for projects with `codexpi forge set NAME --poll on` (docs/forges.md). */
    forgePollMs: e.CODEXPI_FORGE_POLL_SECONDS * 1000,
  };
}

/** Parses an environment into a Config; throws ConfigError with one message per bad variable. */
export function parseConfig(env: NodeJS.ProcessEnv = process.env) {
  // Empty strings mean "unset": shells and .env files often export VAR= to clear a value.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `${String(i.path[0] ?? "environment")}: ${i.message}`);
    throw new ConfigError(`invalid configuration — ${lines.join("; ")}`);
  }
  const e = result.data;
  const metrics = metricsListener(e);
  const dataDir = path.resolve(e.CODEXPI_DATA_DIR);
  const database = databaseFrom(e.DATABASE_URL, dataDir);
  return {
    slack: {
      botToken: e.SLACK_BOT_TOKEN,
      appToken: e.SLACK_APP_TOKEN,
      signingSecret: e.SLACK_SIGNING_SECRET,
      apiUrl: e.SLACK_API_URL,
      teamId: e.SLACK_TEAM_ID,
    },
    /** `serve` without Slack (the CLI-only set-up), asked for with CODEXPI_HEADLESS=1 or `--headless`. */
    headless: e.CODEXPI_HEADLESS === "1" || e.CODEXPI_HEADLESS === "true",
    admins: e.CODEXPI_ADMINS,
    dataDir,
    /** Which database the engine uses: the SQLite file (default) or a PostgreSQL server. */
    database,
    /**
     * Where the database is, for people and for SQLite-only tools: the SQLite file, or the
     * PostgreSQL URL without its password (safe to log).
     */
    databasePath: database.dialect === "sqlite" ? database.file : withoutPassword(database.url),
    codexBin: e.CODEX_BIN,
    // Agents run in other directories (and jails): a relative home must mean the same there.
    codexHome: e.CODEX_HOME === undefined ? undefined : path.resolve(e.CODEX_HOME),
    http: { port: e.PORT, host: e.HOST },
    health: {
      port: e.HEALTH_PORT,
      host: e.HEALTH_HOST,
      /** /healthz names the model failing after this many turns in a row failed for it (unreachable). */
      modelFailures: e.CODEXPI_HEALTH_MODEL_FAILURES,
    },
    metrics,
    tick: e.CODEXPI_TICK,
    /**
     * How long the coordinator lease lasts without renewal (each tick renews it): another `serve`
     * takes over that long after the coordinator died, at once when it was on the same host.
     */
    leaseTtlMs: e.CODEXPI_LEASE_SECONDS * 1000,
    /**
     * The intake file of this `serve` (acked Slack requests not yet in the engine): one per
     * instance, so that several on one machine (sharing the data directory) each replay their own.
     */
    intakeFile: e.CODEXPI_INTAKE_FILE === undefined ? undefined : path.resolve(e.CODEXPI_INTAKE_FILE),
    locale: e.CODEXPI_LOCALE,
    ...timeLimits(e),
    logLevel: e.LOG_LEVEL,
    /**
     * The worker host this process belongs to (`codexpi host --name`, passed on to its workers):
     * it dispatches and reaps only the projects placed there. Null: the coordinator's own machine.
     */
    hostName: e.CODEXPI_HOST_NAME ?? null,
    /** A worker host whose heartbeat is older than this is lost: its running items are interrupted. */
    hostTtlMs: e.CODEXPI_HOST_TTL * 1000,
    /** A lane unused this long (its conversation neither running nor waiting) is removed. */
    laneRetentionMs: Math.round(e.CODEXPI_LANE_RETENTION_DAYS * 24 * 3600_000),
    /** Audit rows older than this are swept by the tick (CODEXPI_AUDIT_RETENTION_DAYS, default 365). */
    auditRetentionMs: Math.round(e.CODEXPI_AUDIT_RETENTION_DAYS * 24 * 3600_000),
    /**
     * What a schedule's firing missed while codexpi was down does at start, for schedules that say
     * nothing of their own: `once` (it runs once) or `skip` (CODEXPI_SCHEDULE_CATCH_UP).
     */
    scheduleCatchUp: e.CODEXPI_SCHEDULE_CATCH_UP,
    /**
     * How many characters of a project's kept notes each of its turns is given (engine/memory;
     * CODEXPI_MEMORY_CHARS, default 4000; 0 gives none): the notes left out are said.
     */
    memoryChars: e.CODEXPI_MEMORY_CHARS,
    /** `bwrap`: every agent process and test command runs in a bubblewrap jail; `off` is unsafe. */
    jail: e.CODEXPI_JAIL,
    /**
     * `auto`: a full-access turn of an `open` project routes out through a namespace of its own
     * (pasta, when installed): the internet, not the host's sockets. `off`: the host's namespace.
     */
    netns: e.CODEXPI_NETNS,
    /** Host loopback TCP ports every agent's jail reaches (bridged in by its worker). */
    netnsPorts: e.CODEXPI_NETNS_PORTS ?? [],
    /** How Codex runs a turn: `exec` (`codex exec --json`) or `app-server` (JSON-RPC; can ask approvals). */
    runner: e.CODEXPI_RUNNER,
    /** Prices per model for usage's estimated cost; null: no cost is shown. */
    prices: e.CODEXPI_PRICES ?? null,
    /** Names of the variables that carry the model's credential to Codex (never to its commands). */
    agentEnv: e.CODEXPI_AGENT_ENV ?? DEFAULT_AGENT_ENV,
    /** Files in (shared with a prompt) and out (left in the agent's outbox): see docs/files.md. */
    files: fileLimits(e),
    progress: {
      /** A long turn's interim messages are posted in its thread at most once per this many ms (0: never). */
      interimMs: e.CODEXPI_INTERIM_SECONDS * 1000,
      /** `auto`: a turn is streamed into its thread where the workspace allows it; `off`: edited status only. */
      streaming: e.CODEXPI_STREAMING,
      /**
       * A "done" DM only for a turn that ran at least this long (0: every turn): its person was
       * likely away; one who waited a few seconds is still looking at the thread.
       */
      doneDmAfterMs: e.CODEXPI_DONE_DM_SECONDS * 1000,
    },
    /**
     * How much of a Slack thread an agent is given (docs/thread-context.md): at most this many
     * earlier messages (0: the thread is never read) and characters of them; the cut is said.
     */
    threadContext: {
      messages: e.CODEXPI_THREAD_CONTEXT_MESSAGES,
      chars: e.CODEXPI_THREAD_CONTEXT_CHARS,
    },
  };
}

/**
 * Where /metrics and the detailed /healthz are served without credentials, and the token that
 * opens them on every listener. Anonymous detail is for the machine itself: a metrics listener
 * outside loopback without a token would hand it to the network, so it is refused here.
 */
function metricsListener(e: z.infer<typeof schema>) {
  const port = e.CODEXPI_METRICS_PORT === "off" ? null : e.CODEXPI_METRICS_PORT;
  const token = e.CODEXPI_METRICS_TOKEN ?? null;
  if (port !== null && !token && !isLoopbackHost(e.CODEXPI_METRICS_HOST)) {
    throw new ConfigError(
      `invalid configuration — CODEXPI_METRICS_HOST: ${e.CODEXPI_METRICS_HOST} is not a loopback address; metrics are served without credentials on loopback only: set CODEXPI_METRICS_TOKEN, or keep the default 127.0.0.1`,
    );
  }
  return {
    /** The metrics listener's port (0: any free one), or null when CODEXPI_METRICS_PORT=off. */
    port,
    host: e.CODEXPI_METRICS_HOST,
    /** The bearer token for /metrics and the detailed /healthz; null: none is accepted anywhere. */
    token,
  };
}

const LOOPBACK = new net.BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

/** Whether a listener's host name or address stays on this machine (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, "");
  if (h === "localhost" || h.endsWith(".localhost")) return true;
  const family = net.isIPv4(h) ? "ipv4" : net.isIPv6(h) ? "ipv6" : null;
  return family !== null && LOOPBACK.check(h, family);
}

/** The limits on files in and out of a conversation (docs/files.md). */
function fileLimits(e: z.infer<typeof schema>) {
  return {
    /** Largest file downloaded from Slack, in bytes (declared size and actual bytes). */
    maxFileBytes: Math.round(e.CODEXPI_FILE_MAX_MB * MIB),
    /** Largest total downloaded for one prompt (its files and its thread context's), in bytes. */
    maxMessageBytes: Math.round(e.CODEXPI_FILES_MAX_MB * MIB),
    /** Most files taken for one prompt (its files and its thread context's). */
    maxCount: e.CODEXPI_FILES_MAX_COUNT,
    /** Largest file uploaded from the agent's outbox, in bytes. */
    maxOutBytes: Math.round(e.CODEXPI_OUTBOX_MAX_MB * MIB),
    /** Most files uploaded after one turn. */
    maxOutCount: e.CODEXPI_OUTBOX_MAX_COUNT,
  };
}

/**
 * The Slack variables `serve` lacks (empty: Slack is configured): the bot token, and Socket Mode's
 * app token or HTTP mode's signing secret.
 */
export function missingSlack(config: Config): { botToken: boolean; mode: boolean } {
  return {
    botToken: !config.slack.botToken,
    mode: !config.slack.appToken && !config.slack.signingSecret,
  };
}

/** The Slack settings `serve` needs; checked only there so that CLI commands work without Slack. */
export function requireSlack(config: Config): void {
  if (!config.slack.botToken)
    throw new ConfigError("invalid configuration — SLACK_BOT_TOKEN: required to serve");
  if (!config.slack.appToken && !config.slack.signingSecret) {
    throw new ConfigError(
      "invalid configuration — SLACK_SIGNING_SECRET: required in HTTP mode (or set SLACK_APP_TOKEN for Socket Mode)",
    );
  }
}

function databaseFrom(url: string | undefined, dataDir: string): DatabaseTarget {
  if (!url) return { dialect: "sqlite", file: path.join(dataDir, "codexpi.db") };
  if (/^postgres(?:ql)?:\/\//.test(url)) {
    let parsed: URL | null = null;
    try {
      parsed = new URL(url);
    } catch {
      // reported below, without echoing the URL (it may hold a password)
    }
    if (!parsed?.hostname || parsed.pathname.length < 2) {
      throw new ConfigError(
        "invalid configuration — DATABASE_URL: expected postgres://user:password@host:port/database",
      );
    }
    return { dialect: "postgres", url };
  }
  const m = /^(?:sqlite|file):(?:\/\/)?(.+)$/.exec(url);
  if (!m?.[1]) {
    throw new ConfigError(
      "invalid configuration — DATABASE_URL: expected sqlite:<path>, file:<path> or postgres://user:password@host/database",
    );
  }
  return { dialect: "sqlite", file: path.resolve(m[1]) };
}

/** A database URL with its password replaced, for messages and logs. */
function withoutPassword(url: string): string {
  const u = new URL(url);
  if (!u.password) return url;
  return `${u.protocol}//${u.username}:[redacted]@${u.host}${u.pathname}${u.search}`;
}
