import fs from "node:fs";
import path from "node:path";
import type { Kernel } from "../kernel.js";
import { t, type Locale } from "../../i18n/index.js";
// The orchestrations table is declared by orchestrations/schema.ts (a module augmentation of DB,
// seen program-wide): importing it here would make workspaces and orchestrations a folder cycle.
import { cloneBase, commitClone, isSealedClone, makeClone, removeClone } from "./clones.js";
import { repoGit, type GitJailMode } from "../isolation/index.js";
import { pruneInboxes } from "../conversations/index.js";
import { capText } from "../text/index.js";

// The self project is codexpi's own source. Its agents (incident and run self-repairs, and any
// conversation of the project) never work in that checkout: each conversation gets a clone of the
// project's current HEAD under the data directory, on its own branch. What the agent changed is
// committed there after it finished; the result is that branch and a report naming it. Nothing
// merges, builds or deploys it: a person fetches, reviews and deploys.

/** Where a conversation of the self project works: its own clone under the data directory. */
export const selfClonePath = (dataDir: string, conversationId: string): string =>
  path.join(dataDir, "clones", "self", conversationId);

/** The branch holding a self conversation's work (in its clone only). */
export const selfCloneBranch = (conversationId: string): string => `codexpi/repair-${conversationId}`;

/**
 * The clone a conversation of the self project works in, made from the project's current HEAD
 * at its first turn and reused by later turns (and by an attempt an interruption cut short).
 */
export async function ensureSelfClone(
  config: { dataDir: string; jail: GitJailMode },
  conversationId: string,
  selfPath: string,
): Promise<string> {
  const dest = selfClonePath(config.dataDir, conversationId);
  // A reused clone keeps its own base; a new one starts at what the self project holds now.
  const base =
    fs.existsSync(dest) && isSealedClone(dest)
      ? "HEAD"
      : await repoGit({ jail: config.jail, cwd: selfPath }, ["rev-parse", "--verify", "HEAD^{commit}"]);
  await makeClone(config.jail, selfPath, dest, selfCloneBranch(conversationId), base);
  return dest;
}

/** What a self conversation's clone holds once its agent finished. */
export type SelfCloneResult =
  | { clone: string; branch: string; revision: string; changed: boolean }
  | { clone: string; branch: string; error: string };

/**
 * Commits what the agent left in its clone on the clone's branch (engine side, outside any
 * transaction). Null when the conversation never got a clone (its agent never ran).
 */
async function commitSelfClone(
  config: { dataDir: string; jail: GitJailMode },
  conversationId: string,
  message: string,
): Promise<SelfCloneResult | null> {
  const clone = selfClonePath(config.dataDir, conversationId);
  const branch = selfCloneBranch(conversationId);
  if (!fs.existsSync(clone)) return null;
  try {
    const revision = await commitClone(config.jail, clone, message);
    return { clone, branch, revision, changed: revision !== cloneBase(clone) };
  } catch (err) {
    return { clone, branch, error: capText(err instanceof Error ? err.message : String(err), 500) };
  }
}

/** The report's sentence: the branch and the clone, how to fetch them, and that nothing is deployed. */
function selfCloneReport(locale: Locale, r: SelfCloneResult): string {
  if ("error" in r) return t(locale, "repair.result_failed", { clone: r.clone, detail: r.error });
  if (!r.changed) return t(locale, "repair.result_unchanged", { clone: r.clone, branch: r.branch });
  return t(locale, "repair.result_branch", {
    clone: r.clone,
    branch: r.branch,
    revision: r.revision.slice(0, 12),
  });
}

/** Commits a finished self conversation's clone and returns its report (null without a clone). */
export async function finishSelfClone(
  engine: Pick<Kernel, "config" | "logger">,
  conversationId: string,
): Promise<string | null> {
  const locale = engine.config.locale;
  const result = await commitSelfClone(
    engine.config,
    conversationId,
    t(locale, "repair.commit_message", { id: conversationId.slice(0, 8) }),
  );
  if (result && "error" in result)
    engine.logger.warn(
      { conversationId, clone: result.clone, error: result.error },
      "the self-repair's clone could not be committed",
    );
  return result ? selfCloneReport(locale, result) : null;
}

/** `text` followed by the report; neither is cut (views fit long texts to Slack with a mark). */
export function withReport(text: string, report: string | null): string {
  if (!report) return text;
  return text.trim() ? `${text}\n\n${report}` : report;
}

const CLONE_MEMORY_MS = 30 * 24 * 3600_000;

/**
 * Housekeeping: removes the clones of self conversations idle for a month (their branch was
 * reported; whoever wanted it fetched it) and the clones of finished orchestrations whose cleanup
 * failed. A conversation with work queued or running keeps its clone. The inboxes of idle
 * conversations go too (`pruneInboxes`; not counted in the result, which counts clones).
 */
export async function pruneClones(
  engine: Pick<Kernel, "db" | "clock" | "config" | "logger">,
  maxAgeMs = CLONE_MEMORY_MS,
): Promise<number> {
  let removed = 0;
  const selfDir = path.join(engine.config.dataDir, "clones", "self");
  for (const name of dirsIn(selfDir)) {
    const conversation = await engine.db
      .selectFrom("conversations")
      .select(["id", "updated_at"])
      .where("id", "=", name)
      .executeTakeFirst();
    if (conversation && conversation.updated_at >= engine.clock.now() - maxAgeMs) continue;
    const busy = await engine.db
      .selectFrom("prompt_queue")
      .select("id")
      .where("conversation_id", "=", name)
      .where("status", "in", ["queued", "running"])
      .executeTakeFirst();
    if (busy) continue;
    removeClone(path.join(selfDir, name));
    removed += 1;
  }
  const orchDir = path.join(engine.config.dataDir, "clones", "orch");
  for (const name of dirsIn(orchDir)) {
    const clone = path.join(orchDir, name);
    const o = await engine.db
      .selectFrom("orchestrations")
      .select("status")
      .where("worktree_path", "=", clone)
      .executeTakeFirst();
    if (o?.status !== "MERGED" && o?.status !== "CANCELLED") continue;
    removeClone(clone);
    removed += 1;
  }
  const inboxes = await pruneInboxes(engine, maxAgeMs);
  if (inboxes) engine.logger.info({ inboxes }, "old inboxes removed");
  if (removed) engine.logger.info({ removed }, "old clones removed");
  return removed;
}

function dirsIn(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
}
