import fs from "node:fs";
import path from "node:path";
import type { Kernel } from "../kernel.js";
import { dialectOf, writeTransaction, type Database } from "../database.js";
import { emit } from "../outbox.js";
import { lockConversation } from "./conversationStore.js";
import type { CodexState } from "./codexEvents.js";
import type { Config } from "../../config.js";
import { codexEnvironment } from "../isolation/environment.js";
import { findBwrap } from "../isolation/jail.js";
import { agentNetwork } from "../isolation/agentNetwork.js";
import { jailedCodex, operatorCodexHome, projectCodexState } from "../isolation/codexJail.js";
import { purposeOf, sandboxFor, type SandboxMode } from "./sandboxPolicy.js";
import { agentInstructions, tomlString } from "./agentInstructions.js";
import { redactText } from "../../redaction.js";
import { codexSupportPath, resolveCodexBinary } from "./codexBinary.js";
import type { TurnResult } from "./codexRunner.js";
import { runnerFor, turnRunner } from "./runnerChoice.js";
import type { ApprovalHandler } from "./appServer/approvalTypes.js";
import { approvalHandler } from "../approvals/waiter.js";
import { finishItem, type Outcome } from "./outcome.js";
import { failureNote } from "../../i18n/failures.js";
import { processStartTime } from "./processes.js";
import { logsDir } from "./spawner.js";
import { agentWorkdir } from "../orchestrations/workdir.js";
import { capText } from "../text/cap.js";
import { dropKeptOutcome, keepOutcome, OUTCOME_RETRY, retryWrite, type RetryPolicy } from "./keptOutcome.js";
import { serializeProgress } from "./progress.js";
import { trailingThrottle } from "./throttle.js";
import { steerLoop } from "./steerLoop.js";
import { wakeupsOf } from "../wakeups.js";

const PROGRESS_WRITE_MS = 1_000;
// A long command emits no event: the status's elapsed time is refreshed this often meanwhile.
const PROGRESS_HEARTBEAT_MS = 30_000;
const CANCEL_POLL_MS = 1_000;
/** On PostgreSQL a stop wakes the worker (NOTIFY): the poll is only the safety net there. */
const POSTGRES_CANCEL_POLL_MS = 5_000;

/** How a worker run ended; `skipped` when the item was no longer ours to run. */
export type WorkerResult = "done" | "failed" | "cancelled" | "skipped";

/** Records the Codex process of an attempt (the reaper checks its PID and start time before signalling). */
export async function recordCodexStart(
  db: Database,
  now: number,
  queueId: string,
  attempt: number,
  pid: number,
  startTime: string | null,
): Promise<void> {
  await db
    .updateTable("prompt_queue")
    .set({ codex_pid: pid, codex_start_time: startTime, codex_started_at: now })
    .where("id", "=", queueId)
    .where("attempt", "=", attempt)
    .execute();
}

/** Writes an item's outcome in the database; false when the fence did not match (finished elsewhere). */
export type OutcomeWriter = (item: { id: string; attempt: number }, outcome: Outcome) => Promise<boolean>;

