import type { Config } from "../config.js";
import { redactingFetch } from "./redactingSlack.js";
import { countingFetch, type SlackCallMetrics } from "./slackMetrics.js";

/**
 * Web API client options shared by Bolt and the notifier: our own retries, never the SDK's 30
 * minutes, and a fetch that redacts every request body (Bolt's `respond()` uses it too).
 */
export function webClientOptions(config: Config, metrics?: SlackCallMetrics) {
  return {
    ...(config.slack.apiUrl ? { slackApiUrl: config.slack.apiUrl } : {}),
    // Counted after the redactor, as Slack sees the call (metrics: calls and 429s by method).
    fetch: metrics ? countingFetch(redactingFetch(), metrics) : redactingFetch(),
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: 15_000,
  };
}
