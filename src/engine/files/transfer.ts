import fs from "node:fs";
import path from "node:path";
import type { Kysely } from "kysely";
import type { Clock } from "../clock.js";
import { fileLock, writeTransaction } from "../database.js";
import type { DB } from "../schema.js";
import type { Attachment } from "./attachments.js";
import { handBackDirOf, stagingRoot } from "./paths.js";
import { readRegular } from "./safeFs.js";
import "./schema.js";

// Files between machines: a project placed on a worker host (`codexpi host`) runs where the bot's
// data directory is not. The files shared with its prompts are put in the shared database when the
// prompt is queued, and the host's worker stages them from there; the files its agent hands back go
// the other way, and the bot takes them before it uploads. Rows leave once delivered (or with
// housekeeping, a week later). Base64 in pieces: one column type on both dialects, and no single
// value as large as the file.

/** Raw bytes per row (4 MiB of base64). */
const CHUNK_BYTES = 3 * 1024 * 1024;

/** The owner of a staged file's rows: its folder and name under the staging area, the same on every machine. */
function stagedOwner(staged: string): string {
  return `in:${path.basename(path.dirname(staged))}/${path.basename(staged)}`;
}

const handBackOwner = (queueId: string): string => `out:${queueId}`;

/**
 * Stores one file (replacing an earlier copy under the same owner and name), whole or not at all:
 * a reader never gets half a file from a writer that died. Its own rows only: no global write lock.
 */
async function putFile(
  db: Kysely<DB>,
  now: number,
  owner: string,
  name: string,
  bytes: Buffer,
): Promise<void> {
  await writeTransaction(
    db,
    async (trx) => {
      await trx.deleteFrom("file_chunks").where("owner", "=", owner).where("name", "=", name).execute();
      for (let seq = 0, at = 0; seq === 0 || at < bytes.length; seq++, at += CHUNK_BYTES) {
        const data = bytes.subarray(at, at + CHUNK_BYTES).toString("base64");
        await trx.insertInto("file_chunks").values({ owner, name, seq, data, created_at: now }).execute();
      }
    },
    { locks: [fileLock(owner, name)] },
  );
}

/** Every file stored under `owner`, by name. */
async function filesOf(db: Kysely<DB>, owner: string): Promise<Map<string, Buffer>> {
  const rows = await db
    .selectFrom("file_chunks")
    .select(["name", "data"])
    .where("owner", "=", owner)
    .orderBy("name")
    .orderBy("seq")
    .execute();
  const parts = new Map<string, Buffer[]>();
  for (const r of rows) {
    const list = parts.get(r.name) ?? [];
    list.push(Buffer.from(r.data, "base64"));
    parts.set(r.name, list);
  }
  return new Map([...parts].map(([name, list]) => [name, Buffer.concat(list)]));
}

const dropOwner = (db: Kysely<DB>, owner: string) =>
  db.deleteFrom("file_chunks").where("owner", "=", owner).execute();

/**
 * Puts a prompt's staged files in the database, for the worker host that will run it, and removes
 * them here (a worker on this machine would fetch them back just the same). A file no longer
 * staged (or not a regular file) is left out: the worker skips it as it would locally.
 */
export async function shipStaged(
  db: Kysely<DB>,
  clock: Clock,
  dataDir: string,
  attachments: readonly Attachment[],
): Promise<void> {
  const root = `${stagingRoot(dataDir)}${path.sep}`;
  for (const a of attachments) {
    if (!path.resolve(a.staged).startsWith(root)) continue;
    const bytes = readRegular(a.staged, Number.MAX_SAFE_INTEGER);
    if (!Buffer.isBuffer(bytes)) continue;
    await putFile(db, clock.now(), stagedOwner(a.staged), "file", bytes);
    fs.rmSync(a.staged, { force: true });
  }
}

/** A staged file as this machine stages it: the same folder and name under its own staging area. */
export function stagedHere(dataDir: string, a: Attachment): Attachment {
  return { ...a, staged: path.join(stagingRoot(dataDir), stagedOwner(a.staged).slice("in:".length)) };
}

/**
 * The worker host's side: the prompt's files as staged here (its own staging area), fetched from
 * the database when they are not on this machine. A file neither here nor there is left as it was
 * (the inbox skips it).
 */
export async function receiveStaged(
  db: Kysely<DB>,
  dataDir: string,
  attachments: readonly Attachment[],
): Promise<Attachment[]> {
  const out: Attachment[] = [];
  for (const a of attachments) {
    const owner = stagedOwner(a.staged);
    const local = stagedHere(dataDir, a).staged;
    if (!fs.existsSync(local)) {
      const bytes = (await filesOf(db, owner)).get("file");
      if (bytes) {
        // The data directory is the engine's own (no agent writes there): plain calls.
        fs.mkdirSync(path.dirname(local), { recursive: true });
        fs.writeFileSync(local, bytes, { mode: 0o600 });
      }
    }
    out.push({ ...a, staged: local });
  }
  return out;
}

/** Forgets the database's copies of a prompt's staged files (its turn is over). */
export async function dropShippedStaged(db: Kysely<DB>, attachments: readonly Attachment[]): Promise<void> {
  for (const a of attachments) await dropOwner(db, stagedOwner(a.staged));
}

/**
 * The worker host's side of a hand-back: the files its turn left in this machine's hand-back
 * folder go into the database, and the folder goes.
 */
export async function shipHandBack(
  db: Kysely<DB>,
  clock: Clock,
  dataDir: string,
  queueId: string,
  names: readonly string[],
): Promise<void> {
  const dir = handBackDirOf(dataDir, queueId);
  for (const name of names) {
    const bytes = readRegular(path.join(dir, name), Number.MAX_SAFE_INTEGER);
    if (Buffer.isBuffer(bytes)) await putFile(db, clock.now(), handBackOwner(queueId), name, bytes);
  }
  fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * The bot's side: a turn's handed-back files that crossed through the database are written into
 * this data directory's hand-back folder (where the upload reads them), then forgotten there.
 * Answers how many came.
 */
export async function receiveHandBack(db: Kysely<DB>, dataDir: string, queueId: string): Promise<number> {
  const files = await filesOf(db, handBackOwner(queueId));
  if (!files.size) return 0;
  const dir = handBackDirOf(dataDir, queueId);
  fs.mkdirSync(dir, { recursive: true });
  let written = 0;
  for (const [name, bytes] of files) {
    // The worker wrote safe names; a row that is not one is not written anywhere.
    if (path.basename(name) !== name || name === "." || name === "..") continue;
    fs.writeFileSync(path.join(dir, name), bytes, { mode: 0o600 });
    written++;
  }
  await dropOwner(db, handBackOwner(queueId));
  return written;
}

/** Forgets files stored before `before` (epoch ms) that nobody took. Answers how many rows went. */
export async function pruneFileChunks(db: Kysely<DB>, before: number): Promise<number> {
  const r = await db.deleteFrom("file_chunks").where("created_at", "<", before).executeTakeFirst();
  return Number(r.numDeletedRows);
}