/** Seams of a worker run: the outcome write (a full disk in tests) and its backoff; approvals. */
export interface WorkerOptions {
  writeOutcome?: OutcomeWriter;
  retry?: RetryPolicy;
  /**
   * Who answers this turn's approval requests (the approvals feature fills it in). With a handler
   * the app-server runner asks (policy `on-request`); without one, escalations are refused (`never`).
   */
  approvals?(item: {
    queueId: string;
    attempt: number;
    conversationId: string;
    projectId: string;
  }): ApprovalHandler | undefined;
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
  const { db, clock } = engine;
  const log = engine.logger.child({ queueId, attempt });
  const claimed = await db
    .updateTable("prompt_queue")
    .set({
      worker_pid: process.pid,
      worker_start_time: processStartTime(process.pid),
      claimed_at: clock.now(),
      steer_turn_id: null, // an earlier attempt's turn is gone: this one marks its own once started
    })
    .where("id", "=", queueId)
    .where("attempt", "=", attempt)
    .where("status", "=", "running")
    .where((eb) => eb.or([eb("worker_pid", "is", null), eb("worker_pid", "=", process.pid)]))
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) {
    log.warn("queue item is not ours to run (finished, reaped or re-attempted)");
    return "skipped";
  }
  const item = await db
    .selectFrom("prompt_queue")
    .selectAll()
    .where("id", "=", queueId)
    .executeTakeFirstOrThrow();
  const conversation = await db
    .selectFrom("conversations")
    .selectAll()
    .where("id", "=", item.conversation_id)
    .executeTakeFirstOrThrow();
  const project = await db
    .selectFrom("projects")
    .selectAll()
    .where("id", "=", conversation.project_id)
    .executeTakeFirstOrThrow();
  // Orchestration and self-project agents work in their clone: never the main checkout or the install.
  const workdir = await agentWorkdir(engine, conversation.id, project);

  const writeOutcome: OutcomeWriter =
    opts.writeOutcome ??
    ((item, outcome) =>
      writeTransaction(db, (trx) => finishItem(trx, clock, engine.hook, item, outcome), { locks: [] }));
  const finish = async (outcome: Outcome): Promise<WorkerResult> => {
    // The answer goes to disk first: if this worker dies before the database takes it, the reaper
    // finds it there. Then the database write is retried (full disk, read-only or locked database)
    // until it lands or the item turns out to be finished elsewhere.
    if (!keepOutcome(engine.config, { queueId, attempt, outcome }))
      log.warn("could not keep the outcome beside the worker log (disk full?): holding it in memory");
    const written = await retryWrite(
      () => writeOutcome({ id: queueId, attempt }, outcome),
      opts.retry ?? OUTCOME_RETRY,
      (err, failures, delayMs) => log.error({ err, failures, delayMs }, "outcome write failed; retrying"),
    );
    dropKeptOutcome(engine.config, queueId);
    if (!written) log.warn("outcome not written: the item was finished elsewhere (reaped?)");
    await engine.dispatch().catch((err) => log.error({ err }, "dispatch after finish failed"));
    return outcome.status;
  };

  if (!workdir) {
    return finish({
      status: "failed",
      content: null,
      error: failureNote("orch.worktree_missing"),
      errorCode: "spawn_failed",
    });
  }
  const bin = resolveCodexBinary(engine.config.codexBin);
  if (!bin) {
    return finish({
      status: "failed",
      content: null,
      error: failureNote("worker.codex_missing"),
      errorCode: "spawn_failed",
    });
  }

  const purpose = await purposeOf(db, conversation.id, project);
  const sandbox = sandboxFor(purpose, project.full_access === 1);
  const launch = codexLaunch(engine.config, bin, workdir, project, sandbox);
  if (!launch) {
    return finish({
      status: "failed",
      content: null,
      error: failureNote("worker.jail_missing"),
      errorCode: "spawn_failed",
    });
  }

  const abort = new AbortController();
  let stopAsked = false; // a signal from outside: shutdown unless a cancel was requested
  const onSignal = () => {
    stopAsked = true;
    abort.abort();
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  const poll = setInterval(
    () => {
      db.selectFrom("prompt_queue")
        .select("cancel_requested_at")
        .where("id", "=", queueId)
        .executeTakeFirst()
        .then((r) => r?.cancel_requested_at && abort.abort())
        .catch(() => undefined);
    },
    dialectOf(db) === "postgres" ? POSTGRES_CANCEL_POLL_MS : CANCEL_POLL_MS,
  );
  // On PostgreSQL a stop reaches the worker at once (NOTIFY on commit); the poll stays as a net.
  const offCancel = wakeupsOf(db).on("cancel", (id) => {
    if (id === queueId) abort.abort();
  });

  // Progress is written in order, at most once a second, off the stream's hot path; the newest
  // activity waits for the end of the window rather than being dropped (each write announces
  // itself: the notifier coalesces the edits under Slack's limits).
  let writes: Promise<unknown> = Promise.resolve();
  let knownThread = conversation.codex_thread_id;
  let lastProgress: string | null = null;
  const progress = trailingThrottle<string>(
    PROGRESS_WRITE_MS,
    (activity) => {
      const now = clock.now();
      writes = writes
        .then(() =>
          writeTransaction(
            db,
            async (trx) => {
              const updated = await trx
                .updateTable("prompt_queue")
                .set({ last_activity: activity, last_activity_at: now })
                .where("id", "=", queueId)
                .where("status", "=", "running")
                .executeTakeFirst();
              if (Number(updated.numUpdatedRows) === 0) return;
              // The conversation's events leave in commit order (no global lock: item row, then conversation).
              await lockConversation(trx, conversation.id);
              await emit(trx, now, {
                kind: "conversation.progress",
                conversationId: conversation.id,
                queueId,
                activity,
              });
            },
            { locks: [] },
          ),
        )
        .catch((err) => log.warn({ err }, "progress write failed"));
    },
    () => clock.now(),
  );
  const heartbeat = setInterval(() => lastProgress && progress.push(lastProgress), PROGRESS_HEARTBEAT_MS);
  const onState = (state: CodexState) => {
    const now = clock.now();
    if (state.threadId && state.threadId !== knownThread) {
      knownThread = state.threadId;
      const threadId = state.threadId;
      writes = writes.then(() =>
        db
          .updateTable("conversations")
          .set({ codex_thread_id: threadId, updated_at: now })
          .where("id", "=", conversation.id)
          .execute(),
      );
    }
    if (!state.progress) return;
    const activity = serializeProgress(state.progress);
    if (activity === lastProgress) return;
    lastProgress = activity;
    progress.push(activity);
  };

  fs.mkdirSync(logsDir(engine.config), { recursive: true });
  const stderrFile = path.join(logsDir(engine.config), `codex-${queueId}.log`);
  const runner = runnerFor(engine.config, project);
  // Only a project whose admin chose `on-request` asks; its requests wait for a person's answer.
  const approvals = opts.approvals ?? ((turn) => approvalHandler(engine, turn));
  const onApproval =
    runner === "app-server" && project.approval_mode === "on-request"
      ? approvals({ queueId, attempt, conversationId: conversation.id, projectId: project.id })
      : undefined;
  // A person's follow-up may go into the running turn (app-server only: exec never starts one).
  const steering = steerLoop(engine, { id: queueId, attempt, conversationId: conversation.id });
  let result: TurnResult;
  try {
    result = await turnRunner(runner)({
      bin,
      invocation: {
        cwd: workdir,
        fullAccess: sandbox === "full_access",
        threadId: conversation.codex_thread_id,
        config: {
          // Off by default for the bundled models: with it, a plan arrives as `todo_list` items.
          "tools.update_plan.enabled": "true",
          // Every turn, resumed ones included: the protocol is not part of the thread's history.
          developer_instructions: tomlString(agentInstructions(purpose, engine.config.locale)),
        },
      },
      prompt: item.content,
      env: launch.env,
      wrap: launch.wrap,
      turnTimeoutMs: engine.config.turnTimeoutMs,
      idleTimeoutMs: engine.config.idleTimeoutMs,
      stderrFile,
      signal: abort.signal,
      onSpawn: async (pid, startTime) => {
        await recordCodexStart(db, clock.now(), queueId, attempt, pid, startTime);
        log.info({ codexPid: pid, runner }, "codex started");
      },
      onState,
      onApproval,
      onTurnStarted: steering.onTurnStarted,
    });
  } catch (err) {
    log.error({ err }, "codex could not run");
    return finish({
      status: "failed",
      content: null,
      error: failureNote("worker.spawn_failed", { detail: (err as Error).message }),
      errorCode: "spawn_failed",
    });
  } finally {
    // Before the outcome: a follow-up the turn never took is still queued when the item finishes.
    await steering.stop();
    clearInterval(poll);
    offCancel();
    clearInterval(heartbeat);
    process.off("SIGTERM", onSignal);
    process.off("SIGINT", onSignal);
    progress.flush();
    await writes;
    // Codex writes its stderr straight to this file (never a pipe): redact it once the turn is over.
    redactFileInPlace(stderrFile, log);
  }
  const cancelRequested = (
    await db
      .selectFrom("prompt_queue")
      .select("cancel_requested_at")
      .where("id", "=", queueId)
      .executeTakeFirst()
  )?.cancel_requested_at;
  return finish(
    outcomeOf(
      result,
      Boolean(cancelRequested) || (result.ended === "cancelled" && !stopAsked),
      engine.config,
    ),
  );
}

