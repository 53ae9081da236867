import type { Config } from "./config.js";

/**
 * The one redactor: every text that leaves the process (Slack messages, files, modals, ephemeral
 * answers, log lines) passes through it. Known token formats keep their public prefix so that a
 * reader knows what was removed (`xoxb-[redacted]`, `sk-proj-[redacted]`, `AKIA[redacted]`,
 * `Bearer [redacted]`); a private key block becomes `[redacted private key]`; an exact secret value
 * registered at start-up (the bot's own tokens) becomes `[redacted]`.
 */
export const REDACTED = "[redacted]";

/** What a PEM private-key block is replaced with. */
export const REDACTED_PRIVATE_KEY = "[redacted private key]";

/** Registered values shorter than this are ignored: redacting them would mangle ordinary text. */
const MIN_SECRET_LENGTH = 8;

/** A stretch of text to replace. */
interface Span {
  start: number;
  end: number;
  mark: string;
}

/** Finds the secrets of one kind in a text. */
type Rule = (text: string) => Span[];

/**
 * A rule from a global regex whose first group, when present, is a public prefix kept before the
 * mark. Overlapping matches count too: a token's characters may swallow the start of the next
 * secret ("…Bearer abc=bearer def"), which must still be found.
 */
function regexRule(
  pattern: RegExp,
  mark: (prefix: string) => string = (prefix) => `${prefix}${REDACTED}`,
): Rule {
  return (text) => {
    const spans: Span[] = [];
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
      spans.push({ start: m.index, end: m.index + m[0].length, mark: mark(m[1] ?? "") });
      pattern.lastIndex = m.index + 1;
    }
    return spans;
  };
}

