import type { ExpressionBuilder } from "kysely";
import type { Logger } from "pino";
import type { Clock } from "../clock.js";
import { claimLock, dialectOf, writeTransaction, type Database } from "../database.js";
import { emit } from "../outbox.js";
import type { DB, PromptQueueTable } from "../schema.js";
import type { HostLoad } from "../system/index.js";
import { finishItem } from "../conversations/index.js";
import type { RecordAgentOutcome } from "../outcomeHook.js";
import type { Claim, DispatchResult, PauseReason } from "../kernel.js";
import {
  backgroundWindowOpen,
  globalPolicy,
  holdsCheckout,
  projectOverrides,
  type RuntimePolicy,
} from "../projects/index.js";
import type {} from "../orchestrations/schema.js"; // the orchestrations table
import { isBackground } from "../conversations/index.js";
import { processStartTime } from "../system/index.js";
import type { Locale } from "../../i18n/index.js";
import { failureNote } from "../../i18n/failures.js";
import { moveConversation } from "../conversations/index.js";
import { moveItem } from "../conversations/index.js";

/** Starts the worker process for a claimed item; returns its pid. */
export type WorkerSpawner = (queueId: string, attempt: number) => Promise<{ pid: number }>;

const BATCH = 100;
/**
 * PostgreSQL's page of candidates: each one read is row-locked (a write to its tuple), so a claim
 * with few free slots reads a few times as many as it may start, then pages on.
 */
const lockedPage = (free: number) => Math.min(BATCH, Math.max(8, free * 4));

/** Why new work would wait now: the concurrency limit is reached, or load or memory is too high. */
export function pauseReasons(policy: RuntimePolicy, running: number, host: HostLoad): PauseReason[] {
  const paused: PauseReason[] = [];
  if (running >= policy.max_concurrent) paused.push("concurrency");
  if (host.loadPercent() > policy.load_pause_percent) paused.push("load");
  if (host.memoryPercent() > policy.memory_pause_percent) paused.push("memory");
  return paused;
}

/**
 * Claims as many queued items as the runtime policy allows, highest priority first and FIFO within
 * a priority, skipping items whose conversation is busy (never blocking the ones behind them), whose
 * project is at its limit or is direct with an agent in its checkout already, or that are
 * background work outside the window. One write
 * transaction, so concurrent dispatchers in several processes never exceed the limits: on SQLite
 * the file's write lock; on PostgreSQL only the placement's `claimLock` (the running count against
 * the limits is the one global invariant), the candidates read `FOR UPDATE SKIP LOCKED` (a row
 * another transaction holds — a stop, a finish — is passed over, never waited for), and no global
 * lock: claims of different hosts run side by side, and no unrelated write holds them back.
 *
 * `placement` is the worker host this process runs for (null: the coordinator's own machine):
 * only items of projects placed there are claimed and counted, so the limits are this machine's.
 * The guarded move (`status = 'queued'`) keeps two hosts from taking one item (moveProject takes
 * both hosts' claim locks, so a project's items are never counted under two placements at once).
 *
 * With `hostTtlMs`, a placement whose heartbeat is older than it claims nothing: the coordinator
 * would interrupt the item at once (interruptLostHosts, same rule). Without this, the workers of a
 * `codexpi host` that died kept claiming its items through their own dispatch (found by
 * scripts/soak-multi.ts: 28 items claimed after the host's death, all interrupted unrun).
 */
export async function claimSlots(
  db: Database,
  clock: Clock,
  host: HostLoad,
  placement: string | null = null,
  hostTtlMs?: number,
): Promise<DispatchResult> {
  const postgres = dialectOf(db) === "postgres";
  return writeTransaction(
    db,
    async (trx) => {
      const now = clock.now();
      if (!(await placementAlive(trx, placement, hostTtlMs, now))) return { started: [], paused: [] };
      const policy = await globalPolicy(trx);
      const running = await runningItems(trx, placement);
      const paused = pauseReasons(policy, running.length, host);
      if (paused.length > 0) return { started: [], paused };

      const windowOpen = backgroundWindowOpen(
        policy.background_start_hour,
        policy.background_end_hour,
        host.localHour(now),
      );
      const slots = new Slots(policy, running, windowOpen);
      const started: Claim[] = [];

      for (let offset = 0; slots.free > 0; ) {
        const page = postgres ? lockedPage(slots.free) : BATCH;
        let claimedHere = 0;
        const batch = await queuedPage(trx, placement, { page, offset, postgres });
        await slots.loadOverrides(
          trx,
          batch.map((b) => b.project_id),
        );
        for (const item of batch) {
          if (slots.free === 0) break;
          if (!slots.admits(item)) continue;
          const claim = await claimItem(trx, item, now);
          if (!claim) continue;
          slots.take(item);
          started.push(claim);
          claimedHere += 1;
        }
        if (batch.length < page) break;
        // The rows claimed here are no longer queued: the next page starts after those still are.
        offset += batch.length - claimedHere;
      }
      return { started, paused: [] };
    },
    { locks: [claimLock(placement)] },
  );
}

