import type { Logger } from "pino";
import type { Kernel } from "../kernel.js";
import type { TurnResult } from "../codex/index.js";
import { type RunnerKind, runnerFor, turnRunner } from "../codex/index.js";
import type { AppServerTurnOptions } from "../codex/index.js";
import type { ApprovalHandler } from "../codex/index.js";
import { approvalHandler } from "../approvals/index.js";
import { agentInstructions, tomlString, withPlaceInstructions } from "../codex/index.js";
import { failureNote } from "../../i18n/failures.js";
import type { Outcome } from "../conversations/index.js";
import { steerLoop } from "../codex/index.js";
import { recordCodexStart, type ClaimedItem } from "./claim.js";
import type { CodexLaunch } from "./launch.js";
import { listenForStops } from "./stopRequests.js";
import { progressWrites } from "./progressWrites.js";
import { codexLogFile, redactFileInPlace } from "./codexLog.js";
import { promptWithContext, readStoredContext, withWriter } from "../threadContext/index.js";
import { turnMemory } from "../memory/index.js";

/** Who answers a turn's approval requests (the approvals feature; a seam for tests). */
export type ApprovalsFor = (item: {
  queueId: string;
  attempt: number;
  conversationId: string;
  projectId: string;
}) => ApprovalHandler | undefined;

/** How a supervised turn ended: Codex's result and whether a signal stopped it, or why it never ran. */
export type SupervisedTurn = { result: TurnResult; signalled: boolean } | { failed: Outcome };

/**
 * Runs the item's Codex turn and watches it from the worker's side: a cancel or a signal stops
 * it, its progress and thread reach the database, approvals go to a person, follow-ups steer it.
 * Everything is wound down before the outcome: a follow-up the turn never took is still queued,
 * every progress write has landed, and Codex's log is redacted.
 */
export async function superviseTurn(
  engine: Kernel,
  log: Logger,
  claim: ClaimedItem & { attempt: number },
  launch: CodexLaunch,
  approvals: ApprovalsFor = (turn) => approvalHandler(engine, turn),
): Promise<SupervisedTurn> {
  const { item, conversation, project, attempt } = claim;
  const stops = listenForStops(engine.db, item.id);
  const progress = progressWrites(engine, log, item.id, conversation);
  const stderrFile = codexLogFile(engine.config, item.id);
  const runner = runnerFor(engine.config, project);
  // Only a project whose admin chose `on-request` asks; its requests wait for a person's answer.
  const onApproval =
    runner === "app-server" && project.approval_mode === "on-request"
      ? approvals({ queueId: item.id, attempt, conversationId: conversation.id, projectId: project.id })
      : undefined;
  // A person's follow-up may go into the running turn (app-server only: exec never starts one).
  const steering = steerLoop(engine, { id: item.id, attempt, conversationId: conversation.id });
  let result: TurnResult;
  try {
    const instructions = await developerInstructions(engine, launch, project, conversation);
    result = await turnRunner(runner)({
      ...turnOptions(engine, log, claim, launch, runner, instructions),
      stderrFile,
      signal: stops.signal,
      onState: progress.onState,
      onApproval,
      onTurnStarted: steering.onTurnStarted,
    });
  } catch (err) {
    log.error({ err }, "codex could not run");
    return {
      failed: {
        status: "failed",
        content: null,
        error: failureNote("worker.spawn_failed", { detail: (err as Error).message }),
        errorCode: "spawn_failed",
      },
    };
  } finally {
    // Before the outcome: a follow-up the turn never took is still queued when the item finishes.
    await steering.stop();
    stops.close();
    await progress.close();
    // Codex writes its stderr straight to this file (never a pipe): redact it once the turn is over.
    redactFileInPlace(stderrFile, log);
  }
  // Read once everything is wound down, as the outcome is: a signal until then counts.
  return { result, signalled: stops.signalled() };
}

/**
 * Codex's developer instructions for the turn: codexpi's protocol for the agent's purpose, the
 * standing instructions of the channel the conversation started in (labelled as theirs), then the
 * team's notes of its project and of that place (engine/memory), read as the turn starts.
 */
async function developerInstructions(
  engine: Kernel,
  launch: CodexLaunch,
  project: { id: string; name: string },
  conversation: { instructions: string | null; place: string | null },
): Promise<string> {
  const protocol = withPlaceInstructions(
    agentInstructions(launch.purpose, engine.config.locale),
    conversation.instructions,
    engine.config.locale,
  );
  const memory = await turnMemory(engine, project, conversation.place);
  return memory ? `${protocol}\n\n${memory}` : protocol;
}

/** What the turn runs: the prompt, where and how Codex starts, its limits, and its PID's record. */
function turnOptions(
  engine: Kernel,
  log: Logger,
  { item, conversation, attempt }: ClaimedItem & { attempt: number },
  launch: CodexLaunch,
  runner: RunnerKind,
  instructions: string,
): Omit<AppServerTurnOptions, "stderrFile"> {
  return {
    bin: launch.bin,
    invocation: {
      cwd: launch.workdir,
      fullAccess: launch.sandbox === "full_access",
      threadId: conversation.codex_thread_id,
      // The person's `model=` and `effort=` (checked when asked), for every turn of the conversation.
      model: conversation.model,
      effort: conversation.effort,
      images: launch.files?.images,
      config: {
        // Off by default for the bundled models: with it, a plan arrives as `todo_list` items.
        "tools.update_plan.enabled": "true",
        // Every turn, resumed ones included: the protocol is not part of the thread's history.
        developer_instructions: tomlString(instructions),
      },
    },
    // The person's prompt, after the Slack context given with it, quoted as other people's words;
    // the files shared with it are named after the person's words (other people's data, said so).
    // Its writer named first when the thread is shared (DESIGN "A thread is the team's").
    prompt: promptWithContext(
      withWriter(
        launch.files?.note ? `${item.content}\n\n${launch.files.note}` : item.content,
        { name: item.writer_name, isAuthor: item.requested_by === conversation.user_id },
        engine.config.locale,
      ),
      readStoredContext(item.thread_context),
      item.id,
      engine.config.locale,
    ),
    env: launch.env,
    wrap: launch.wrap,
    modelLink: launch.services?.modelLink,
    turnTimeoutMs: engine.config.turnTimeoutMs,
    idleTimeoutMs: engine.config.idleTimeoutMs,
    connectTimeoutMs: engine.config.connectTimeoutMs,
    onSpawn: async (pid, startTime) => {
      await recordCodexStart(engine.db, engine.clock.now(), item.id, attempt, pid, startTime);
      log.info({ codexPid: pid, runner }, "codex started");
    },
  };
}
