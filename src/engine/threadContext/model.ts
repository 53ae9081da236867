import { z } from "zod";

// Other people's words from Slack, as a front end hands them to the engine (issue 19, item 1).
// Bounded on the way in: whatever a front end sends, a queued row stays small (budget.ts cuts it
// further to the configured budget).

const line = (max: number) => z.string().max(max);

/** One message of a Slack thread: who wrote it (a display name), when (epoch ms), what. */
const quotedMessageSchema = z.object({
  author: line(200),
  at: z.number().int().nonnegative(),
  text: z.string().max(200_000),
  /** The thread's first message (kept before the newest ones when the budget cuts). */
  root: z.boolean().optional(),
  /** Set when the text was cut: its whole length. */
  fullLength: z.number().int().positive().optional(),
});

/** One message of quoted Slack context. */
export type QuotedMessage = z.infer<typeof quotedMessageSchema>;

/**
 * Slack context given with a prompt: the earlier messages of the thread a person called the agent
 * into (`thread`), or those people posted in a conversation's thread since its last turn
 * (`since`); the channel's name and topic; how many messages were left out; or why the thread
 * could not be read (`unavailable`: the prompt runs without it).
 */
export const threadContextSchema = z.object({
  kind: z.enum(["thread", "since"]),
  channel: z.object({ name: line(200).nullable(), topic: line(2_000).nullable() }).nullable(),
  messages: z.array(quotedMessageSchema).max(2_000),
  omitted: z.number().int().min(0),
  unavailable: z.enum(["not_member", "unreadable"]).optional(),
});

/** Slack context given with a prompt (see threadContextSchema). */
export type ThreadContext = z.infer<typeof threadContextSchema>;

/** The context kept with a queued prompt (its JSON column), or null when absent or unreadable. */
export function readStoredContext(json: string | null): ThreadContext | null {
  if (!json) return null;
  try {
    const parsed = threadContextSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
