import { CLI_ACTOR, withoutDecisionMarker } from "../engine/api/model.js";
import { failureText } from "../i18n/failures.js";
import { t } from "../i18n/index.js";
import { args, cliEngine, out } from "./context.js";
import { decisionText } from "./decisionWait.js";

/** Exit code while the conversation still runs: a script polling `answer` tells it from a failure. */
const STILL_RUNNING = 3;

/** `codexpi answer <conversation>`: the latest answer of a conversation, e.g. after `ask` without `--wait`. */
export async function run(argv: string[]): Promise<number> {
  const { positionals } = args(argv, {}, 1);
  const { db, api, config } = await cliEngine();
  try {
    const { conversation } = await api.conversations.load(positionals[0] as string);
    const id = conversation.id;
    const { item, answer, decision } = await api.conversations.latestTurn(CLI_ACTOR, id);
    if (item && (item.status === "queued" || item.status === "running")) {
      process.stderr.write(`${t(config.locale, "cli.answer.running", { id })}\n`);
      return STILL_RUNNING;
    }
    if (item && item.status !== "done") {
      process.stderr.write(
        `${item.status}${item.error_code ? ` (${item.error_code})` : ""}: ${failureText(config.locale, item.error) ?? ""}\n`,
      );
      return 1;
    }
    if (!item || !answer) {
      process.stderr.write(`${t(config.locale, "cli.answer.none", { id })}\n`);
      return 1;
    }
    // A decision still open is what the conversation waits for: show it with how to answer.
    const text = withoutDecisionMarker(answer.content);
    if (decision?.status === "OPEN")
      out(`${text ? `${text}\n\n` : ""}${decisionText(config.locale, decision)}`);
    else out(text);
    return 0;
  } finally {
    await db.destroy();
  }
}
