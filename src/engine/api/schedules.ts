import type { Kernel } from "../kernel.js";
import type { Actor } from "../projects/index.js";
import {
  addSchedule,
  listSchedules,
  pauseSchedule,
  removeSchedule,
  resumeSchedule,
  scheduleNotice,
  type NewSchedule,
  type ScheduleView,
} from "../schedules/index.js";

/** Schedules: a prompt run in a project on a cron, as the person who added it. */
export interface SchedulesApi {
  /** Adds a schedule in a project the actor may prompt (refuses a bad cron, zone or prompt). */
  add(actor: Actor, input: NewSchedule): Promise<ScheduleView>;
  /** The schedules of the projects the actor may see (one project's when named). */
  list(actor: Actor, project?: string | null): Promise<ScheduleView[]>;
  /** Pauses one (its creator, the project's owner, admins). */
  pause(actor: Actor, id: string): Promise<ScheduleView>;
  /** Resumes one from now on (firings due while paused are not run). */
  resume(actor: Actor, id: string): Promise<ScheduleView>;
  remove(actor: Actor, id: string): Promise<ScheduleView>;
  /** What a schedule's notices show (the notifier's read). */
  notice(id: string): Promise<ScheduleView | null>;
}

export function schedulesApi(kernel: Kernel): SchedulesApi {
  return {
    add: (actor, input) => addSchedule(kernel, actor, input),
    list: (actor, project) => listSchedules(kernel, actor, project),
    pause: (actor, id) => pauseSchedule(kernel, actor, id),
    resume: (actor, id) => resumeSchedule(kernel, actor, id),
    remove: (actor, id) => removeSchedule(kernel, actor, id),
    notice: (id) => scheduleNotice(kernel, id),
  };
}
