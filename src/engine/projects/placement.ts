import fs from "node:fs";
import path from "node:path";
import { claimLock, takeLocks, writeTransaction, type Database } from "../database.js";
import { EngineError } from "../errors.js";
import {
  ensurePrivateDirectory,
  readRegularFile,
  regularFilesUnder,
  replaceFile,
} from "../isolation/index.js";
import { projectCodexState } from "../isolation/index.js";
import type { Project } from "../schema.js";
import { type Actor, assertAdmin } from "./projectRights.js";
import { projectForActor } from "./projects.js";

/** A project's placement before and after a move (null: the coordinator's own machine). */
export interface Move {
  project: Project;
  from: string | null;
  to: string | null;
}

/**
 * Places a project on another worker host (admins). Refused while one of its items runs: its
 * Codex thread is being written on the old host. Queued items simply wait for the new host.
 * The check and the write share one write transaction, so a claim cannot slip in between: on
 * PostgreSQL (where claims take no global lock) it takes the claim locks of both placements.
 */
export async function moveProject(
  db: Database,
  actor: Actor,
  name: string,
  to: string | null,
): Promise<Move> {
  assertAdmin(actor);
  // Global lock (PostgreSQL): a rare admin move; it also takes both placements' claim locks.
  return writeTransaction(db, async (trx) => {
    const project = await projectForActor(trx, actor, name);
    // Global lock: moves of one project are serialised; the placement read stays true until commit.
    await takeLocks(trx, [claimLock(project.host), claimLock(to)]);
    const running = await trx
      .selectFrom("prompt_queue as q")
      .innerJoin("conversations as c", "c.id", "q.conversation_id")
      .select("q.id")
      .where("c.project_id", "=", project.id)
      .where("q.status", "=", "running")
      .executeTakeFirst();
    if (running) throw new EngineError("conflict", "project_running", { name: project.name });
    if (to !== null) {
      const host = await trx.selectFrom("hosts").select("name").where("name", "=", to).executeTakeFirst();
      if (!host) throw new EngineError("not_found", "host_not_found", { name: to });
    }
    await trx.updateTable("projects").set({ host: to }).where("id", "=", project.id).execute();
    return { project: { ...project, host: to }, from: project.host, to };
  });
}

/** Where a host keeps its Codex state: its registered data dir; the coordinator's is `ownDataDir`. */
export async function hostDataDir(
  db: Database,
  host: string | null,
  ownDataDir: string,
): Promise<string | null> {
  if (host === null) return ownDataDir;
  const row = await db.selectFrom("hosts").select("data_dir").where("name", "=", host).executeTakeFirst();
  return row?.data_dir ?? null;
}

/**
 * Copies a project's Codex rollout files (`<data dir>/agents/<id>/codex-home/sessions/`) from one
 * data dir to another, keeping newer copies at the target; the rollout file is all Codex needs to
 * resume a thread elsewhere. Returns how many files were copied. The project's agents write both
 * sides: only regular files reached without a link are read, and each copy is renamed into place
 * (a link planted at the target is replaced, never written through).
 */
export function copyCodexSessions(fromDataDir: string, toDataDir: string, projectId: string): number {
  const fromState = projectCodexState(fromDataDir, projectId);
  const toState = projectCodexState(toDataDir, projectId);
  if (path.resolve(fromState) === path.resolve(toState)) return 0;
  const fromRoot = path.dirname(fromState);
  const files = regularFilesUnder(fromRoot, path.join(path.basename(fromState), "sessions"));
  if (!files.length) return 0;
  // The jail's Codex state is private to its owner (0700), as the worker keeps it.
  ensurePrivateDirectory(toState);
  let copied = 0;
  for (const rel of files) {
    const inState = path.relative(path.basename(fromState), rel);
    const existing = fs.lstatSync(path.join(toState, inState), { throwIfNoEntry: false });
    const sourceTime = fs.lstatSync(path.join(fromRoot, rel)).mtimeMs;
    if (existing?.isFile() && existing.mtimeMs >= sourceTime) continue;
    const data = readRegularFile(fromRoot, rel);
    if (!data) continue; // replaced by something else meanwhile
    replaceFile(toState, inState, data);
    copied += 1;
  }
  return copied;
}
