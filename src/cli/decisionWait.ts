import type { EngineApi } from "../engine/api/index.js";
import type { DecisionView } from "../engine/api/model.js";
import { t, type Locale } from "../i18n/index.js";

const POLL_MS = 500;

/** The question as the command line shows it: title, question, options and how to answer. */
export function decisionText(locale: Locale, d: DecisionView): string {
  return [
    t(locale, "cli.decision.question", { id: d.id, title: d.title, question: d.question }),
    ...d.options.map((o) => t(locale, "cli.decision.option", { id: o.id, label: o.label })),
    t(locale, d.allow_custom ? "cli.decision.hint_custom" : "cli.decision.hint", { id: d.id }),
  ].join("\n");
}

/**
 * What became of the decision a finished item asked: the queue item that carries its answer
 * (waiting, without a deadline, while a person decides), "cancelled", or null when it asked none.
 * `onOpen` is called once when the decision still waits.
 */
export async function followDecision(
  api: EngineApi,
  queueId: string,
  onOpen: (d: DecisionView) => void,
): Promise<string | "cancelled" | null> {
  let d = await api.decisions.ofItem(queueId);
  if (!d) return null;
  if (d.status === "OPEN") onOpen(d);
  while (d.status === "OPEN") {
    await new Promise((r) => setTimeout(r, POLL_MS));
    d = (await api.decisions.ofItem(queueId)) ?? d;
  }
  return d.status === "ANSWERED" && d.response_queue_id ? d.response_queue_id : "cancelled";
}
