/**
 * The environments codexpi gives the processes it starts, built from allow-lists: a variable
 * reaches a worker, Codex or an acceptance test only if it is named here (or, for the model's
 * credential, named by the operator in CODEXPI_AGENT_ENV). Everything else — Slack tokens, the
 * signing secret, codexpi's own settings, whatever else the operator's shell exported — stays out.
 */

/** Variables every process we start may see: where programs are, language, time zone, proxies. */
const BASE = [
  "PATH",
  "LANG",
  "LANGUAGE",
  "TZ",
  "TERM",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "ALL_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "all_proxy",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
];
const LOCALE = /^LC_[A-Z]+$/;

/** What a worker needs besides BASE to open the same database and settings as the bot. */
const WORKER = [
  "HOME",
  "CODEXPI_DATA_DIR",
  "DATABASE_URL",
  "CODEXPI_TURN_TIMEOUT",
  "CODEXPI_SETUP_TIMEOUT",
  "CODEXPI_IDLE_TIMEOUT",
  "CODEXPI_CONNECT_TIMEOUT",
  "CODEXPI_LOCALE",
  "CODEXPI_JAIL",
  "CODEXPI_RUNNER",
  "CODEXPI_APPROVAL_TTL",
  "CODEXPI_MEMORY_CHARS",
  "CODEXPI_AGENT_ENV",
  "LOG_LEVEL",
  "CODEX_BIN",
  "CODEX_HOME",
  "NODE_EXTRA_CA_CERTS",
  // The model gateway refreshes a ChatGPT login where Codex would (tests point it at a fake).
  "CODEX_REFRESH_TOKEN_URL_OVERRIDE",
  "OPENAI_BASE_URL",
];

/** Default names of the model credential Codex may read from its environment. */
export const DEFAULT_AGENT_ENV = ["OPENAI_API_KEY"];

// Never passed on, whatever an allow-list says: a typo in CODEXPI_AGENT_ENV must not leak these.
const NEVER = /^(SLACK_|CODEXPI_ADMINS$|CODEXPI_METRICS_TOKEN$|DATABASE_URL$)/;

function pick(base: NodeJS.ProcessEnv, names: Iterable<string>, test?: RegExp): Record<string, string> {
  const env: Record<string, string> = {};
  const wanted = new Set(names);
  for (const [k, v] of Object.entries(base)) {
    if (v === undefined) continue;
    if (wanted.has(k) || test?.test(k)) env[k] = v;
  }
  return env;
}

/**
 * A worker's environment: BASE, the worker's own settings and the model credential names the
 * operator allowed (the worker hands them to Codex). No Slack secret, ever.
 */
export function workerEnvironment(
  base: NodeJS.ProcessEnv,
  agentEnv: readonly string[],
  settings: Record<string, string | undefined>,
): Record<string, string> {
  const env = pick(base, [...BASE, ...WORKER, ...agentEnv.filter((n) => !NEVER.test(n))], LOCALE);
  for (const [k, v] of Object.entries(settings)) if (v !== undefined) env[k] = v;
  return env;
}

/**
 * Codex's environment: BASE, the model credential names allowed, and what the caller sets
 * (CODEX_HOME, HOME, PATH inside the jail). Codex itself drops variables named like KEY, SECRET or TOKEN from
 * the commands it runs (its shell_environment_policy default), so the credential stays with Codex.
 */
export function codexEnvironment(
  base: NodeJS.ProcessEnv,
  agentEnv: readonly string[],
  extra: Record<string, string | undefined>,
): Record<string, string> {
  const env = pick(base, [...BASE, ...agentEnv.filter((n) => !NEVER.test(n))], LOCALE);
  // An `undefined` in `extra` removes the variable (a host's proxy inside a jail that cannot reach it).
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/** An acceptance test's environment: BASE only (no credential of any kind), plus CI=1. */
export function testCommandEnvironment(
  base: NodeJS.ProcessEnv,
  extra: Record<string, string>,
): Record<string, string> {
  return { ...pick(base, BASE, LOCALE), CI: "1", ...extra };
}

/** Whether a variable name could ever be passed to an agent (for validating CODEXPI_AGENT_ENV). */
export function isForbiddenAgentVariable(name: string): boolean {
  return NEVER.test(name) || name.startsWith("CODEXPI_");
}
