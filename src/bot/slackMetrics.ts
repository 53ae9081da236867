import type { FetchFunction } from "@slack/web-api";
import { Counter, type Registry } from "../metrics/index.js";

/** The bot's Slack call counters (issue 21, item 4), in its process's registry. */
export interface SlackCallMetrics {
  calls: Counter<"method">;
  rateLimited: Counter<"method">;
}

/** The Slack call counters of `registry`, created once (several apps may share one registry). */
export function slackCallMetrics(registry: Registry): SlackCallMetrics {
  const existing = (name: string) => registry.getSingleMetric(name) as Counter<"method"> | undefined;
  return {
    calls:
      existing("codexpi_slack_calls_total") ??
      new Counter({
        name: "codexpi_slack_calls_total",
        help: "Slack Web API calls (and response_url posts) by method",
        labelNames: ["method"],
        registers: [registry],
      }),
    rateLimited:
      existing("codexpi_slack_rate_limited_total") ??
      new Counter({
        name: "codexpi_slack_rate_limited_total",
        help: "Slack calls answered 429 (rate limited) by method",
        labelNames: ["method"],
        registers: [registry],
      }),
  };
}

/** The Web API method a request is for (`chat.postMessage`), or `response_url` for a respond(). */
function methodOf(url: string | URL): string {
  const text = typeof url === "string" ? url : url.href;
  const m = /\/api\/([A-Za-z0-9_.]+)/.exec(text);
  return m?.[1] ?? "response_url";
}

/** Counts every request to Slack and every 429 it answers; the request itself is unchanged. */
export function countingFetch(inner: FetchFunction, metrics: SlackCallMetrics): FetchFunction {
  return async (url, init) => {
    const method = methodOf(url);
    metrics.calls.inc({ method });
    const res = await inner(url, init);
    if (res.status === 429) metrics.rateLimited.inc({ method });
    return res;
  };
}
