import { stringify as stringifyToml } from "smol-toml";
import type { Upstream } from "./upstream.js";

/**
 * What an agent's Codex is told about its model inside the jail: the operator's settings without
 * any provider or credential, and one provider, `codexpi`, whose address is the turn's gateway and
 * whose key is the turn's stand-in token (from a variable Codex never passes to commands).
 */

/** The jail's provider id. */
const GATEWAY_PROVIDER = "codexpi";
/** The variable holding the turn's stand-in token (Codex drops `*TOKEN*` names from commands). */
export const GATEWAY_TOKEN_ENV = "CODEXPI_MODEL_TOKEN";
/** The jail's auth.json: a stand-in, so that nothing there is ever a credential. */
export const STAND_IN_AUTH = `${JSON.stringify({ auth_mode: "apikey", OPENAI_API_KEY: "codexpi-stand-in-not-a-credential" }, null, 2)}\n`;

type Table = Record<string, unknown>;
const isTable = (v: unknown): v is Table => typeof v === "object" && v !== null && !Array.isArray(v);

/** Top-level keys about the operator's login or provider: never shown to an agent. */
const DROPPED = new Set([
  "model_provider",
  "model_providers",
  "chatgpt_base_url",
  "forced_chatgpt_workspace_id",
  "forced_login_method",
  "preferred_auth_method",
  "experimental_bearer_token",
]);

/** The gateway's address as the turn's Codex reaches it (the jail forwards the same port). */
export const gatewayBaseUrl = (port: number): string => `http://127.0.0.1:${port}/v1`;

/**
 * The jail's config.toml text: the operator's table without its providers and login settings
 * (profiles lose their `model_provider` too), then the gateway's provider. Its `base_url` is the
 * turn's, given on Codex's command line (`gatewayOverrides`): one file serves a project's turns.
 */
export function jailConfigToml(operator: Table, upstream: Pick<Upstream, "wireApi" | "settings">): string {
  const config: Table = {};
  for (const [k, v] of Object.entries(operator)) if (!DROPPED.has(k)) config[k] = v;
  if (isTable(config.profiles)) {
    const profiles: Table = {};
    for (const [name, p] of Object.entries(config.profiles)) {
      if (!isTable(p)) continue;
      const { model_provider: _provider, ...rest } = p;
      profiles[name] = rest;
    }
    config.profiles = profiles;
  }
  // The jail has no way to Codex's analytics endpoint (only the gateway): its upload would only
  // stall the turn (seen: a probe without an answer in 6 s with analytics on).
  config.analytics = { ...(isTable(config.analytics) ? config.analytics : {}), enabled: false };
  config.model_provider = GATEWAY_PROVIDER;
  // Codex would otherwise look for a keyring; the jail's auth.json is a stand-in anyway.
  config.cli_auth_credentials_store = "file";
  config.model_providers = {
    [GATEWAY_PROVIDER]: {
      name: "codexpi model gateway",
      base_url: gatewayBaseUrl(9),
      wire_api: upstream.wireApi,
      env_key: GATEWAY_TOKEN_ENV,
      ...upstream.settings,
    },
  };
  return `# Written by codexpi for its agents' jails: the model is reached through codexpi's gateway.\n${stringifyToml(config)}\n`;
}

/** The `-c` words that point one turn's Codex at its gateway. */
export function gatewayOverrides(port: number): string[] {
  return ["-c", `model_providers.${GATEWAY_PROVIDER}.base_url=${JSON.stringify(gatewayBaseUrl(port))}`];
}
