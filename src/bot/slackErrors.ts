import { ErrorCode } from "@slack/web-api";

/** How the notifier should react to a failed Slack call. */
export type SlackFailure =
  | { kind: "rate_limited"; retryAfterMs: number }
  | { kind: "transient"; detail: string }
  | { kind: "permanent"; code: string };

// Platform errors that a retry can fix; every other platform error is permanent.
const TRANSIENT_PLATFORM = new Set([
  "internal_error",
  "fatal_error",
  "service_unavailable",
  "request_timeout",
  "ratelimited",
  "team_added_to_org",
]);

/** Classifies an error thrown by @slack/web-api. Network errors and 5xx are transient. */
export function classifySlackError(err: unknown): SlackFailure {
  const e = err as { code?: string; retryAfter?: number; statusCode?: number; data?: { error?: string } };
  if (e?.code === ErrorCode.RateLimitedError)
    return { kind: "rate_limited", retryAfterMs: Math.max(1, e.retryAfter ?? 1) * 1000 };
  if (e?.code === ErrorCode.HTTPError) {
    if (e.statusCode === 429) return { kind: "rate_limited", retryAfterMs: 1000 };
    return (e.statusCode ?? 500) >= 500 || e.statusCode === 408
      ? { kind: "transient", detail: `HTTP ${e.statusCode}` }
      : { kind: "permanent", code: `http_${e.statusCode}` };
  }
  if (e?.code === ErrorCode.PlatformError) {
    const code = e.data?.error ?? "unknown_error";
    return TRANSIENT_PLATFORM.has(code) ? { kind: "transient", detail: code } : { kind: "permanent", code };
  }
  if (e?.code === ErrorCode.RequestError) return { kind: "transient", detail: (err as Error).message };
  return { kind: "transient", detail: err instanceof Error ? err.message : String(err) };
}
