import type { EngineApi } from "../engine/api/index.js";
import { CLI_ACTOR } from "../engine/api/model.js";
import readline from "node:readline/promises";
import { t, type Locale } from "../i18n/index.js";
import { out } from "./context.js";

/** The exit code of a command ended by Ctrl-C (128 + SIGINT), as shells expect. */
const INTERRUPTED = 130;

/**
 * Ctrl-C while `ask --wait` waits: the worker is detached and would go on unnoticed, so the
 * operator decides. `--stop-on-exit` stops it; on a terminal we ask; otherwise (a script, a pipe)
 * it keeps running and we say how to follow it. Ends the process: the wait it interrupts is
 * still polling.
 */
export function onInterrupt(
  api: EngineApi,
  locale: Locale,
  conversationId: string,
  stopOnExit: boolean,
): void {
  const handler = () => {
    void decide(api, locale, conversationId, stopOnExit).then(
      () => process.exit(INTERRUPTED),
      (err: unknown) => {
        process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", handler);
}

async function decide(api: EngineApi, locale: Locale, id: string, stopOnExit: boolean): Promise<void> {
  process.stderr.write("\n");
  const stopIt = stopOnExit || (process.stdin.isTTY && (await confirm(t(locale, "cli.ask.confirm_stop"))));
  if (!stopIt) {
    process.stderr.write(`${t(locale, "cli.ask.left_running", { id })}\n`);
    return;
  }
  const report = await api.conversations.stop(CLI_ACTOR, id);
  out(t(locale, "cli.stop.done", { id, running: report.stoppingRunning, queued: report.cancelledQueued }));
}

async function confirm(question: string): Promise<boolean> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  // A second Ctrl-C at the question means "just let me go": the agent keeps running.
  const aborted = new Promise<string>((resolve) => rl.once("SIGINT", () => resolve("")));
  try {
    const reply = await Promise.race([rl.question(question), aborted]);
    return /^(y|yes|o|oui)$/i.test(reply.trim());
  } finally {
    rl.close();
  }
}
