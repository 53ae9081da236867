import { t } from "../i18n/index.js";
import type { ForgeDeps } from "./deps.js";
import type { ForgeSettings } from "./store/threads.js";

// Pull requests from forks (issue 33, item 2). Refused unless the project allows them (`codexpi
// forge set NAME --forks on`, default off); allowed, a fork's pull request runs only in a lane
// (branch mode): started from codexpi's own copy of its head (fetched from the base repository's
// `refs/pull/N/head` or `refs/merge-requests/N/head`), set up without the project's secrets, and
// never pushed (the engine refuses: `lane_from_fork`; publish.ts says so once).

/** Whether a fork's pull request may run in this project. */
export async function forksRun(
  deps: ForgeDeps,
  projectId: string,
  settings: ForgeSettings,
): Promise<boolean> {
  if (settings.forks !== "on") return false;
  return (await deps.api.forge.project(projectId)).workspaceMode === "branch";
}

/**
 * What publishing a fork's pull request's turn says: once per pull request, when its lane has
 * commits, that nothing is pushed (null otherwise). Nothing is asked of the engine's push.
 */
export async function forkNotPushed(deps: ForgeDeps, conversationId: string, threadKey: string) {
  const card = await deps.api.lanes.card(conversationId);
  if (!card || card.changes.totalCommits === 0) return null;
  if (!(await deps.threads.firstNotice(`fork_push:${threadKey}`, deps.clock.now()))) return null;
  return t(deps.locale, "forge.push.fork");
}
