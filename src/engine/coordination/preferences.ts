import { z } from "zod";
import type { Kysely } from "kysely";
import type { Clock } from "../clock.js";
import type { DB } from "../schema.js";
import { EngineError } from "../errors.js";

/** What reaches a user by DM. */
export interface NotificationPreferences {
  task_completion: boolean;
  decisions: boolean;
  incidents: boolean;
}

/** By default a user hears about everything that concerns them. */
export const DEFAULT_PREFERENCES: NotificationPreferences = {
  task_completion: true,
  decisions: true,
  incidents: true,
};

const schema = z
  .object({ task_completion: z.boolean(), decisions: z.boolean(), incidents: z.boolean() })
  .strict();

/** A user's preferences (the defaults until they choose). */
export async function getPreferences(db: Kysely<DB>, userId: string): Promise<NotificationPreferences> {
  const row = await db
    .selectFrom("notification_preferences")
    .selectAll()
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row
    ? {
        task_completion: row.task_completion === 1,
        decisions: row.decisions === 1,
        incidents: row.incidents === 1,
      }
    : { ...DEFAULT_PREFERENCES };
}

/** Stores a user's preferences exactly as given (S-CO-08); anything else is refused. */
export async function setPreferences(
  db: Kysely<DB>,
  clock: Clock,
  userId: string,
  input: unknown,
): Promise<NotificationPreferences> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new EngineError("invalid", "preferences_invalid");
  const values = {
    task_completion: parsed.data.task_completion ? 1 : 0,
    decisions: parsed.data.decisions ? 1 : 0,
    incidents: parsed.data.incidents ? 1 : 0,
    updated_at: clock.now(),
  };
  await db
    .insertInto("notification_preferences")
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column("user_id").doUpdateSet(values))
    .execute();
  return getPreferences(db, userId);
}
