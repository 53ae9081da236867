import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { EngineError } from "../errors.js";
import type { ForgeKind } from "./remoteUrl.js";

// A project's webhook secret (issue 33): what GitHub signs its deliveries with
// (`X-Hub-Signature-256`), what GitLab sends as `X-Gitlab-Token`. Kept like the forge token, in a
// 0600 file under the data directory's credentials/ (never in a row, never in a jail); it never
// leaves the engine: the forge front end asks whether a delivery is genuine, and is told yes or no.

function secretPath(dataDir: string, project: string): string {
  return path.join(dataDir, "credentials", `forge-webhook-${project}.secret`);
}

/** Stores a project's webhook secret (replacing any), 0600 in a 0700 directory, atomically. */
export function writeWebhookSecret(dataDir: string, project: string, raw: string): string {
  const secret = raw.trim();
  // Printable ASCII without blanks: what both forges accept, long enough to resist guessing.
  if (!/^[\x21-\x7e]{16,256}$/.test(secret)) throw new EngineError("invalid", "forge_webhook_secret_invalid");
  const file = secretPath(dataDir, project);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.chmodSync(path.dirname(file), 0o700);
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, secret, { mode: 0o600 });
  fs.chmodSync(tmp, 0o600);
  fs.renameSync(tmp, file);
  return file;
}

/** Removes a project's webhook secret; answers whether there was one. */
export function removeWebhookSecret(dataDir: string, project: string): boolean {
  const file = secretPath(dataDir, project);
  if (!fs.existsSync(file)) return false;
  fs.rmSync(file, { force: true });
  return true;
}

function readSecret(dataDir: string, project: string): string | null {
  const file = secretPath(dataDir, project);
  const st = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!st?.isFile()) return null;
  return fs.readFileSync(file, "utf8").trim() || null;
}

/** Whether a project has a webhook secret stored. */
export function hasWebhookSecret(dataDir: string, project: string): boolean {
  return readSecret(dataDir, project) !== null;
}

/** Equal in constant time, whatever the lengths (both sides hashed to the same size first). */
function sameSecret(a: string, b: string): boolean {
  const ha = createHash("sha256").update(a).digest();
  const hb = createHash("sha256").update(b).digest();
  return timingSafeEqual(ha, hb) && a.length === b.length;
}

/**
 * Whether a delivery is genuine for a project: GitHub's `sha256=<hex HMAC-SHA256 of the raw body>`,
 * GitLab's token as given; both compared in constant time. False without a stored secret: an
 * unsigned install accepts nothing.
 */
export function verifyWebhook(
  dataDir: string,
  project: string,
  forge: ForgeKind,
  rawBody: Buffer,
  header: string,
): boolean {
  const secret = readSecret(dataDir, project);
  if (!secret || !header) return false;
  if (forge === "gitlab") return sameSecret(header, secret);
  const expected = `sha256=${createHmac("sha256", secret).update(rawBody).digest("hex")}`;
  return sameSecret(header.toLowerCase(), expected);
}
