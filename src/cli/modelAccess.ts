import fs from "node:fs";
import path from "node:path";

/** Why Codex cannot talk to its model before it even tries: no login, or its key variable unset. */
export type AccessProblem = { kind: "not_logged_in" } | { kind: "key_missing"; variable: string };

/** The provider's section of config.toml (`[model_providers.<id>]`), up to the next table. */
function providerSection(toml: string, provider: string): string {
  const start = toml.search(new RegExp(`^\\[model_providers\\.${provider.replace(/\W/g, "\\$&")}\\]`, "m"));
  if (start < 0) return "";
  const rest = toml.slice(start).split("\n").slice(1);
  const end = rest.findIndex((l) => l.startsWith("["));
  return (end < 0 ? rest : rest.slice(0, end)).join("\n");
}

/**
 * What Codex will need to authenticate, read from the operator's config.toml, checked at once:
 * OpenAI (the default provider, or one that `requires_openai_auth`) needs a login in
 * CODEX_HOME/auth.json or an API key variable; a provider with `env_key` needs that variable.
 * Without this, Codex retries "waiting for network" for half a minute before anything is said.
 */
export function modelAccessProblem(home: string, env: NodeJS.ProcessEnv): AccessProblem | null {
  let toml = "";
  try {
    toml = fs.readFileSync(path.join(home, "config.toml"), "utf8");
  } catch {
    // No config: Codex's defaults (OpenAI).
  }
  const top = toml.split(/^\[/m)[0] ?? "";
  const provider = /^model_provider\s*=\s*"([^"]+)"/m.exec(top)?.[1] ?? "openai";
  const section = providerSection(toml, provider);
  const envKey = /^env_key\s*=\s*"([^"]+)"/m.exec(section)?.[1];
  if (envKey) return env[envKey] ? null : { kind: "key_missing", variable: envKey };
  const openAiAuth = provider === "openai" || /^requires_openai_auth\s*=\s*true/m.test(section);
  if (!openAiAuth) return null;
  const loggedIn =
    fs.existsSync(path.join(home, "auth.json")) || Boolean(env.OPENAI_API_KEY) || Boolean(env.CODEX_API_KEY);
  return loggedIn ? null : { kind: "not_logged_in" };
}
