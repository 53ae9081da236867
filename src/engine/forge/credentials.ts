import fs from "node:fs";
import path from "node:path";
import { EngineError } from "../errors.js";

// Forge tokens live in files under the data directory's `credentials/` (0700, each file 0600):
// never in the database (rows are read by every process and by backups), never in a repository
// or a jail's binds (no jail shows the data directory). One per project
// (`forge-<project>.token`), else the install's (`forge.token`). The CLI writes them from its
// standard input, never from an argument (`ps` shows arguments).

/** Where a data directory keeps codexpi's credentials. */
function credentialsDir(dataDir: string): string {
  return path.join(dataDir, "credentials");
}

/** The token file of a project (its name), or the install's when `project` is null. */
export function forgeTokenPath(dataDir: string, project: string | null): string {
  return path.join(credentialsDir(dataDir), project === null ? "forge.token" : `forge-${project}.token`);
}

/** A token as stored: one line, no blank, printable ASCII (what forges issue). */
function checkedToken(raw: string): string {
  const token = raw.trim();
  if (!/^[\x21-\x7e]{8,4096}$/.test(token)) throw new EngineError("invalid", "forge_token_invalid");
  return token;
}

/** Stores a forge token (replacing any), the directory 0700 and the file 0600, atomically. */
export function writeForgeToken(dataDir: string, project: string | null, raw: string): string {
  const token = checkedToken(raw);
  const dir = credentialsDir(dataDir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  const file = forgeTokenPath(dataDir, project);
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, token, { mode: 0o600, flag: "w" });
  fs.chmodSync(tmp, 0o600);
  fs.renameSync(tmp, file);
  return file;
}

/** Removes a stored token; answers whether there was one. */
export function removeForgeToken(dataDir: string, project: string | null): boolean {
  const file = forgeTokenPath(dataDir, project);
  if (!fs.existsSync(file)) return false;
  fs.rmSync(file, { force: true });
  return true;
}

/** A token and where it came from. */
export interface ForgeToken {
  token: string;
  scope: "project" | "install";
}

function readToken(file: string): string | null {
  // lstat: a link planted in place of the file is not followed (the directory is codexpi's own,
  // but a token must come from the file the operator wrote, nowhere else).
  const st = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!st?.isFile()) return null;
  const text = fs.readFileSync(file, "utf8").trim();
  return text || null;
}

/** The token for a project: its own, else the install's; null when neither is stored. */
export function readForgeToken(dataDir: string, project: string): ForgeToken | null {
  const own = readToken(forgeTokenPath(dataDir, project));
  if (own) return { token: own, scope: "project" };
  const install = readToken(forgeTokenPath(dataDir, null));
  return install ? { token: install, scope: "install" } : null;
}
