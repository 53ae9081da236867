import type { Kernel } from "../kernel.js";
import { EngineError } from "../errors.js";
import { newId } from "../ids.js";
import { CLI_ACTOR, getProject, listProjects, projectForActor, type Actor } from "../projects/index.js";
import type { Project } from "../schema.js";
import { CronError, isTimeZone, nextFire, parseCron } from "./cron.js";
import type { CatchUp, Schedule } from "./schema.js";
import { getSchedule, scheduleRow, setStatus } from "./store.js";

/** What `schedule add` asks for. */
export interface NewSchedule {
  project: string;
  cron: string;
  /** IANA zone the cron is read in (default: the server's own). */
  tz?: string | null;
  /** Where its conversations start (default: the project's channel). */
  channel?: string | null;
  prompt: string;
  /** What a firing missed while codexpi was down does (default: CODEXPI_SCHEDULE_CATCH_UP). */
  catchUp?: CatchUp | null;
}

/** A schedule as front ends show it. */
export interface ScheduleView {
  id: string;
  project: string;
  createdBy: string;
  channelId: string | null;
  cron: string;
  tz: string;
  prompt: string;
  status: Schedule["status"];
  pausedReason: Schedule["paused_reason"];
  catchUp: CatchUp | null;
  nextFireAt: number;
  lastFiredAt: number | null;
  firedCount: number;
}

const viewOf = (s: Schedule, project: Pick<Project, "name">): ScheduleView => ({
  id: s.id,
  project: project.name,
  createdBy: s.created_by,
  channelId: s.channel_id,
  cron: s.cron,
  tz: s.tz,
  prompt: s.prompt,
  status: s.status,
  pausedReason: s.paused_reason,
  catchUp: s.catch_up,
  nextFireAt: s.next_fire_at,
  lastFiredAt: s.last_fired_at,
  firedCount: s.fired_count,
});

/** The server's own zone, the default of a schedule given none. */
const serverTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

/** The next firing of a cron in a zone after `after`; a cron that never fires is refused. */
export function nextFireOf(cron: string, tz: string, after: number): number {
  let spec: ReturnType<typeof parseCron>;
  try {
    spec = parseCron(cron);
  } catch (err) {
    if (err instanceof CronError)
      throw new EngineError("invalid", "schedule_cron_invalid", { cron, detail: err.message });
    throw err;
  }
  if (!isTimeZone(tz)) throw new EngineError("invalid", "schedule_tz_invalid", { tz });
  const next = nextFire(spec, tz, after);
  if (next === null) throw new EngineError("invalid", "schedule_cron_never", { cron });
  return next;
}

/**
 * A schedule's conversations are posted in its channel as its creator's: only in one they are a
 * member of (the front end resolves it into `actor.channels`), else anyone could post as the bot
 * where they cannot read. The CLI's operator is no Slack member: the command line is trusted.
 */
export function assertChannelMember(actor: Actor, channel: string | null): void {
  if (!channel || actor.userId === CLI_ACTOR.userId) return;
  if (!(actor.channels ?? []).includes(channel))
    throw new EngineError("forbidden", "schedule_channel_not_member", { channel });
}

/** Adds a schedule in a project the actor may prompt; its firings are the actor's prompts. */
export async function addSchedule(kernel: Kernel, actor: Actor, input: NewSchedule): Promise<ScheduleView> {
  const project = await projectForActor(kernel.db, actor, input.project);
  const prompt = input.prompt.trim();
  if (!prompt) throw new EngineError("invalid", "prompt_empty");
  const tz = input.tz?.trim() || serverTimeZone();
  const channel = input.channel ?? project.channel_id ?? null;
  assertChannelMember(actor, channel);
  const now = kernel.clock.now();
  const row: Schedule = {
    id: newId().slice(0, 8),
    project_id: project.id,
    created_by: actor.userId,
    channel_id: channel,
    cron: input.cron.trim(),
    tz,
    prompt,
    status: "active",
    paused_reason: null,
    catch_up: input.catchUp ?? null,
    next_fire_at: nextFireOf(input.cron, tz, now),
    last_fired_at: null,
    last_conversation_id: null,
    fired_count: 0,
    created_at: now,
    updated_at: now,
  };
  await kernel.db.insertInto("schedules").values(row).execute();
  return viewOf(row, project);
}

/** The schedules of the projects the actor may see (one project's, when named). */
export async function listSchedules(kernel: Kernel, actor: Actor, projectName?: string | null) {
  const projects = (await listProjects(kernel.db, actor)).filter(
    (p) => !projectName || p.name === projectName,
  );
  if (!projects.length) return [];
  const byId = new Map(projects.map((p) => [p.id, p]));
  const rows = await kernel.db
    .selectFrom("schedules")
    .selectAll()
    .where("project_id", "in", [...byId.keys()])
    .orderBy("created_at")
    .execute();
  return rows.map((r) => viewOf(scheduleRow(r), byId.get(r.project_id) as Project));
}

/**
 * A schedule the actor may change (its creator, its project's owner, admins); anyone who cannot
 * see its project gets not_found.
 */
async function manageable(kernel: Kernel, actor: Actor, id: string) {
  const s = await getSchedule(kernel.db, id);
  const project = s ? await getProject(kernel.db, s.project_id) : null;
  const visible = project && (await listProjects(kernel.db, actor)).some((p) => p.id === project.id);
  if (!s || !project || !visible) throw new EngineError("not_found", "schedule_not_found", { id });
  if (!actor.isAdmin && actor.userId !== s.created_by && actor.userId !== project.owner_id)
    throw new EngineError("forbidden", "schedule_not_yours", { id });
  return { s, project };
}

export async function pauseSchedule(kernel: Kernel, actor: Actor, id: string): Promise<ScheduleView> {
  const { s, project } = await manageable(kernel, actor, id);
  await setStatus(kernel.db, s.id, "paused", kernel.clock.now(), { reason: "person" });
  return viewOf({ ...s, status: "paused", paused_reason: "person" }, project);
}

/** Resumes from now on: the firings due while it was paused are not run. */
export async function resumeSchedule(kernel: Kernel, actor: Actor, id: string): Promise<ScheduleView> {
  const { s, project } = await manageable(kernel, actor, id);
  const next = nextFireOf(s.cron, s.tz, kernel.clock.now());
  await setStatus(kernel.db, s.id, "active", kernel.clock.now(), { nextFireAt: next });
  return viewOf({ ...s, status: "active", paused_reason: null, next_fire_at: next }, project);
}

export async function removeSchedule(kernel: Kernel, actor: Actor, id: string): Promise<ScheduleView> {
  const { s, project } = await manageable(kernel, actor, id);
  await kernel.db.deleteFrom("schedules").where("id", "=", s.id).execute();
  return viewOf(s, project);
}

/** What a schedule's notices show (the notifier's read), null once removed. */
export async function scheduleNotice(kernel: Kernel, id: string): Promise<ScheduleView | null> {
  const s = await getSchedule(kernel.db, id);
  return s ? viewOf(s, await getProject(kernel.db, s.project_id)) : null;
}
