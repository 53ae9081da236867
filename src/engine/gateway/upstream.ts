import fs from "node:fs";
import path from "node:path";
import { parse as parseToml } from "smol-toml";
import { chatgptLogin, type ChatgptLogin } from "./chatgptLogin.js";

/**
 * Where the model really is and how codexpi proves itself to it: read from the operator's Codex
 * settings (`config.toml`, `auth.json`) and the worker's environment, outside every jail. The
 * three kinds of credential Codex knows: an OpenAI API key, a ChatGPT login (whose tokens are
 * refreshed here, on the host), and another Responses-compatible provider of `config.toml`.
 */

/** Which kind of credential the gateway adds. */
export type CredentialKind = "api_key" | "chatgpt" | "provider";

/** The model's real address and the headers that carry its credential (never shown to an agent). */
export interface Upstream {
  kind: CredentialKind;
  /** The provider's base URL, without a trailing slash (`https://api.openai.com/v1`). */
  baseUrl: string;
  /** The wire protocol Codex speaks to it (`responses`). */
  wireApi: string;
  /** Query parameters the provider needs on every request (Azure's `api-version`). */
  query: Record<string, string>;
  /** The credential's headers for the next request (a ChatGPT login's token may have been refreshed). */
  headers(): Promise<Record<string, string>>;
  /** After a 401: refreshes the credential if it can (a ChatGPT login); whether to try again. */
  refreshAfterUnauthorized(): Promise<boolean>;
  /** Provider settings carried over to the jail's provider (retries, idle timeout). */
  settings: Record<string, number>;
}

/** The operator's Codex settings could not give the gateway a usable upstream. */
export class UpstreamError extends Error {}

const OPENAI_BASE = "https://api.openai.com/v1";
const CHATGPT_BASE = "https://chatgpt.com/backend-api";
/** Settings of a provider that only shape Codex's own behaviour, safe to give the jail. */
const CARRIED = ["request_max_retries", "stream_max_retries", "stream_idle_timeout_ms"] as const;

type Table = Record<string, unknown>;
const isTable = (v: unknown): v is Table => typeof v === "object" && v !== null && !Array.isArray(v);
const trimSlash = (u: string): string => u.replace(/\/+$/, "");

/** The operator's config.toml as a table ({} when there is none); a parse error is thrown as is. */
export function readOperatorConfig(operatorHome: string): Table {
  let text: string;
  try {
    text = fs.readFileSync(path.join(operatorHome, "config.toml"), "utf8");
  } catch {
    return {};
  }
  return parseToml(text) as Table;
}

/** The operator's auth.json, or null when missing or not JSON. */
function readAuth(file: string): Table | null {
  try {
    const v = JSON.parse(fs.readFileSync(file, "utf8")) as unknown;
    return isTable(v) ? v : null;
  } catch {
    return null;
  }
}

function stringTable(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (isTable(v)) for (const [k, x] of Object.entries(v)) if (typeof x === "string") out[k] = x;
  return out;
}

function carried(provider: Table): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of CARRIED) if (typeof provider[k] === "number") out[k] = provider[k] as number;
  return out;
}

const staticUpstream = (
  kind: CredentialKind,
  baseUrl: string,
  headers: Record<string, string>,
  rest: Partial<Pick<Upstream, "wireApi" | "query" | "settings">> = {},
): Upstream => ({
  kind,
  baseUrl: trimSlash(baseUrl),
  wireApi: rest.wireApi ?? "responses",
  query: rest.query ?? {},
  settings: rest.settings ?? {},
  headers: async () => headers,
  refreshAfterUnauthorized: async () => false,
});

const bearer = (key: string): Record<string, string> => ({ authorization: `Bearer ${key}` });

/** The upstream of a ChatGPT login: Codex's backend, with the account header and a refreshing token. */
function chatgptUpstream(login: ChatgptLogin, config: Table): Upstream {
  const base = typeof config.chatgpt_base_url === "string" ? config.chatgpt_base_url : CHATGPT_BASE;
  return {
    kind: "chatgpt",
    baseUrl: `${trimSlash(base)}/codex`,
    wireApi: "responses",
    query: {},
    settings: {},
    headers: () => login.headers(),
    refreshAfterUnauthorized: () => login.refresh(),
  };
}

/**
 * The upstream for the operator's settings. `env` is the worker's environment (the variables the
 * operator named in CODEXPI_AGENT_ENV); the model provider is `config.toml`'s `model_provider`
 * (default `openai`). Throws UpstreamError when no credential can be found.
 */
export function resolveUpstream(operatorHome: string, env: NodeJS.ProcessEnv, config?: Table): Upstream {
  const cfg = config ?? readOperatorConfig(operatorHome);
  const providerId = typeof cfg.model_provider === "string" ? cfg.model_provider : "openai";
  const providers = isTable(cfg.model_providers) ? cfg.model_providers : {};
  const provider = isTable(providers[providerId]) ? (providers[providerId] as Table) : null;
  const authFile = path.join(operatorHome, "auth.json");
  const usesOpenAiAuth = providerId === "openai" || provider?.requires_openai_auth === true;
  if (provider && !usesOpenAiAuth) {
    if (typeof provider.base_url !== "string")
      throw new UpstreamError(`model provider ${providerId} in config.toml has no base_url`);
    const headers = { ...stringTable(provider.http_headers) };
    for (const [name, variable] of Object.entries(stringTable(provider.env_http_headers))) {
      const value = env[variable];
      if (value) headers[name.toLowerCase()] = value;
    }
    let key: string | undefined;
    if (typeof provider.env_key === "string") {
      key = env[provider.env_key];
      if (!key)
        throw new UpstreamError(
          `model provider ${providerId} reads its key from ${provider.env_key}, which the worker does not have (name it in CODEXPI_AGENT_ENV)`,
        );
    } else if (typeof provider.experimental_bearer_token === "string")
      key = provider.experimental_bearer_token;
    return staticUpstream("provider", provider.base_url, key ? { ...headers, ...bearer(key) } : headers, {
      wireApi: typeof provider.wire_api === "string" ? provider.wire_api : "responses",
      query: stringTable(provider.query_params),
      settings: carried(provider),
    });
  }
  const base =
    provider && typeof provider.base_url === "string"
      ? provider.base_url
      : (env.OPENAI_BASE_URL ?? OPENAI_BASE);
  const auth = readAuth(authFile);
  const settings = provider ? carried(provider) : {};
  const fileKey =
    typeof auth?.OPENAI_API_KEY === "string" && auth.OPENAI_API_KEY ? auth.OPENAI_API_KEY : null;
  if (fileKey) return staticUpstream("api_key", base, bearer(fileKey), { settings });
  if (providerId === "openai" && isTable(auth?.tokens))
    return chatgptUpstream(chatgptLogin(authFile, env), cfg);
  const envKey = env.OPENAI_API_KEY;
  if (envKey) return staticUpstream("api_key", base, bearer(envKey), { settings });
  throw new UpstreamError(
    `no model credential: ${authFile} holds neither an API key nor a ChatGPT login, and OPENAI_API_KEY is not set`,
  );
}
