import readline from "node:readline";
import {
  applyCodexEvent,
  initialCodexState,
  isReconnecting,
  parseCodexLine,
  reconnecting,
} from "./codexEvents.js";
import { codexExecArgs } from "./codexArgs.js";
import { newTurnMark, startCodexProcess } from "./turnProcess.js";
import { superviseCodexTurn, type TurnOptions, type TurnResult } from "./turnSupervisor.js";

// Its historical home: tests still name the result from here.
export type { TurnResult } from "./turnSupervisor.js";

/**
 * Runs one `codex exec` turn in its own process group, folding its JSONL into a CodexState.
 * The turn supervisor (turnSupervisor.ts) stops a turn that never ends (wall-clock and idle
 * watchdogs) or that the caller cancels: Codex gets SIGINT, then its whole tree SIGKILL.
 */
export async function runCodexTurn(opts: TurnOptions): Promise<TurnResult> {
  const mark = newTurnMark();
  const child = startCodexProcess(
    opts,
    opts.invocation.cwd,
    codexExecArgs(opts.invocation),
    { input: opts.prompt },
    mark,
  );
  let state = initialCodexState();
  const turn = superviseCodexTurn(opts, child.pid, mark, () => turn.signalCodex());
  // The gateway's retries of an unreachable model count as Codex's own would.
  const unlink = opts.modelLink?.subscribe((e) => {
    if (e.kind === "reached") return turn.watchdogs.touch();
    turn.watchdogs.failing();
    state = reconnecting(state, e.notice);
    opts.onState?.(state);
  });
  try {
    await turn.attach();
    if (child.stdout) {
      const lines = readline.createInterface({ input: child.stdout, crlfDelay: Infinity });
      for await (const line of lines) {
        const event = parseCodexLine(line);
        // Codex's retries ("Reconnecting… 2/5") are top-level errors: a model that keeps failing
        // must not look like progress, or the turn would never end; they start the connection limit.
        if (event?.type === "error" && event.message && isReconnecting(event.message))
          turn.watchdogs.failing();
        else if (event?.type !== "error") turn.watchdogs.touch();
        if (!event) continue;
        state = applyCodexEvent(state, event);
        opts.onState?.(state);
      }
    }
    const result = await child;
    return turn.result(state, result.exitCode);
  } finally {
    unlink?.();
    turn.close();
  }
}
