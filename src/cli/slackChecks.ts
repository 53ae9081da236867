import { packageRoot } from "../engine/api/runtime.js";
import fs from "node:fs";
import path from "node:path";
import type { Config } from "../config.js";
import { t, type Locale } from "../i18n/index.js";

/** What doctor checks, each named in the operator's language (`cli.doctor.name.*`). */
type CheckId =
  | "configuration"
  | "database"
  | "proxy"
  | "jail"
  | "layout"
  | "overlap"
  | "credentials"
  | "egress"
  | "network"
  | "codex"
  | "codex_config"
  | "sandbox"
  | "model"
  | "git"
  | "slack"
  | "slack_scopes"
  | "slack_app_token"
  | "forge";

/** The name a doctor line shows for a check. */
export const checkName = (locale: Locale, id: CheckId): string => t(locale, `cli.doctor.name.${id}`);

/** One line of `codexpi doctor`. */
export interface Check {
  name: string;
  ok: boolean;
  /** Works, but the operator should know (shown with "!", does not fail doctor). */
  warning?: boolean;
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
  const { locale } = config;
  const slack = checkName(locale, "slack");
  const scopesName = checkName(locale, "slack_scopes");
  const token = config.slack.botToken;
  if (!token) return [{ name: slack, ok: false, detail: t(locale, "cli.doctor.bot_token_unset") }];
  try {
    const { body, scopes } = await call(config, "auth.test", token);
    if (!body.ok)
      return [
        { name: slack, ok: false, detail: t(locale, "cli.doctor.auth_failed", { error: body.error ?? "?" }) },
      ];
    const checks: Check[] = [
      {
        name: slack,
        ok: true,
        detail: t(locale, "cli.doctor.auth_ok", { user: body.user ?? "?", team: body.team ?? "?" }),
      },
    ];
    if (scopes === null)
      checks.push({
        name: scopesName,
        ok: true,
        detail: t(locale, "cli.doctor.scopes_unreported"),
      });
    else {
      const granted = new Set(scopes.split(",").map((s) => s.trim()));
      const missing = manifestBotScopes().filter((s) => !granted.has(s));
      checks.push(
        missing.length
          ? {
              name: scopesName,
              ok: false,
              detail: t(locale, "cli.doctor.scopes_missing", { scopes: missing.join(", ") }),
            }
          : { name: scopesName, ok: true, detail: t(locale, "cli.doctor.scopes_ok") },
      );
    }
    return checks;
  } catch (err) {
    return [
      {
        name: slack,
        ok: false,
        detail: t(locale, "cli.doctor.slack_unreachable", {
          url: apiBase(config),
          error: (err as Error).message,
        }),
      },
    ];
  }
}

/** Socket Mode's app-level token, by the call the bot starts with (`apps.connections.open`). */
export async function appTokenCheck(config: Config): Promise<Check | null> {
  const { locale } = config;
  const name = checkName(locale, "slack_app_token");
  const token = config.slack.appToken;
  if (!token) return null;
  try {
    const { body } = await call(config, "apps.connections.open", token);
    return body.ok
      ? { name, ok: true, detail: t(locale, "cli.doctor.app_token_ok") }
      : { name, ok: false, detail: t(locale, "cli.doctor.app_token_failed", { error: body.error ?? "?" }) };
  } catch (err) {
    return {
      name,
      ok: false,
      detail: t(locale, "cli.doctor.slack_unreachable", {
        url: apiBase(config),
        error: (err as Error).message,
      }),
    };
  }
}
