import fs from "node:fs";
import path from "node:path";
import { EngineError } from "../errors.js";
import { isForbiddenAgentVariable } from "../isolation/index.js";

// Setup secrets (issue 31, item 4): values a project's setup reads from its environment (a
// registry token, a private index's password). Like forge tokens they live in a file under the
// data directory's `credentials/` (0700, each file 0600), never in the database: rows are read by
// every process, every `serve` and every backup, and no jail shows the data directory. One file
// per project (`setup-<project id>.json`, so that a rename keeps them). A worker host has its own
// data directory: a project placed there reads the secrets set on that host (docs/using.md, "Setup").
// The CLI writes a value from its standard input, never from an argument (`ps` shows arguments).

/** A setup secret's name: an environment variable's, upper case, at most 64 characters. */
const KEY = /^[A-Z_][A-Z0-9_]{0,63}$/;

/**
 * Names the setup's environment already has, or that are codexpi's own: a secret may not shadow
 * them (a `PATH` secret would change which programs the setup runs; a `CODEXPI_…` one could be
 * taken for codexpi's setting by whoever reads the environment).
 */
const RESERVED = new Set([
  "PATH",
  "HOME",
  "TMPDIR",
  "CI",
  "LANG",
  "LANGUAGE",
  "TZ",
  "TERM",
  "PWD",
  "SHELL",
  "USER",
  "CODEX_HOME",
  "CODEX_BIN",
  "DATABASE_URL",
  "LOG_LEVEL",
  "HOST",
  "PORT",
  "HEALTH_HOST",
  "HEALTH_PORT",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "ALL_PROXY",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "NODE_EXTRA_CA_CERTS",
]);

/** Throws unless `key` may name a setup secret. */
export function checkSecretKey(key: string): string {
  if (!KEY.test(key) || RESERVED.has(key) || isForbiddenAgentVariable(key) || /^LC_/.test(key))
    throw new EngineError("invalid", "setup_secret_key_invalid", { key: key.slice(0, 80) });
  return key;
}

/** The most a secret's value may hold (a token, a certificate, a small key file). */
const MAX_VALUE = 64 * 1024;

/** A value as stored: what was read, without the line end a shell adds; never empty, never a NUL. */
function checkedValue(raw: string): string {
  const value = raw.replace(/\r?\n$/, "");
  if (!value || value.length > MAX_VALUE || value.includes("\0"))
    throw new EngineError("invalid", "setup_secret_value_invalid");
  return value;
}

const credentialsDir = (dataDir: string) => path.join(dataDir, "credentials");

/** The file holding a project's setup secrets. */
const setupSecretsPath = (dataDir: string, projectId: string): string =>
  path.join(credentialsDir(dataDir), `setup-${projectId}.json`);

/** A project's setup secrets, name → value; none when the file is missing (or not a regular file). */
export function readSetupSecrets(dataDir: string, projectId: string): Record<string, string> {
  const file = setupSecretsPath(dataDir, projectId);
  // lstat: a link planted in place of the file is not followed.
  const st = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!st?.isFile()) return {};
  const parsed = JSON.parse(fs.readFileSync(file, "utf8")) as unknown;
  if (!parsed || typeof parsed !== "object") return {};
  return Object.fromEntries(
    Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === "string" && KEY.test(e[0])),
  );
}

/** Writes a project's secrets (the directory 0700, the file 0600), atomically; none removes the file. */
function writeAll(dataDir: string, projectId: string, secrets: Record<string, string>): string {
  const dir = credentialsDir(dataDir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  const file = setupSecretsPath(dataDir, projectId);
  if (Object.keys(secrets).length === 0) {
    fs.rmSync(file, { force: true });
    return file;
  }
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(secrets)}\n`, { mode: 0o600, flag: "w" });
  fs.chmodSync(tmp, 0o600);
  fs.renameSync(tmp, file);
  return file;
}

/** Stores one setup secret (replacing its value); answers the file. */
export function setSetupSecret(dataDir: string, projectId: string, key: string, raw: string): string {
  const secrets = readSetupSecrets(dataDir, projectId);
  secrets[checkSecretKey(key)] = checkedValue(raw);
  return writeAll(dataDir, projectId, secrets);
}

/** Removes one setup secret; answers whether there was one. */
export function unsetSetupSecret(dataDir: string, projectId: string, key: string): boolean {
  const secrets = readSetupSecrets(dataDir, projectId);
  if (!Object.hasOwn(secrets, key)) return false;
  delete secrets[key];
  writeAll(dataDir, projectId, secrets);
  return true;
}

/** The names of a project's setup secrets, sorted: never their values. */
export const setupSecretNames = (dataDir: string, projectId: string): string[] =>
  Object.keys(readSetupSecrets(dataDir, projectId)).sort();
