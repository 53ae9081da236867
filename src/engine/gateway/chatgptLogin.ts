import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { request } from "undici";

/**
 * A ChatGPT login kept on the host. Codex's `auth.json` holds an access token (short-lived), a
 * refresh token and the account id; the gateway sends the access token upstream and, when it is
 * about to expire or the upstream answers 401, refreshes it here — outside every jail — the way
 * Codex itself does (the same token endpoint and client id, `CODEX_REFRESH_TOKEN_URL_OVERRIDE`
 * honoured), then writes the new tokens back to the operator's file, atomically, so that every
 * worker on the host and the operator's own Codex use them.
 */

/** The login's headers and its refresh. */
export interface ChatgptLogin {
  headers(): Promise<Record<string, string>>;
  refresh(): Promise<boolean>;
}

const TOKEN_URL = "https://auth.openai.com/oauth/token";
/** Codex's own OAuth client id (the pinned binary's). */
const CLIENT_ID = "app_EMoamEEZ73f0CkXaXp7hrann";
/** Refresh this long before the access token's expiry. */
const EARLY_MS = 60_000;
/** A refresh lock older than this was left by a dead process. */
const STALE_LOCK_MS = 30_000;

interface Tokens {
  access_token: string;
  refresh_token: string;
  id_token?: string;
  account_id?: string;
}

function readTokens(file: string): { auth: Record<string, unknown>; tokens: Tokens } | null {
  try {
    const auth = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
    const t = auth.tokens as Partial<Tokens> | undefined;
    if (!t || typeof t.access_token !== "string" || typeof t.refresh_token !== "string") return null;
    return { auth, tokens: t as Tokens };
  } catch {
    return null;
  }
}

/** The `exp` of a JWT, in epoch ms, or null when it has none (then only a 401 refreshes it). */
export function jwtExpiry(token: string): number | null {
  const payload = token.split(".")[1];
  if (!payload) return null;
  try {
    const exp = (JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { exp?: unknown }).exp;
    return typeof exp === "number" ? exp * 1000 : null;
  } catch {
    return null;
  }
}

/** Runs `fn` holding the login's refresh lock (a file made with O_EXCL beside auth.json). */
async function withLock<T>(file: string, fn: () => Promise<T>): Promise<T> {
  const lock = `${file}.codexpi-refresh.lock`;
  const deadline = Date.now() + STALE_LOCK_MS;
  for (;;) {
    try {
      fs.closeSync(fs.openSync(lock, "wx", 0o600));
      break;
    } catch {
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > STALE_LOCK_MS || Date.now() > deadline) fs.rmSync(lock, { force: true });
      else await new Promise((r) => setTimeout(r, 100));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lock, { force: true });
  }
}

function writeBack(file: string, auth: Record<string, unknown>): void {
  const tmp = path.join(path.dirname(file), `.auth.json.${randomBytes(6).toString("hex")}.tmp`);
  fs.writeFileSync(tmp, `${JSON.stringify(auth, null, 2)}\n`, { mode: 0o600, flag: "wx" });
  fs.renameSync(tmp, file);
}

/** The login in the operator's `auth.json` at `file`. */
export function chatgptLogin(file: string, env: NodeJS.ProcessEnv = process.env): ChatgptLogin {
  const tokenUrl = env.CODEX_REFRESH_TOKEN_URL_OVERRIDE ?? TOKEN_URL;

  /** Refreshes unless someone else did since `stale` was read; whether a new token is there. */
  const refreshFrom = (stale: string): Promise<boolean> =>
    withLock(file, async () => {
      const now = readTokens(file);
      if (!now) return false;
      if (now.tokens.access_token !== stale) return true; // another worker refreshed it
      const res = await request(tokenUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          client_id: CLIENT_ID,
          grant_type: "refresh_token",
          refresh_token: now.tokens.refresh_token,
          scope: "openid profile email",
        }),
        headersTimeout: 30_000,
        bodyTimeout: 30_000,
      });
      const body = (await res.body.json().catch(() => null)) as Partial<Tokens> | null;
      if (res.statusCode !== 200 || !body || typeof body.access_token !== "string") return false;
      const tokens = { ...now.tokens, ...body } as Tokens;
      writeBack(file, { ...now.auth, tokens, last_refresh: new Date().toISOString() });
      return true;
    });

  const current = async (): Promise<Tokens | null> => {
    const read = readTokens(file);
    if (!read) return null;
    const exp = jwtExpiry(read.tokens.access_token);
    if (exp !== null && exp - Date.now() < EARLY_MS && (await refreshFrom(read.tokens.access_token)))
      return readTokens(file)?.tokens ?? read.tokens;
    return read.tokens;
  };

  return {
    async headers() {
      const t = await current();
      if (!t) return {};
      return {
        authorization: `Bearer ${t.access_token}`,
        ...(t.account_id ? { "chatgpt-account-id": t.account_id } : {}),
      };
    },
    async refresh() {
      const t = readTokens(file);
      return t ? refreshFrom(t.tokens.access_token) : false;
    },
  };
}