/** False when the placement's heartbeat is older than the host TTL (or it is not registered). */
async function placementAlive(
  trx: Database,
  placement: string | null,
  hostTtlMs: number | undefined,
  now: number,
): Promise<boolean> {
  if (placement === null || hostTtlMs === undefined) return true;
  const registered = await trx
    .selectFrom("hosts")
    .select("heartbeat_at")
    .where("name", "=", placement)
    .executeTakeFirst();
  return Boolean(registered && registered.heartbeat_at >= now - hostTtlMs);
}

/**
 * What the checkout rule reads of a queue item's conversation (see `holdsCheckout`), besides its
 * project's workspace mode, role and group: whether an orchestration (its own clone) owns it.
 */
function inOrchestration(eb: ExpressionBuilder<DB & { q: PromptQueueTable }, "q">) {
  return eb
    .exists(
      eb
        .selectFrom("orchestrations as o")
        .select("o.id")
        .whereRef("o.conversation_id", "=", "q.conversation_id"),
    )
    .as("in_orchestration");
}

/** The items running now on this placement, with their conversation and project. */
function runningItems(trx: Database, placement: string | null) {
  return trx
    .selectFrom("prompt_queue as q")
    .innerJoin("conversations as c", "c.id", "q.conversation_id")
    .innerJoin("projects as p", "p.id", "c.project_id")
    .select(["q.conversation_id", "c.project_id"])
    .select((eb) => ["p.workspace_mode", "p.role", "p.execution_group", inOrchestration(eb)])
    .where("q.status", "=", "running")
    .where("p.host", placement === null ? "is" : "=", placement)
    .execute();
}

/** One page of queued candidates on this placement, in claim order (row-locked on PostgreSQL). */
function queuedPage(
  trx: Database,
  placement: string | null,
  { page, offset, postgres }: { page: number; offset: number; postgres: boolean },
) {
  return trx
    .selectFrom("prompt_queue as q")
    .innerJoin("conversations as c", "c.id", "q.conversation_id")
    .innerJoin("projects as p", "p.id", "c.project_id")
    .select(["q.id", "q.attempt", "q.conversation_id", "q.origin_kind", "c.project_id"])
    .select((eb) => ["p.workspace_mode", "p.role", "p.execution_group", inOrchestration(eb)])
    .where("q.status", "=", "queued")
    .where("p.host", placement === null ? "is" : "=", placement)
    .orderBy("q.priority", "desc")
    .orderBy("q.seq", "asc")
    .limit(page)
    .offset(offset)
    .$if(postgres, (qb) => qb.forUpdate("q").skipLocked())
    .execute();
}

type Candidate = Awaited<ReturnType<typeof queuedPage>>[number];
type Running = Awaited<ReturnType<typeof runningItems>>[number];

/** The project whose checkout an item takes while it runs (a direct project's), else null. */
const checkoutOf = (item: Running | Candidate): string | null =>
  holdsCheckout({ ...item, inOrchestration: Boolean(item.in_orchestration) }) ? item.project_id : null;

/**
 * What one claim may still give out: free slots under the global limit, conversations already
 * busy, each project's running count against its own limit, the direct projects whose checkout
 * an agent already works in (one at a time, whatever the limits say), and whether background
 * work may start.
 */
class Slots {
  free: number;
  private readonly busy: Set<string>;
  private readonly checkoutsTaken: Set<string>;
  private readonly perProject = new Map<string, number>();
  private readonly overrides = new Map<string, number>();
  private readonly knownProjects = new Set<string>();