/**
 * How Codex starts for this project: inside its jail (the default), or — only when the operator
 * turned the jail off — directly, with the same allow-listed environment. Null when the jail is
 * required and bubblewrap is missing: the item fails rather than run unjailed.
 */
function codexLaunch(
  config: Config,
  bin: string,
  workspace: string,
  project: { id: string; path: string },
  sandbox: SandboxMode,
) {
  const support = codexSupportPath(bin);
  if (config.jail === "off") {
    const env = codexEnvironment(process.env, config.agentEnv, {
      CODEX_HOME: config.codexHome,
      PATH: support ? `${support}${path.delimiter}${process.env.PATH ?? ""}` : process.env.PATH,
    });
    return { env, wrap: undefined };
  }
  const bwrap = findBwrap();
  if (!bwrap) return null;
  const operatorHome = operatorCodexHome(config.codexHome);
  const network = agentNetwork(
    { netns: config.netns, extraPorts: config.netnsPorts, operatorHome },
    sandbox === "full_access",
    process.env,
  );
  const input = {
    bwrap,
    network,
    codexBin: bin,
    codexSupportDir: support,
    workspace,
    allowedAlternates: [path.join(project.path, ".git", "objects")],
    stateDir: projectCodexState(config.dataDir, project.id),
    operatorHome,
    sandbox,
    baseEnv: process.env,
    agentEnv: config.agentEnv,
  };
  return { env: {}, wrap: (argv: string[]) => jailedCodex(input, argv) };
}

