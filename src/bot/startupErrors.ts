import { StartupError } from "../engine/api/runtime.js";
import { ErrorCode } from "@slack/web-api";
import { t, type Locale } from "../i18n/index.js";

// Slack's answers that mean "this token is not (or no longer) valid": the fix is a new token.
const REJECTED_TOKEN = new Set([
  "invalid_auth",
  "not_authed",
  "token_revoked",
  "token_expired",
  "account_inactive",
  "invalid_token",
  "not_allowed_token_type",
  "no_permission",
]);

/**
 * A Slack Web API failure while starting, as one line naming the variable to fix: `token` says
 * which token made the call (the bot's `auth.test`, or the app-level `apps.connections.open`).
 * Null when the error did not come from Slack's client.
 */
export function slackStartupError(
  err: unknown,
  token: "bot" | "app",
  apiUrl: string | undefined,
  locale: Locale,
): StartupError | null {
  const e = err as {
    code?: string;
    statusCode?: number;
    data?: { error?: string; needed?: string };
    message?: string;
  };
  if (typeof e?.code !== "string" || !e.code.startsWith("slack_")) return null;
  const variable = token === "bot" ? "SLACK_BOT_TOKEN" : "SLACK_APP_TOKEN";
  const where = apiUrl ?? "https://slack.com/api/";
  const code = e.data?.error;
  const fix = t(locale, token === "bot" ? "cli.startup.bot_token_fix" : "cli.startup.app_token_fix");
  let text: string;
  if (e.code === ErrorCode.PlatformError && code === "missing_scope")
    text = t(locale, "cli.startup.missing_scope", {
      variable,
      scope: e.data?.needed ?? t(locale, "cli.startup.scope_unnamed"),
    });
  else if (e.code === ErrorCode.PlatformError && code && REJECTED_TOKEN.has(code))
    text = t(locale, "cli.startup.token_rejected", { variable, code, fix });
  else if (e.code === ErrorCode.PlatformError)
    text = t(locale, "cli.startup.refused", {
      variable,
      code: code ?? t(locale, "cli.startup.unknown_error"),
      fix,
    });
  else {
    // fetch says only "fetch failed": the system's reason (ECONNREFUSED, ENOTFOUND…) is deeper.
    const deeper = (err as { original?: { cause?: { code?: string; message?: string } } }).original?.cause;
    const cause = deeper?.code ?? deeper?.message;
    const why = e.statusCode
      ? `HTTP ${e.statusCode}`
      : `${e.message ?? String(err)}${cause ? ` (${cause})` : ""}`;
    text = t(locale, "cli.startup.unreachable", { url: where, why });
  }
  return new StartupError(text, { cause: err });
}
