import type { Config } from "../../config.js";
import type { ApprovalMode } from "../schema.js";
import { type AppServerTurnOptions, runAppServerTurn } from "./appServer/appServerRunner.js";
import { runCodexTurn } from "./codexRunner.js";
import type { TurnResult } from "./turnSupervisor.js";

/** The two ways codexpi runs a Codex turn; both end with the same TurnResult. */
export type RunnerKind = "exec" | "app-server";

/**
 * The runner of a project's turns: the operator's choice (`CODEXPI_RUNNER`), except that a project
 * whose agent may ask for approvals (`on-request`) needs the app-server: `codex exec` cannot ask. Pure.
 */
export function runnerFor(
  config: Pick<Config, "runner">,
  project: { id: string; approval_mode: ApprovalMode },
): RunnerKind {
  return project.approval_mode === "on-request" ? "app-server" : config.runner;
}

/**
 * The function that runs a turn of this kind. The exec runner takes the same options and ignores
 * what only the app-server can do (approvals, steering): `codex exec` never asks.
 */
export function turnRunner(kind: RunnerKind): (opts: AppServerTurnOptions) => Promise<TurnResult> {
  return kind === "app-server" ? runAppServerTurn : runCodexTurn;
}
