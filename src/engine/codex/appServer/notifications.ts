import {
  type CodexState,
  interimText,
  isReconnecting,
  oneLine,
  reconnecting,
  withActivity,
} from "../codexEvents.js";
import { commandKind, unwrapCommand } from "../../conversations/index.js";
import type { ThreadItem } from "./protocol/v2/ThreadItem.js";
import type { Notifications } from "./wire.js";

/** One notification codexpi reads, with its typed params. */
export type KnownNotification = {
  [M in keyof Notifications]: { method: M; params: Notifications[M] };
}[keyof Notifications];

const KNOWN = new Set<string>([
  "thread/started",
  "thread/status/changed",
  "thread/tokenUsage/updated",
  "turn/started",
  "turn/completed",
  "turn/plan/updated",
  "item/started",
  "item/completed",
  "item/agentMessage/delta",
  "error",
] satisfies Array<keyof Notifications>);

/** The notification if codexpi reads it, else null (Codex sends many others: rate limits, diffs…). */
export function knownNotification(method: string, params: unknown): KnownNotification | null {
  if (!KNOWN.has(method) || !params || typeof params !== "object") return null;
  return { method, params } as KnownNotification;
}

/**
 * Whether a notification is progress of the turn for the idle watchdog. Codex's `error`
 * notifications are often retry notices ("Reconnecting… 2/5"): a model that keeps failing must
 * not look like progress. Status and account notices are not the agent working either.
 */
export function isProgress(method: string): boolean {
  return method.startsWith("item/") || method.startsWith("turn/") || method === "thread/tokenUsage/updated";
}

/** What the app-server runner folds: exec's CodexState, plus the agent message being written. */
export interface AppServerView {
  state: CodexState;
  /** The text of the agent message being streamed (`item/agentMessage/delta`), by item. */
  writing: { itemId: string; text: string } | null;
}

/**
 * Folds one notification into the same CodexState as the exec runner's JSONL (thread, progress,
 * plan, interim text, usage, files, last agent message, turn end, last error). Pure.
 */
export function applyNotification(view: AppServerView, n: KnownNotification): AppServerView {
  // Anything but an error means Codex reached its model: the count of failed attempts restarts.
  const state = n.method !== "error" && view.state.reconnects ? { ...view.state, reconnects: 0 } : view.state;
  const same = (next: CodexState): AppServerView => ({ ...view, state: next });
  switch (n.method) {
    case "thread/started":
      return same({ ...state, threadId: n.params.thread.id });
    case "turn/started":
      return same(withActivity(state, "starting", null));
    case "turn/completed": {
      const { status, error } = n.params.turn;
      if (status === "completed") return same({ ...state, turnCompleted: true });
      if (status === "failed") return same({ ...state, turnFailed: error?.message ?? "turn failed" });
      // Interrupted: neither completed nor failed; the runner knows why it stopped.
      return same(error?.message ? { ...state, lastError: error.message } : state);
    }
    case "turn/plan/updated": {
      const plan = n.params.plan.map((s) => ({ text: oneLine(s.step, 200), done: s.status === "completed" }));
      const text = state.progress?.text ?? null;
      return same({
        ...state,
        progress: { kind: "planning", detail: null, plan: plan.length ? plan : null, text },
      });
    }
    case "thread/tokenUsage/updated": {
      // The thread's running totals, named as exec's `turn.completed.usage` names them.
      const t = n.params.tokenUsage.total;
      return same({
        ...state,
        usage: {
          input_tokens: t.inputTokens,
          cached_input_tokens: t.cachedInputTokens,
          output_tokens: t.outputTokens,
          reasoning_output_tokens: t.reasoningOutputTokens,
        },
      });
    }
    case "error":
      // A retry notice ("Reconnecting… 2/5 (…)"): the activity says so; other errors are warnings.
      return same(
        n.params.willRetry || isReconnecting(n.params.error.message)
          ? reconnecting(state, n.params.error.message)
          : { ...state, lastError: n.params.error.message },
      );
    case "item/agentMessage/delta": {
      const { itemId, delta } = n.params;
      const text = view.writing?.itemId === itemId ? view.writing.text + delta : delta;
      return { state: writing(state, text), writing: { itemId, text } };
    }
    case "item/started":
      return same(applyItem(state, n.params.item, false));
    case "item/completed": {
      const done = n.params.item;
      const finished = view.writing?.itemId === done.id ? null : view.writing;
      return { state: applyItem(state, done, true), writing: finished };
    }
    case "thread/status/changed":
      return view;
  }
}

function writing(state: CodexState, text: string): CodexState {
  return {
    ...state,
    progress: { kind: "writing", detail: null, plan: state.progress?.plan ?? null, text: interimText(text) },
  };
}

function applyItem(state: CodexState, item: ThreadItem, completed: boolean): CodexState {
  switch (item.type) {
    case "agentMessage":
      // The answer is the last completed agent message, as with exec.
      if (!completed) return state;
      return { ...writing(state, item.text), lastAgentMessage: item.text };
    case "commandExecution": {
      const command = oneLine(unwrapCommand(item.command), 200);
      return withActivity(state, commandKind(command), command);
    }
    case "fileChange": {
      const paths = item.changes.map((c) => c.path);
      // A declined or failed change wrote nothing.
      const files =
        completed && item.status === "completed" ? [...new Set([...state.files, ...paths])] : state.files;
      const names = paths.map((p) => p.split("/").pop()).join(", ");
      return { ...withActivity(state, "editing", names ? oneLine(names) : null), files };
    }
    case "webSearch":
      return withActivity(state, "searching", item.query ? oneLine(item.query) : null);
    case "reasoning":
      return withActivity(state, "thinking", null);
    default:
      return state;
  }
}
