import { z } from "zod";

/**
 * What an agent is doing now, as structured data: the status message renders it in the person's
 * language from a catalog of kinds, so nothing internal or English leaks into a French message.
 */
const activityKinds = [
  "starting",
  "command",
  "editing",
  "reading",
  "searching",
  "thinking",
  "planning",
  "writing",
  // Codex cannot reach its model and retries ("Reconnecting…"): `detail` is its last error.
  "reconnecting",
] as const;

/** One kind of activity; each has a catalog entry `progress.kind.<kind>`. */
export type ActivityKind = (typeof activityKinds)[number];

const planStep = z.object({ text: z.string(), done: z.boolean() });
const progressSchema = z.object({
  kind: z.enum(activityKinds),
  detail: z.string().nullable(),
  plan: z.array(planStep).nullable(),
  /**
   * The agent's latest message as written so far (bounded), kept until the next one: the status
   * quotes one line of it, a stream appends what was added since the last render.
   */
  text: z.string().nullable().optional(),
  /** While reconnecting: which attempt this is (Codex's own count when it gives one). */
  attempt: z.number().int().positive().optional(),
});

/** One step of the agent's plan (Codex's `todo_list` item). */
export type PlanStep = z.infer<typeof planStep>;

/** The current activity, its detail (a command, file names, a query), the plan and the latest interim message. */
export type Progress = z.infer<typeof progressSchema>;

/** The progress as stored in `prompt_queue.last_activity` (a JSON text). */
export const serializeProgress = (p: Progress): string => JSON.stringify(p);

/** Reads a stored progress; null for rows written before progress was structured (plain text) or malformed. */
export function parseProgress(text: string | null | undefined): Progress | null {
  if (!text?.startsWith("{")) return null;
  try {
    const parsed = progressSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

// Commands that only look at files: shown as "reading" rather than "running a command".
const READERS = /^(cat|head|tail|less|sed -n|nl|wc|ls|tree|find|rg|grep|git (show|log|diff|status))\b/;
const SEARCHERS = /^(rg|grep|find|git grep)\b/;

/** The command Codex runs, without its `/bin/bash -lc '…'` wrapper. */
export function unwrapCommand(command: string): string {
  const m = /^(?:\/\S*\/)?(?:ba|z)?sh\s+-l?c\s+(['"])([\s\S]*)\1\s*$/.exec(command.trim());
  return (m ? (m[2] ?? "") : command).replace(/'\\''/g, "'").trim();
}

/** The activity a command stands for: searching, reading or running. */
export function commandKind(command: string): ActivityKind {
  if (SEARCHERS.test(command)) return "searching";
  if (READERS.test(command)) return "reading";
  return "command";
}

/** Total tokens of a Codex `usage` value (input + output); null when there is none. */
export function tokensOf(usage: unknown): number | null {
  if (!usage || typeof usage !== "object") return null;
  const u = usage as Record<string, unknown>;
  const n = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);
  const total = n(u.input_tokens) + n(u.output_tokens);
  return total > 0 ? total : null;
}
