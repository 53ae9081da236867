import { z } from "zod";
import { commandKind, unwrapCommand, type ActivityKind, type Progress } from "../conversations/index.js";

/** What a worker has learnt from Codex's JSONL stream so far. Pure data, folded event by event. */
export interface CodexState {
  threadId: string | null;
  lastAgentMessage: string | null;
  usage: unknown;
  files: string[];
  /** What the agent does now; the plan, once emitted, stays until a new one replaces it. */
  progress: Progress | null;
  turnCompleted: boolean;
  turnFailed: string | null;
  lastError: string | null;
  /** Consecutive failed attempts to reach the model (Codex's "Reconnecting…"), 0 once anything else comes. */
  reconnects: number;
}

export const initialCodexState = (): CodexState => ({
  threadId: null,
  lastAgentMessage: null,
  usage: null,
  files: [],
  progress: null,
  turnCompleted: false,
  turnFailed: null,
  lastError: null,
  reconnects: 0,
});

// Loose on purpose: Codex adds fields between versions; we read only what we need.
const item = z.looseObject({
  id: z.string().optional(),
  type: z.string(),
  text: z.string().optional(),
  command: z.string().optional(),
  changes: z.array(z.looseObject({ path: z.string(), kind: z.unknown().optional() })).optional(),
  message: z.string().optional(),
  query: z.string().optional(),
  items: z.array(z.looseObject({ text: z.string(), completed: z.boolean().optional() })).optional(),
});
const event = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("thread.started"), thread_id: z.string() }),
  z.looseObject({ type: z.literal("turn.started") }),
  z.looseObject({ type: z.literal("turn.completed"), usage: z.unknown().optional() }),
  z.looseObject({ type: z.literal("turn.failed"), error: z.looseObject({ message: z.string() }).optional() }),
  z.looseObject({ type: z.literal("error"), message: z.string().optional() }),
  z.looseObject({ type: z.literal("item.started"), item }),
  z.looseObject({ type: z.literal("item.updated"), item }),
  z.looseObject({ type: z.literal("item.completed"), item }),
]);

/** Parses one JSONL line; anything unknown or malformed is ignored (null), never fatal. */
export function parseCodexLine(line: string): z.infer<typeof event> | null {
  const trimmed = line.trim();
  if (!trimmed.startsWith("{")) return null;
  try {
    const parsed = event.safeParse(JSON.parse(trimmed));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** A text on one line, clipped to `max` characters (what a status line shows). */
export const oneLine = (s: string, max = 120) => {
  const l = s.replace(/\s+/g, " ").trim();
  return l.length > max ? `${l.slice(0, max - 1)}…` : l;
};

// The interim text (of both runners) is kept as written (lines and markdown), bounded: a stream shows it whole, the
// status message quotes one clipped line of it.
const INTERIM_TEXT_MAX = 4_000;
export const interimText = (s: string) =>
  s.length > INTERIM_TEXT_MAX ? `${s.slice(0, INTERIM_TEXT_MAX - 1).trimEnd()}…` : s.trim();

/** Folds one event into the state. */
export function applyCodexEvent(state: CodexState, e: z.infer<typeof event>): CodexState {
  // Anything but a retry notice means Codex reached its model (or never needed it): the count restarts.
  const s = e.type === "error" || !state.reconnects ? state : { ...state, reconnects: 0 };
  return foldEvent(s, e);
}

// Codex 0.171's retry notices: "Reconnecting... 2/5 (stream disconnected …)" for a model that
// fails, "Reconnecting... waiting for network (Connection failed: …)" for one it cannot reach.
const RECONNECTING =
  /^Reconnecting\.*\s*(?:(\d+)\/\d+)?\s*(?:waiting for network)?\s*(?:\(([\s\S]*)\))?\s*$/i;

/** Whether Codex's error message is one of its retry notices (not a failure: it tries again). */
export const isReconnecting = (message: string): boolean => /^Reconnecting\b/i.test(message.trim());

/**
 * The state after a retry notice: the activity says the model cannot be reached, with Codex's
 * error (inside the notice's parentheses) and the attempt (Codex's count, else ours).
 */
export function reconnecting(state: CodexState, message: string): CodexState {
  const m = RECONNECTING.exec(message.trim());
  const attempt = m?.[1] ? Number(m[1]) : state.reconnects + 1;
  const cause = oneLine(m?.[2]?.trim() || message, 300);
  return {
    ...state,
    lastError: message,
    reconnects: state.reconnects + 1,
    progress: {
      kind: "reconnecting",
      detail: cause,
      attempt,
      plan: state.progress?.plan ?? null,
      text: state.progress?.text ?? null,
    },
  };
}

function foldEvent(state: CodexState, e: z.infer<typeof event>): CodexState {
  switch (e.type) {
    case "thread.started":
      return { ...state, threadId: e.thread_id };
    case "turn.started":
      return withActivity(state, "starting", null);
    case "turn.completed":
      return { ...state, turnCompleted: true, usage: e.usage ?? state.usage };
    case "turn.failed":
      return { ...state, turnFailed: e.error?.message ?? "turn failed" };
    case "error":
      return e.message && isReconnecting(e.message)
        ? reconnecting(state, e.message)
        : { ...state, lastError: e.message ?? state.lastError };
    case "item.started":
    case "item.updated":
    case "item.completed":
      return applyItem(state, e.item, e.type === "item.completed");
  }
}

/** The state with a new current activity; the plan and the interim text stay. */
export const withActivity = (state: CodexState, kind: ActivityKind, detail: string | null): CodexState => ({
  ...state,
  progress: { kind, detail, plan: state.progress?.plan ?? null, text: state.progress?.text ?? null },
});

function applyItem(state: CodexState, it: z.infer<typeof item>, completed: boolean): CodexState {
  switch (it.type) {
    case "agent_message":
      // Interim text: the agent is writing; its text is the answer, posted by the outcome.
      if (!completed || it.text === undefined) return state;
      return {
        ...state,
        lastAgentMessage: it.text,
        progress: {
          kind: "writing",
          detail: null,
          plan: state.progress?.plan ?? null,
          text: interimText(it.text),
        },
      };
    case "command_execution": {
      const command = oneLine(unwrapCommand(it.command ?? ""), 200);
      return withActivity(state, commandKind(command), command);
    }
    case "file_change": {
      const paths = (it.changes ?? []).map((c) => c.path);
      const files = completed ? [...new Set([...state.files, ...paths])] : state.files;
      const names = paths.map((p) => p.split("/").pop()).join(", ");
      return { ...withActivity(state, "editing", names ? oneLine(names) : null), files };
    }
    case "web_search":
      return withActivity(state, "searching", it.query ? oneLine(it.query) : null);
    case "reasoning":
      return withActivity(state, "thinking", null);
    case "todo_list": {
      const plan = (it.items ?? []).map((s) => ({ text: oneLine(s.text, 200), done: s.completed === true }));
      const text = state.progress?.text ?? null;
      return {
        ...state,
        progress: { kind: "planning", detail: null, plan: plan.length ? plan : null, text },
      };
    }
    case "error":
      return { ...state, lastError: it.message ?? state.lastError };
    default:
      return state;
  }
}
