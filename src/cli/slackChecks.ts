import fs from "node:fs";
import path from "node:path";
import type { Config } from "../config.js";
import { packageRoot } from "../engine/agents/spawner.js";

/** One line of `codexpi doctor`. */
export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

/** The bot scopes a manifest asks for (`oauth_config.scopes.bot`), read without a YAML parser. */
export function manifestBotScopes(file = path.join(packageRoot(), "manifest.yml")): string[] {
  const text = fs.readFileSync(file, "utf8");
  const block = /\n\s*bot:\n((?:[ \t]+- .*\n)+)/.exec(text)?.[1] ?? "";
  return [...block.matchAll(/- ([\w:.]+)/g)].map((m) => m[1] as string);
}

const apiBase = (config: Config) => (config.slack.apiUrl ?? "https://slack.com/api/").replace(/\/?$/, "/");

async function call(config: Config, method: string, token: string) {
  const res = await fetch(`${apiBase(config)}${method}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await res.json().catch(() => ({ ok: false, error: `HTTP ${res.status}` }))) as {
    ok: boolean;
    error?: string;
    team?: string;
    user?: string;
  };
  return { body, scopes: res.headers.get("x-oauth-scopes") };
}

/**
 * The bot token (`auth.test`) and, from the same answer's `x-oauth-scopes` header, the granted
 * scopes against manifest.yml's: a missing scope fails later, in front of a person, otherwise.
 */
export async function botTokenChecks(config: Config): Promise<Check[]> {
  const token = config.slack.botToken;
  if (!token) return [{ name: "slack", ok: false, detail: "SLACK_BOT_TOKEN is not set" }];
  try {
    const { body, scopes } = await call(config, "auth.test", token);
    if (!body.ok)
      return [
        {
          name: "slack",
          ok: false,
          detail: `auth.test failed: ${body.error ?? "?"}. Fix: copy the Bot User OAuth Token (xoxb-…) into SLACK_BOT_TOKEN (reinstall the app if it was revoked)`,
        },
      ];
    const checks: Check[] = [
      { name: "slack", ok: true, detail: `auth.test ok: ${body.user ?? "?"} in ${body.team ?? "?"}` },
    ];
    if (scopes === null)
      checks.push({
        name: "slack scopes",
        ok: true,
        detail: "not reported by Slack (x-oauth-scopes): not checked",
      });
    else {
      const granted = new Set(scopes.split(",").map((s) => s.trim()));
      const missing = manifestBotScopes().filter((s) => !granted.has(s));
      checks.push(
        missing.length
          ? {
              name: "slack scopes",
              ok: false,
              detail: `SLACK_BOT_TOKEN lacks ${missing.join(", ")}. Fix: add manifest.yml's bot scopes to the app and reinstall it`,
            }
          : { name: "slack scopes", ok: true, detail: "every bot scope of manifest.yml is granted" },
      );
    }
    return checks;
  } catch (err) {
    return [
      {
        name: "slack",
        ok: false,
        detail: `Slack unreachable at ${apiBase(config)}: ${(err as Error).message}`,
      },
    ];
  }
}

/** Socket Mode's app-level token, by the call the bot starts with (`apps.connections.open`). */
export async function appTokenCheck(config: Config): Promise<Check | null> {
  const token = config.slack.appToken;
  if (!token) return null;
  try {
    const { body } = await call(config, "apps.connections.open", token);
    return body.ok
      ? { name: "slack app token", ok: true, detail: "apps.connections.open ok (Socket Mode)" }
      : {
          name: "slack app token",
          ok: false,
          detail: `apps.connections.open failed: ${body.error ?? "?"}. Fix: create an app-level token with connections:write (Basic Information → App-Level Tokens) and set it as SLACK_APP_TOKEN`,
        };
  } catch (err) {
    return {
      name: "slack app token",
      ok: false,
      detail: `Slack unreachable at ${apiBase(config)}: ${(err as Error).message}`,
    };
  }
}