  constructor(
    private readonly policy: RuntimePolicy,
    running: Running[],
    private readonly windowOpen: boolean,
  ) {
    this.free = policy.max_concurrent - running.length;
    this.busy = new Set(running.map((r) => r.conversation_id));
    this.checkoutsTaken = new Set(running.map(checkoutOf).filter((p) => p !== null));
    for (const r of running) this.count(r.project_id);
  }

  /** Reads the per-project limits of projects not seen yet in this claim (one query per page). */
  async loadOverrides(trx: Database, projectIds: string[]): Promise<void> {
    const missing = [...new Set(projectIds)].filter((id) => !this.knownProjects.has(id));
    for (const id of missing) this.knownProjects.add(id);
    for (const [id, max] of await projectOverrides(trx, missing)) this.overrides.set(id, max);
  }

  /**
   * Skipped, not waited for: a busy conversation, a project at its limit, a direct project's
   * checkout another agent works in, background work out of hours.
   */
  admits(item: Candidate): boolean {
    if (this.busy.has(item.conversation_id)) return false;
    const limit = this.overrides.get(item.project_id) ?? this.policy.max_concurrent;
    if ((this.perProject.get(item.project_id) ?? 0) >= limit) return false;
    const checkout = checkoutOf(item);
    if (checkout !== null && this.checkoutsTaken.has(checkout)) return false;
    return this.windowOpen || !isBackground(item.origin_kind);
  }

  take(item: Candidate): void {
    this.busy.add(item.conversation_id);
    const checkout = checkoutOf(item);
    if (checkout !== null) this.checkoutsTaken.add(checkout);
    this.count(item.project_id);
    this.free -= 1;
  }

  private count(projectId: string): void {
    this.perProject.set(projectId, (this.perProject.get(projectId) ?? 0) + 1);
  }
}

/** Moves one candidate to running (guarded: null when another claim took it first) and says so. */
async function claimItem(trx: Database, item: Candidate, now: number): Promise<Claim | null> {
  const attempt = item.attempt + 1;
  const claimed = await moveItem(trx, item.id, "running", {
    attempt,
    slot_acquired_at: now,
    started_at: now,
    worker_pid: null,
    worker_start_time: null,
    claimed_at: null,
  });
  if (!claimed) return null;
  await moveConversation(trx, item.conversation_id, "running", { updated_at: now });
  await emit(trx, now, {
    kind: "conversation.started",
    conversationId: item.conversation_id,
    queueId: item.id,
  });
  return { id: item.id, attempt, conversationId: item.conversation_id };
}

/** Dependencies of the dispatcher. */
export interface DispatcherDeps {
  db: Database;
  clock: Clock;
  host: HostLoad;
  spawn: WorkerSpawner;
  hook: RecordAgentOutcome;
  logger: Logger;
  locale: Locale;
  /** The worker host this process dispatches for; null: the coordinator's own machine. */
  placement?: string | null;
  /** The host TTL: a placement whose heartbeat is older claims nothing (see claimSlots). */
  hostTtlMs?: number;
}

/**
 * Claims slots, then — after commit, never inside the transaction — spawns one worker per claim
 * and records its pid and start time. A spawn that fails finishes the item as `spawn_failed`.
 */
export async function dispatch(deps: DispatcherDeps): Promise<DispatchResult> {
  const result = await claimSlots(deps.db, deps.clock, deps.host, deps.placement ?? null, deps.hostTtlMs);
  for (const claim of result.started) {
    const log = deps.logger.child({ queueId: claim.id, attempt: claim.attempt });
    try {
      const { pid } = await deps.spawn(claim.id, claim.attempt);
      await deps.db
        .updateTable("prompt_queue")
        .set({ worker_pid: pid, worker_start_time: processStartTime(pid) })
        .where("id", "=", claim.id)
        .where("attempt", "=", claim.attempt)
        .where("status", "=", "running")
        .where("worker_pid", "is", null)
        .execute();
      await deps.db
        .updateTable("conversations")
        .set({ worker_pid: pid })
        .where("id", "=", claim.conversationId)
        .execute();
      log.info({ pid }, "worker spawned");
    } catch (err) {
      log.error({ err }, "worker spawn failed");
      await writeTransaction(
        deps.db,
        (trx) =>
          finishItem(trx, deps.clock, deps.hook, claim, {
            status: "failed",
            content: null,
            error: failureNote("worker.spawn_failed", { detail: (err as Error).message }),
            errorCode: "spawn_failed",
          }),
        { locks: [] }, // a fenced finish: see finishItem
      );
    }
  }
  return result;
}
