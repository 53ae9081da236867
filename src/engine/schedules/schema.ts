import type { Selectable } from "kysely";

// Row type of db/migrations/0027_schedules. Times are epoch milliseconds.

/** Whether a schedule fires: `active`, or `paused` by a person or because its creator lost the project. */
export type ScheduleStatus = "active" | "paused";

/** Why a schedule is paused. */
export type PausedReason = "person" | "access_lost";

/** What a firing missed while codexpi was down does at start: run once, or be skipped. */
export type CatchUp = "once" | "skip";

/** A prompt run in a project on a cron, as its creator. */
export interface SchedulesTable {
  id: string;
  project_id: string;
  /** The person whose prompt each firing is (a Slack user id, or `cli`): their rights apply. */
  created_by: string;
  /** Where its conversations start (null: the project's channel). */
  channel_id: string | null;
  cron: string;
  tz: string;
  prompt: string;
  status: ScheduleStatus;
  paused_reason: PausedReason | null;
  /** Null: the install's setting (CODEXPI_SCHEDULE_CATCH_UP). */
  catch_up: CatchUp | null;
  /** The next minute it fires; advanced only by a guarded update (see fire.ts). */
  next_fire_at: number;
  last_fired_at: number | null;
  last_conversation_id: string | null;
  fired_count: number;
  created_at: number;
  updated_at: number;
}

/** A schedule row as read. */
export type Schedule = Selectable<SchedulesTable>;

// The engine's schema (src/engine/schema.ts) is shared; this aggregate adds its table to it.
declare module "../schema.js" {
  interface DB {
    schedules: SchedulesTable;
  }
}
