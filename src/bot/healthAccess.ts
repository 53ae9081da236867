import { createHash, timingSafeEqual } from "node:crypto";
import type http from "node:http";
import type { Config } from "../config.js";

// Who may read what of a health listener (issue 31, item 5). `/healthz` is liveness for anyone;
// its detail (versions, lease holder, gauges, the failing checks) and `/metrics` are for
// operators: bearers of CODEXPI_METRICS_TOKEN on any listener, or anyone on the loopback metrics
// listener when no token is configured (config.ts refuses that listener elsewhere).

/** How one listener treats its callers. */
export interface HealthAccess {
  /** SHA-256 of CODEXPI_METRICS_TOKEN; null: no token opens anything. */
  readonly tokenDigest: Buffer | null;
  /** Whether a caller without credentials gets the detail and /metrics (the private listener). */
  readonly anonymousDetail: boolean;
  /** What a refused /metrics is told to do instead (null on the metrics listener itself). */
  readonly instead: string | null;
}

/** What a request may read: everything, liveness only, or nothing (wrong credentials). */
export type Clearance = "detail" | "liveness" | "refused";

const digest = (s: string) => createHash("sha256").update(s, "utf8").digest();

/**
 * The access of Slack's HTTP listener and Socket Mode's health listener: public by nature (a
 * reverse proxy makes even a loopback-bound one public), so the detail needs the token.
 * `metricsUrl`: the metrics listener's /metrics, once it listens (null: it is off).
 */
export function publicAccess(
  config: Pick<Config, "metrics">,
  metricsUrl: string | null = null,
): HealthAccess {
  const token = config.metrics.token;
  return {
    tokenDigest: token ? digest(token) : null,
    anonymousDetail: false,
    instead: metricsUrl
      ? `scrape ${metricsUrl} on this machine`
      : "the metrics listener is off (CODEXPI_METRICS_PORT=off)",
  };
}

/** The metrics listener's access: without a token configured, its callers get everything. */
export function metricsListenerAccess(config: Pick<Config, "metrics">): HealthAccess {
  return { ...publicAccess(config), anonymousDetail: config.metrics.token === null, instead: null };
}

/**
 * A request's clearance. Credentials, when sent, are checked whatever the listener: a wrong or
 * unknown token is refused rather than quietly served less, so that an operator sees the mistake.
 */
export function clearance(access: HealthAccess, req: http.IncomingMessage): Clearance {
  const header = req.headers.authorization;
  if (header === undefined) return access.anonymousDetail ? "detail" : "liveness";
  const m = /^Bearer +(\S+) *$/i.exec(header);
  if (!m?.[1] || !access.tokenDigest) return "refused";
  // Equal-length digests: the comparison takes the same time whatever the token sent.
  return timingSafeEqual(digest(m[1]), access.tokenDigest) ? "detail" : "refused";
}

/** The URL of /metrics on a listener bound to `host` and `port`, as said to operators. */
export function metricsUrlOf(host: string, port: number): string {
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}/metrics`;
}
