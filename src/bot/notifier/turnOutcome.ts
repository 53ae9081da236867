import { type EventOf, withoutDecisionMarker, withoutRememberMarker } from "../../engine/api/model.js";
import { failureCodeKey, failureNextStep, failureText } from "../../i18n/failures.js";
import { t } from "../../i18n/index.js";
import { agentAnswer } from "../../views/conversation.js";
import { escapeClip } from "../../views/mrkdwn.js";
import { placeOf, type SlackConversation } from "./conversationSnapshot.js";
import { fileNameOfKey, type RendererBase } from "./rendererBase.js";

/** The end of a turn in its thread: the answer (done), or a notice (failed); a stop shows nothing here. */
export async function postOutcome(
  base: RendererBase,
  outboxId: number,
  snap: SlackConversation,
  event: EventOf<"conversation.finished">,
): Promise<void> {
  // A stop is told once, to whoever pressed Stop (with what it cancelled), and on the state
  // message: one notice per cancelled item said "Agent stopped." as many times.
  if (event.status === "cancelled") return;
  if (event.status === "done") return postAnswer(base, outboxId, snap, event.messageId);
  const place = placeOf(outboxId, snap);
  const item = await base.api.conversations.turnFailure(event.queueId);
  // The catalog explains the failure in the reader's language; Codex's own message is kept
  // when it is the cause (it is data from the agent: escaped, never formatting).
  // One cause: the engine's own note names it (a model Codex could not reach, with its error), else
  // the code's sentence does.
  const code = failureCodeKey(item?.error, item?.errorCode);
  const reason = code ? t(base.locale, code) : "";
  const detail =
    // A setup's failure says which and shows its log tail (redacted by the worker, and again here).
    item?.errorCode === "codex_failed" || item?.errorCode === "setup_failed" || !reason
      ? escapeClip(failureText(base.locale, item?.error) ?? "?", 1500)
      : "";
  const failed = t(base.locale, "notice.failed", { error: [reason, detail].filter(Boolean).join(" — ") });
  // Then what to try next, for this kind of failure.
  const next = failureNextStep(base.locale, item?.error, item?.errorCode);
  const text = next ? `${failed}\n${next}` : failed;
  await base.poster.postOnce({ ...place, key: `${outboxId}:notice`, purpose: "notice", text });
}

/** The agent's answer in the thread: split into messages, or uploaded as a file when long. */
async function postAnswer(
  base: RendererBase,
  outboxId: number,
  snap: SlackConversation,
  messageId: EventOf<"conversation.finished">["messageId"],
): Promise<void> {
  const place = placeOf(outboxId, snap);
  const content = messageId ? await base.api.conversations.answerText(messageId) : null;
  // A decision's marker is for codexpi: its question is posted with its buttons instead; a note's
  // proposal likewise gets its card (Keep, Edit, Discard).
  const answer = agentAnswer(base.locale, withoutRememberMarker(withoutDecisionMarker(content ?? "")));
  for (const [i, m] of answer.messages.entries()) {
    await base.poster.postOnce({
      ...place,
      key: `${outboxId}:answer:${i}`,
      purpose: "answer",
      text: m.text,
      blocks: m.blocks,
    });
  }
  if (!answer.file) return;
  const key = `${outboxId}:file`;
  await base.uploadOnce(key, place, {
    filename: `${fileNameOfKey(key)}-${answer.file.filename}`,
    title: answer.file.title,
    content: answer.file.content,
  });
}
