import { CLI_ACTOR, EngineError, withoutDecisionMarker } from "../engine/api/model.js";
import { args, cliEngine, out } from "./context.js";
import { failureText } from "../i18n/failures.js";
import { t } from "../i18n/index.js";
import { decisionText, followDecision } from "./decisionWait.js";
import { onInterrupt } from "./interrupt.js";

/** `codexpi ask <project> <prompt> [--wait] [--stop-on-exit] [--conversation <id>]`: the same queue and worker as Slack. */
export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = args(
    argv,
    { wait: { type: "boolean" }, conversation: { type: "string" }, "stop-on-exit": { type: "boolean" } },
    2,
  );
  const { db, engine, api, config } = await cliEngine();
  try {
    const project = await api.projects.forActor(CLI_ACTOR, positionals[0] as string);
    const prompt = positionals[1] as string;
    let conversationId: string;
    let queueId: string;
    let paused: string[];
    if (values.conversation) {
      const c = await api.conversations.load(values.conversation);
      if (c.conversation.project_id !== project.id) {
        throw new EngineError("invalid", "conversation_other_project", { name: c.conversation.id });
      }
      const followed = await api.conversations.followUp(CLI_ACTOR, c, prompt);
      conversationId = c.conversation.id;
      queueId = followed.item.id;
      paused = followed.paused;
    } else {
      const started = await api.conversations.ask(CLI_ACTOR, project.name, prompt);
      conversationId = started.conversation.id;
      queueId = started.item.id;
      paused = started.paused;
    }
    if (paused.length)
      process.stderr.write(`${t(config.locale, "cli.ask.paused", { reasons: paused.join(", ") })}\n`);
    if (!values.wait) {
      out(`conversation ${conversationId}\nqueued ${queueId}`);
      return 0;
    }
    process.stderr.write(`conversation ${conversationId}\n`);
    onInterrupt(api, config.locale, conversationId, values["stop-on-exit"] ?? false);
    // Queued work may wait for a slot; without `serve` running nobody else would start it, so
    // this process keeps dispatching while it waits.
    for (;;) {
      const deadline = Date.now() + config.turnTimeoutMs * 2 + 60_000;
      let item = await api.conversations.waitForItem(queueId, 0);
      while (["queued", "running"].includes(item.status) && Date.now() < deadline) {
        if (item.status === "queued") await engine.dispatch();
        item = await api.conversations.waitForItem(queueId, 2_000, 200);
      }
      if (item.status !== "done") break;
      const content = (await api.conversations.answer(queueId)) ?? "";
      // A decision is a question, not the end: show it, then wait for its answer's turn.
      const next = await followDecision(api, queueId, (d) => {
        const before = withoutDecisionMarker(content);
        out(`${before ? `${before}\n\n` : ""}${decisionText(config.locale, d)}`);
        process.stderr.write(`${t(config.locale, "cli.decision.waiting")}\n`);
      });
      if (next === null) {
        out(content);
        return 0;
      }
      if (next === "cancelled") {
        process.stderr.write(`${t(config.locale, "decision.cancelled")}\n`);
        return 1;
      }
      queueId = next;
    }
    const item = await api.conversations.waitForItem(queueId, 0);
    process.stderr.write(
      `${item.status}${item.error_code ? ` (${item.error_code})` : ""}: ${failureText(config.locale, item.error) ?? t(config.locale, "cli.ask.still_waiting")}\n`,
    );
    return 1;
  } finally {
    await db.destroy();
  }
}