const PEM_BEGIN = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/g;
const PEM_END = /-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/g;
// Header lines ("Proc-Type: 4,ENCRYPTED") and base64 lines, after a real or a JSON-escaped newline.
const PEM_LINES = /(?:(?:\\[nr]|[^\S\n]*\n|[^\S\n]+)(?:[A-Za-z-]+: [^\n"\\]*|[A-Za-z0-9+/=]{8,}))+/y;

/**
 * PEM private-key blocks: from BEGIN to the next END, the whole block; without an END (a truncated
 * quote), or with a `"` before it (the END belongs to another string of a JSON log line), the
 * header and the key lines after it. Linear: BEGINs find their END and quote by forward pointers.
 */
const pemRule: Rule = (text) => {
  if (!text.includes("-----BEGIN ")) return [];
  const spans: Span[] = [];
  const ends = [...text.matchAll(PEM_END)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
  const quotes = [...text.matchAll(/"/g)].map((m) => m.index);
  let e = 0;
  let q = 0;
  for (const begin of text.matchAll(PEM_BEGIN)) {
    const headerEnd = begin.index + begin[0].length;
    while (e < ends.length && (ends[e]?.start ?? 0) < headerEnd) e++;
    while (q < quotes.length && (quotes[q] ?? 0) < headerEnd) q++;
    const end = ends[e];
    const quote = quotes[q];
    if (end && (quote === undefined || quote > end.start)) {
      spans.push({ start: begin.index, end: end.end, mark: REDACTED_PRIVATE_KEY });
      continue;
    }
    PEM_LINES.lastIndex = headerEnd;
    const lines = PEM_LINES.exec(text);
    if (lines)
      spans.push({ start: begin.index, end: headerEnd + lines[0].length, mark: REDACTED_PRIVATE_KEY });
  }
  return spans;
};

// Minimum lengths and boundaries keep ordinary words out: "task-list", "sk-learn", a short
// "xoxb-…" placeholder in documentation, "ASIAN" are never tokens. A boundary may also be a
// JSON escape (`\n` before a key in a log line or a serialized plan).
const RULES: readonly Rule[] = [
  pemRule,
  // Slack bot, user, app-configuration and refresh tokens; app-level tokens.
  regexRule(/(xox[abeposr]-)[A-Za-z0-9-]{10,}/g),
  regexRule(/(xapp-)[A-Za-z0-9-]{10,}/g),
  // OpenAI (and look-alike) keys: long, and either very long or holding a digit, so that prose
  // such as "sk-learn-compatible-interface" stays; "task-…" is not "sk-…" (the boundary).
  regexRule(
    /(?<=^|[^A-Za-z0-9_-]|\\[nrt])(sk-(?:proj-|svcacct-|admin-|ant-)?)(?=[A-Za-z0-9_-]{40}|[A-Za-z0-9_-]*\d)[A-Za-z0-9_-]{20,}/g,
  ),
  // GitHub personal, OAuth, user-to-server, server-to-server and refresh tokens; fine-grained PATs.
  regexRule(/(github_pat_)[A-Za-z0-9_]{30,}/g),
  regexRule(/(gh[pousr]_)[A-Za-z0-9]{30,}/g),
  // AWS access key ids (long-term and temporary).
  regexRule(/(?<=^|[^A-Za-z0-9]|\\[nrt])(AKIA|ASIA)[A-Z0-9]{16}/g),
  // HTTP credentials: "Authorization: Bearer …", "bearer …", "Authorization: Basic …".
  regexRule(/(?<=^|[^A-Za-z0-9_]|\\[nrt])(bearer[ \t]+)[A-Za-z0-9._~+/=-]{16,}/gi),
  regexRule(
    /(?<=^|[^A-Za-z0-9_]|\\[nrt])(authorization[ \t]*[:=][ \t]*(?:basic|token)[ \t]+)[A-Za-z0-9._~+/=-]{8,}/gi,
  ),
  // A password in a URL ("postgres://user:password@host/db"), whatever its length; the scheme and
  // user stay. The password is what lies between the user's colon and the last "@" before the host.
  regexRule(/(?<=^|[^A-Za-z0-9+.-])([a-z][a-z0-9+.-]*:\/\/[^\s:/?#@"'\\]+:)[^\s/?#"'\\]*(?=@)/gi),
];

const registered = new Set<string>();
let exactRule: Rule | null = null;

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Registers exact secret values (the bot's tokens, from the configuration) for every later
 * redaction in this process. Values shorter than MIN_SECRET_LENGTH are ignored.
 */
export function registerSecrets(values: Iterable<string | null | undefined>): void {
  for (const raw of values) {
    const v = raw?.trim() ?? "";
    // A value found inside a mark would be "redacted" again on every pass.
    if (v.length >= MIN_SECRET_LENGTH && ![REDACTED, REDACTED_PRIVATE_KEY].some((mark) => mark.includes(v)))
      registered.add(v);
  }
  exactRule = buildExactRule();
}

/** Forgets every registered value (tests register their own). */
export function clearRegisteredSecrets(): void {
  registered.clear();
  exactRule = null;
}

/**
 * The configuration's secret values: the Slack bot and app tokens, the signing secret, the
 * metrics token (CODEXPI_METRICS_TOKEN), the PostgreSQL password of DATABASE_URL, and the model credentials named in CODEXPI_AGENT_ENV (read from `env`), which agents can see and echo.
 */
export function configuredSecrets(
  config: Pick<Config, "slack" | "agentEnv"> & Partial<Pick<Config, "database" | "metrics">>,
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  const credentials = config.agentEnv.map((name) => env[name]);
  const db = config.database;
  const dbPassword = db?.dialect === "postgres" ? decodeURIComponent(new URL(db.url).password) : undefined;
  return [
    config.slack.botToken,
    config.slack.appToken,
    config.slack.signingSecret,
    config.metrics?.token,
    dbPassword,
    ...credentials,
  ].filter((v): v is string => Boolean(v));
}

function buildExactRule(): Rule | null {
  if (registered.size === 0) return null;
  // A value is also looked for as JSON escapes it (log lines are JSON); longest first, so that a
  // value containing another is removed whole.
  const forms = new Set<string>();
  for (const v of registered) {
    forms.add(v);
    forms.add(JSON.stringify(v).slice(1, -1));
  }
  const alternatives = [...forms].sort((a, b) => b.length - a.length).map(escapeRegExp);
  return regexRule(new RegExp(alternatives.join("|"), "g"), () => REDACTED);
}

/**
 * `text` with every secret replaced. Matches of all rules are found on the original text and
 * overlapping ones merged, so that no rule can leave a piece of a secret another rule cut into.
 * Idempotent, and text without secrets comes back unchanged (the same string).
 */
export function redactText(text: string): string {
  if (text.length < MIN_SECRET_LENGTH) return text;
  // A mark can end a boundary that kept a neighbour from matching ("…XYZsk-…" after an AWS key):
  // passes repeat until nothing changes, which is what makes redaction idempotent.
  let current = text;
  for (let pass = 0; pass < 4; pass++) {
    const next = redactOnce(current);
    if (next === current) return current;
    current = next;
  }
  return current;
}

function redactOnce(text: string): string {
  const rules = exactRule ? [...RULES, exactRule] : RULES;
  const spans = rules.flatMap((rule) => rule(text));
  if (spans.length === 0) return text;
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Span[] = [];
  for (const s of spans) {
    const last = merged[merged.length - 1];
    if (last && s.start < last.end) last.end = Math.max(last.end, s.end);
    else merged.push({ ...s });
  }
  let out = "";
  let pos = 0;
  for (const s of merged) {
    out += text.slice(pos, s.start) + s.mark;
    pos = s.end;
  }
  return out + text.slice(pos);
}

/**
 * Whether bytes that are not text (an image, a PDF) hold a secret the redactor would remove from
 * a text: a registered value or a known token format, written as plain bytes. Such bytes cannot be
 * redacted without breaking the file; they are withheld instead. (Compressed streams can hide
 * a secret from this look: archives are refused for that reason.)
 */
export function containsSecret(bytes: Buffer): boolean {
  // latin1 maps each byte to one character: an ASCII token reads as itself, whatever surrounds it.
  const text = bytes.toString("latin1");
  return redactText(text) !== text;
}

/** A copy of a JSON-like value with every string (not the keys) redacted; other values as they are. */
export function redactDeep<T>(value: T): T {
  if (typeof value === "string") return redactText(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v) as unknown) as T;
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactDeep(v)])) as T;
  }
  return value;
}