/**
 * Maps how a turn ended to the item's outcome; pure so that every case is tested. The failures it
 * describes are notes (key and parameters, no language): readers render them (`failureText`).
 */
export function outcomeOf(
  r: TurnResult,
  cancelRequested: boolean,
  limits: { turnTimeoutMs: number; idleTimeoutMs: number },
): Outcome {
  const say = failureNote;
  const base = { usage: r.state.usage ?? undefined, files: r.state.files };
  if (r.ended === "cancelled") {
    return cancelRequested
      ? {
          ...base,
          status: "cancelled",
          content: null,
          error: say("worker.cancelled"),
          errorCode: "cancelled",
        }
      : {
          ...base,
          status: "failed",
          content: null,
          error: say("worker.interrupted"),
          errorCode: "interrupted",
        };
  }
  if (r.ended === "watchdog") {
    const error =
      r.watchdog === "idle" && r.state.lastError
        ? say("worker.watchdog_retrying", {
            s: Math.round(limits.idleTimeoutMs / 1000),
            detail: capText(r.state.lastError, 500),
          })
        : r.watchdog === "idle"
          ? say("worker.watchdog_idle", { s: Math.round(limits.idleTimeoutMs / 1000) })
          : say("worker.watchdog_turn", { s: Math.round(limits.turnTimeoutMs / 1000) });
    return { ...base, status: "failed", content: null, error, errorCode: "watchdog" };
  }
  if (r.ended === "completed")
    return { ...base, status: "done", content: r.state.lastAgentMessage ?? "", error: null, errorCode: null };
  if (r.ended === "failed")
    return { ...base, status: "failed", content: null, error: r.state.turnFailed, errorCode: "codex_failed" };
  if (/active writer/i.test(r.stderrTail) || /active writer/i.test(r.state.lastError ?? "")) {
    return {
      ...base,
      status: "failed",
      content: null,
      error: say("worker.thread_busy"),
      errorCode: "thread_busy",
    };
  }
  const detail = capText(r.state.lastError ?? lastLine(r.stderrTail), 500);
  return {
    ...base,
    status: "failed",
    content: null,
    error: detail ? say("worker.interrupted_detail", { detail }) : say("worker.interrupted"),
    errorCode: "interrupted",
  };
}

/** Rewrites a log file with every secret redacted (the same redactor as every other log line). */
function redactFileInPlace(file: string, log: { warn(obj: object, msg: string): void }): void {
  try {
    const text = fs.readFileSync(file, "utf8");
    const clean = redactText(text);
    if (clean !== text) fs.writeFileSync(file, clean);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") log.warn({ err }, "could not redact the Codex log");
  }
}

function lastLine(text: string): string {
  return text.trim().split("\n").filter(Boolean).pop() ?? "";
}
