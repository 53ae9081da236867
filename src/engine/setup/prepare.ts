import path from "node:path";
import type { Kernel } from "../kernel.js";
import type { Project } from "../schema.js";
import {
  cacheEntry,
  cacheMode,
  pruneCache,
  readCacheMeta,
  restoreCache,
  storeCache,
  untrackedPaths,
} from "./cache.js";
import { SetupUnreadable, setupCommandOf } from "./command.js";
import { runSetup, type SetupRun } from "./runner.js";
import { readSetupSecrets } from "./secrets.js";
import { setupNetwork } from "./setupNetwork.js";

/** The project fields a setup needs. */
export type SetupProject = Pick<
  Project,
  "id" | "name" | "path" | "setup_command" | "network_mode" | "network_hosts"
>;

/** A setup that did not succeed: its turn (or verification) fails with this cause and tail. */
export class SetupFailed extends Error {
  override name = "SetupFailed";
  constructor(
    /** `exit`: non-zero status; `timeout`: killed at the limit; `unusable`: it could not run, or its result cannot be used. */
    readonly why: "exit" | "timeout" | "unusable",
    /** The end of its output (or the reason it could not run), secrets redacted. */
    readonly tail: string,
    readonly exitCode: number | null = null,
  ) {
    super(`setup failed (${why}${exitCode !== null ? ` ${exitCode}` : ""})`);
  }
}

/** How a workspace was prepared: `hash` is `none` for a project without setup. */
export interface Prepared {
  hash: string;
  /** `ran`: the setup ran here; `cache`: its earlier result was brought in; `none`: no setup. */
  how: "ran" | "cache" | "none";
  run?: SetupRun;
}

/**
 * Prepares a fresh workspace (a new lane, an orchestration's clone) for its agent: runs the
 * project's setup there, jailed, with its secrets and its network — or, when `base` is given and
 * an earlier run at that base with the same setup is cached, brings that result in without
 * running anything. A successful run made at `base` is cached for the next one; a failed one is
 * not (the next workspace tries again). Throws SetupFailed.
 */
export async function prepareWorkspace(
  engine: Pick<Kernel, "config" | "logger">,
  project: SetupProject,
  workdir: string,
  base: string | null,
  /** `withoutSecrets`: a fork's code is set up (a lane from a fork's pull request): never with a secret. */
  opts: { withoutSecrets?: boolean } = {},
): Promise<Prepared> {
  const { config } = engine;
  const log = engine.logger.child({ project: project.name, workdir });
  const network = setupNetwork(project, config.dataDir);
  let command: ReturnType<typeof setupCommandOf>;
  try {
    command = setupCommandOf(project, workdir, network);
  } catch (err) {
    if (err instanceof SetupUnreadable) throw new SetupFailed("unusable", err.message);
    throw err;
  }
  if (!command) return { hash: "none", how: "none" };
  const entry = base ? cacheEntry(config.dataDir, project.id, base, command.hash) : null;
  if (entry && readCacheMeta(entry)) {
    await restoreCache(entry, workdir);
    log.info({ entry }, "setup: the cached result was brought in");
    return { hash: command.hash, how: "cache" };
  }
  const run = await runSetup({
    cwd: workdir,
    argv: command.argv,
    allowedAlternates: [path.join(project.path, ".git", "objects")],
    network,
    secrets: opts.withoutSecrets ? {} : readSetupSecrets(config.dataDir, project.id),
    timeoutMs: config.setupTimeoutMs,
    jail: config.jail,
  });
  // The tail is redacted (runSetup registered the secrets first): safe to log.
  log.info(
    { exitCode: run.exitCode, timedOut: run.timedOut, durationMs: run.durationMs, tail: run.tail },
    "setup ran",
  );
  if (!run.ok) throw new SetupFailed(run.timedOut ? "timeout" : "exit", run.tail, run.exitCode);
  if (base) {
    let paths: string[];
    try {
      paths = await untrackedPaths(config.jail, workdir);
    } catch (err) {
      throw new SetupFailed("unusable", (err as Error).message);
    }
    try {
      await storeCache(config.dataDir, project.id, { base, hash: command.hash }, workdir, paths, cacheMode());
      pruneCache(config.dataDir, project.id);
    } catch (err) {
      // The workspace is prepared all the same; the next one runs the setup again.
      log.warn({ err }, "setup: its result could not be cached");
    }
  }
  return { hash: command.hash, how: "ran", run };
}
