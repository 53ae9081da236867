import type { Kernel } from "../kernel.js";
import { EngineError } from "../errors.js";
import { assertAdmin, projectForActor, projectForOwner, type Actor } from "../projects/index.js";
import type { Project } from "../schema.js";
import {
  checkSecretKey,
  prepareWorkspace,
  SetupFailed,
  setSetupSecret,
  setupSecretNames,
  unsetSetupSecret,
} from "../setup/index.js";

/** What a direct run of a project's setup answers (`/codex setup`, `codexpi setup`). */
export type DirectSetupResult =
  | { project: string; outcome: "none" }
  | { project: string; outcome: "ok"; seconds: number; tail: string }
  | { project: string; outcome: "failed"; why: SetupFailed["why"]; code: number | null; tail: string };

/** A project's setup: its command, its secrets, and a run on demand in a direct project's checkout. */
export interface SetupApi {
  /** Sets (admins) the command run as `sh -c` in the jail; null clears it (the committed script, if any). */
  setCommand(actor: Actor, name: string, command: string | null): Promise<Project>;
  /** Stores a setup secret (admins) in the project's 0600 file; answers the file. */
  setSecret(actor: Actor, name: string, key: string, value: string): Promise<string>;
  /** Removes a setup secret (admins); answers whether there was one. */
  unsetSecret(actor: Actor, name: string, key: string): Promise<boolean>;
  /** The names of a project's setup secrets (admins): never their values. */
  secretNames(actor: Actor, name: string): Promise<string[]>;
  /**
   * Runs a `direct` project's setup in its checkout (its owner or an admin), while none of its
   * agents runs or waits; nothing is cached (the checkout has no base of its own).
   */
  runDirect(actor: Actor, name: string): Promise<DirectSetupResult>;
}

const MAX_COMMAND = 4000;

export function setupApi(kernel: Kernel): SetupApi {
  const { db, config } = kernel;
  return {
    setCommand: async (actor, name, command) => {
      assertAdmin(actor);
      const text = command?.trim() ?? null;
      if (text !== null && (!text || text.length > MAX_COMMAND || text.includes("\0")))
        throw new EngineError("invalid", "setup_command_invalid");
      const project = await projectForActor(db, actor, name);
      await db.updateTable("projects").set({ setup_command: text }).where("id", "=", project.id).execute();
      return { ...project, setup_command: text };
    },
    setSecret: async (actor, name, key, value) => {
      assertAdmin(actor);
      const project = await projectForActor(db, actor, name);
      return setSetupSecret(config.dataDir, project.id, checkSecretKey(key), value);
    },
    unsetSecret: async (actor, name, key) => {
      assertAdmin(actor);
      const project = await projectForActor(db, actor, name);
      return unsetSetupSecret(config.dataDir, project.id, key);
    },
    secretNames: async (actor, name) => {
      assertAdmin(actor);
      const project = await projectForActor(db, actor, name);
      return setupSecretNames(config.dataDir, project.id);
    },
    runDirect: async (actor, name) => {
      const project = await projectForOwner(db, actor, name);
      if (project.workspace_mode !== "direct")
        throw new EngineError("invalid", "setup_direct_only", { name: project.name });
      // One agent at a time in a direct checkout: the setup is one more, so it waits for none.
      const busy = await db
        .selectFrom("prompt_queue as q")
        .innerJoin("conversations as c", "c.id", "q.conversation_id")
        .select("q.id")
        .where("c.project_id", "=", project.id)
        .where("q.status", "in", ["queued", "running"])
        .executeTakeFirst();
      if (busy) throw new EngineError("conflict", "project_busy", { name: project.name });
      try {
        const prepared = await prepareWorkspace(kernel, project, project.path, null);
        if (prepared.how === "none") return { project: project.name, outcome: "none" };
        const seconds = Math.round((prepared.run?.durationMs ?? 0) / 100) / 10;
        return { project: project.name, outcome: "ok", seconds, tail: prepared.run?.tail ?? "" };
      } catch (err) {
        if (!(err instanceof SetupFailed)) throw err;
        return { project: project.name, outcome: "failed", why: err.why, code: err.exitCode, tail: err.tail };
      }
    },
  };
}
