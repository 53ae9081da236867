// The public face of engine/schedules: prompts run on a cron, as their creator (issue 21).
import type { Kernel } from "../kernel.js";
import { fireDueSchedules } from "./fire.js";

export {
  type NewSchedule,
  type ScheduleView,
  addSchedule,
  listSchedules,
  pauseSchedule,
  removeSchedule,
  resumeSchedule,
  scheduleNotice,
} from "./service.js";
export type { CatchUp } from "./schema.js";

/** Fires the due schedules (a tick step: only the coordinator ticks). */
export function registerScheduleTicks(engine: Kernel): void {
  engine.onTick("schedules", async (e) => {
    const c = await fireDueSchedules(e);
    const any = Object.values(c).some((n) => n > 0);
    return any ? { schedules: c } : undefined;
  });
}
