import type { Config } from "../../config.js";
import { type AppServerTurnOptions, runAppServerTurn } from "./appServer/appServerRunner.js";
import { runCodexTurn, type TurnResult } from "./codexRunner.js";

/** The two ways codexpi runs a Codex turn; both end with the same TurnResult. */
export type RunnerKind = "exec" | "app-server";

/**
 * The runner of a project's turns: the operator's choice (`CODEXPI_RUNNER`). A project whose
 * agent may ask for approvals needs the app-server, which is where that rule belongs. Pure.
 */
export function runnerFor(config: Pick<Config, "runner">, _project: { id: string }): RunnerKind {
  return config.runner;
}

/**
 * The function that runs a turn of this kind. The exec runner takes the same options and ignores
 * what only the app-server can do (approvals, steering): `codex exec` never asks.
 */
export function turnRunner(kind: RunnerKind): (opts: AppServerTurnOptions) => Promise<TurnResult> {
  return kind === "app-server" ? runAppServerTurn : runCodexTurn;
}
