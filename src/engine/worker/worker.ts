import type { Kernel } from "../kernel.js";
import type { Outcome } from "../conversations/index.js";
import type { RetryPolicy } from "../conversations/index.js";
import { claimItem } from "./claim.js";
import { afterTurnFiles, withInbox } from "./turnFiles.js";
import { prepareLaunch } from "./launch.js";
import { type ApprovalsFor, superviseTurn } from "./supervise.js";
import { cancelRequestedAt } from "./stopRequests.js";
import { laneAfterTurn } from "../lanes/index.js";
import type { Conversation } from "../schema.js";
import { fencedOutcomeWriter, type OutcomeWriter, outcomeOf, recordOutcome } from "./finish.js";

// A worker run in four steps, one module each under ./worker/: claim the item, prepare Codex's
// launch (workdir, binary, jail), supervise the turn (stops, progress, approvals, steering, log
// redaction), finish (the kept, fenced, retried outcome). This file is their public face.
export { recordCodexStart } from "./claim.js";
export { outcomeOf, type OutcomeWriter } from "./finish.js";

/** How a worker run ended; `skipped` when the item was no longer ours to run. */
export type WorkerResult = "done" | "failed" | "cancelled" | "skipped";

/** Seams of a worker run: the outcome write (a full disk in tests) and its backoff; approvals. */
export interface WorkerOptions {
  writeOutcome?: OutcomeWriter;
  retry?: RetryPolicy;
  /**
   * Who answers this turn's approval requests (the approvals feature fills it in). With a handler
   * the app-server runner asks (policy `on-request`); without one, escalations are refused (`never`).
   */
  approvals?: ApprovalsFor;
}

/**
 * Body of `codexpi worker <queue-id>`: claims the item for this process, runs one Codex turn,
 * and writes the outcome in one transaction — then dispatches what may start next.
 */
export async function runWorker(
  engine: Kernel,
  queueId: string,
  attempt: number,
  opts: WorkerOptions = {},
): Promise<WorkerResult> {
  const log = engine.logger.child({ queueId, attempt });
  const claim = await claimItem(engine, queueId, attempt);
  if (!claim) {
    log.warn("queue item is not ours to run (finished, reaped or re-attempted)");
    return "skipped";
  }
  const finish = async (outcome: Outcome): Promise<WorkerResult> => {
    await recordOutcome(engine, log, { id: queueId, attempt }, outcome, {
      writeOutcome: opts.writeOutcome ?? fencedOutcomeWriter(engine),
      retry: opts.retry,
    });
    await engine.dispatch().catch((err) => log.error({ err }, "dispatch after finish failed"));
    return outcome.status;
  };

  const prepared = await prepareLaunch(engine, claim, log);
  if ("failed" in prepared) return finish(prepared.failed);
  let turn: Awaited<ReturnType<typeof superviseTurn>>;
  let launch: typeof prepared;
  try {
    launch = await withInbox(engine, log, claim.item, prepared);
    turn = await superviseTurn(engine, log, { ...claim, attempt }, launch, opts.approvals);
  } finally {
    // The turn is over: its gateway refuses whatever its Codex (or anything it left) still sends.
    await prepared.services?.end();
  }
  const network = {
    gatewayUsage: prepared.services?.usage(),
    egressRefused: prepared.services?.refusals() ?? [],
    unreachableMs: prepared.services?.unreachableMs(),
  };
  // Before the lane's commit: the outbox leaves the workspace (and is never committed).
  const handBack = await afterTurnFiles(engine, log, claim.item, launch, claim.project.host !== null);
  // Whatever the turn's end, what its agent changed in a lane is committed on the lane's branch
  // before the outcome is written: the outcome's readers (the what-changed card) diff that branch.
  if (claim.project.workspace_mode === "branch") await commitLane(engine, log, claim.conversation);
  if ("failed" in turn) return finish({ ...turn.failed, handBack, ...network });
  // A person's cancel, or a stop that no signal explains, is a cancel; a signal alone is a shutdown.
  const cancelRequested = await cancelRequestedAt(engine.db, queueId);
  return finish({
    ...outcomeOf(
      turn.result,
      Boolean(cancelRequested) || (turn.result.ended === "cancelled" && !turn.signalled),
      engine.config,
    ),
    handBack,
    ...network,
  });
}

/** Commits the turn's changes in the conversation's lane, if it has one; a failure is logged, never fatal. */
async function commitLane(
  engine: Kernel,
  log: Kernel["logger"],
  conversation: Pick<Conversation, "id" | "title">,
): Promise<void> {
  const committed = await laneAfterTurn(engine, conversation);
  if (committed && "error" in committed)
    log.warn(
      { error: committed.error },
      "the lane's changes could not be committed; the next turn will try again",
    );
}
