import { ErrorCode } from "@slack/web-api";
import { StartupError } from "../engine/storage.js";

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

const BOT_TOKEN_FIX =
  "Fix: copy the Bot User OAuth Token (xoxb-…) from your app's OAuth & Permissions page into SLACK_BOT_TOKEN (reinstall the app to the workspace if the token was revoked).";
const APP_TOKEN_FIX =
  "Fix: under Basic Information → App-Level Tokens, create a token with the connections:write scope and set it as SLACK_APP_TOKEN (xapp-…); Socket Mode must be on in the app's settings (or unset SLACK_APP_TOKEN and use HTTP mode with SLACK_SIGNING_SECRET).";

/**
 * A Slack Web API failure while starting, as one line naming the variable to fix: `token` says
 * which token made the call (the bot's `auth.test`, or the app-level `apps.connections.open`).
 * Null when the error did not come from Slack's client.
 */
export function slackStartupError(
  err: unknown,
  token: "bot" | "app",
  apiUrl: string | undefined,
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
  let text: string;
  if (e.code === ErrorCode.PlatformError && code === "missing_scope")
    text = `Slack refused ${variable}: the token lacks the scope ${e.data?.needed ?? "(not named)"} (missing_scope). Fix: give the app the scopes of manifest.yml and reinstall it to the workspace.`;
  else if (e.code === ErrorCode.PlatformError && code && REJECTED_TOKEN.has(code))
    text = `Slack refused ${variable} (${code}). ${token === "bot" ? BOT_TOKEN_FIX : APP_TOKEN_FIX}`;
  else if (e.code === ErrorCode.PlatformError)
    text = `Slack refused to start the bot with ${variable} (${code ?? "unknown error"}). ${token === "bot" ? BOT_TOKEN_FIX : APP_TOKEN_FIX}`;
  else {
    // fetch says only "fetch failed": the system's reason (ECONNREFUSED, ENOTFOUND…) is deeper.
    const deeper = (err as { original?: { cause?: { code?: string; message?: string } } }).original?.cause;
    const cause = deeper?.code ?? deeper?.message;
    const why = e.statusCode
      ? `HTTP ${e.statusCode}`
      : `${e.message ?? String(err)}${cause ? ` (${cause})` : ""}`;
    text = `cannot reach Slack at ${where} to start (${why}). Fix: check the network, the proxy and SLACK_API_URL; when Slack itself is down, a supervisor that restarts serve (systemd Restart=on-failure) brings it back once Slack answers.`;
  }
  return new StartupError(text, { cause: err });
}
