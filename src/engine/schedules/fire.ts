import type { Kernel } from "../kernel.js";
import { type EngineError, isEngineError } from "../errors.js";
import { ask } from "../conversations/index.js";
import { getProject, projectForActor, type Actor } from "../projects/index.js";
import { writeTransaction } from "../database.js";
import { emit } from "../outbox.js";
import { recordAudit, refusalOf } from "../audit/index.js";
import type { Project } from "../schema.js";
import { assertChannelMember, nextFireOf } from "./service.js";
import type { Schedule } from "./schema.js";
import { advance, dueSchedules, getSchedule, setStatus } from "./store.js";

/** A result's `kind`, when it has one (a refusal's name). */
const kindOf = (v: unknown): string | null =>
  v !== null && typeof v === "object" && typeof (v as { kind?: unknown }).kind === "string"
    ? (v as { kind: string }).kind
    : null;

/**
 * A tick later than this after its minute means the firing was missed (codexpi was down, or no
 * coordinator held the lease): it then runs once or is skipped, as the schedule's catch-up says.
 * Above a lease's takeover time, so that a coordinator's failover is only late, not missed.
 */
const MISSED_AFTER_MS = 90_000;

/** Another process advanced the schedule first: this firing is theirs, nothing was written here. */
class LostRace extends Error {}

/** What became of one due schedule. */
export type Firing = "fired" | "skipped" | "missed" | "paused" | "lost";

const FAR = 10 * 366 * 24 * 3600_000;

function nextOrFar(s: Schedule, now: number): number {
  try {
    return nextFireOf(s.cron, s.tz, now);
  } catch {
    return now + FAR; // a schedule whose cron no longer parses never fires again (it is listed)
  }
}

/** The creator as the engine checks any person: admins from the configuration, the CLI's operator. */
const creatorOf = (kernel: Kernel, s: Schedule): Actor => ({
  userId: s.created_by,
  isAdmin: s.created_by === "cli" || kernel.config.admins.includes(s.created_by),
});

async function mayStillPrompt(kernel: Kernel, actor: Actor, project: Project): Promise<boolean> {
  try {
    await projectForActor(kernel.db, actor, project.name);
    return true;
  } catch (err) {
    if (isEngineError(err) && (err.code === "not_found" || err.code === "forbidden")) return false;
    throw err;
  }
}

/**
 * The refusal when the creator is no longer a member of the schedule's channel (asked through the
 * bot's seam; the CLI has none, and posts nowhere in Slack). Skipped, not paused: said in the
 * channel where a firing would have posted its conversation, and the next firing asks again.
 */
async function leftChannel(kernel: Kernel, s: Schedule, project: Project): Promise<EngineError | null> {
  const channel = s.channel_id ?? project.channel_id;
  if (!channel || !kernel.channelMember) return null;
  const channels = (await kernel.channelMember(channel, s.created_by)) ? [channel] : [];
  try {
    assertChannelMember({ ...creatorOf(kernel, s), channels }, channel);
    return null;
  } catch (err) {
    if (isEngineError(err)) return err;
    throw err;
  }
}

/**
 * Fires every due schedule once (a tick step, the coordinator's). Each firing is the creator's
 * prompt through the same use case as a person's (rights, options, policy, budgets), and its
 * transaction advances `next_fire_at` with a guarded update: two processes never both fire one.
 */
export async function fireDueSchedules(kernel: Kernel): Promise<Record<Firing, number>> {
  const counts: Record<Firing, number> = { fired: 0, skipped: 0, missed: 0, paused: 0, lost: 0 };
  const now = kernel.clock.now();
  for (const s of await dueSchedules(kernel.db, now)) {
    try {
      counts[await fireOne(kernel, s, now)]++;
    } catch (err) {
      kernel.logger.error({ err, scheduleId: s.id }, "schedule firing failed");
    }
  }
  return counts;
}

async function fireOne(kernel: Kernel, s: Schedule, now: number): Promise<Firing> {
  const project = await getProject(kernel.db, s.project_id);
  const next = nextOrFar(s, now);
  const catchUp = s.catch_up ?? kernel.config.scheduleCatchUp;
  if (now - s.next_fire_at > MISSED_AFTER_MS && catchUp === "skip")
    return (await settle(kernel, s, project, next, now, { why: "missed" })) ? "missed" : "lost";
  const actor = creatorOf(kernel, s);
  if (!(await mayStillPrompt(kernel, actor, project)))
    return (await pauseForAccess(kernel, s, project, now)) ? "paused" : "lost";
  const left = await leftChannel(kernel, s, project);
  if (left)
    return (await settle(kernel, s, project, next, now, { why: "refused", error: left }))
      ? "skipped"
      : "lost";
  // Set when this process's transaction created the conversation; a replayed request key (the
  // same minute, already fired by another process) creates nothing and is theirs.
  let created = false;
  try {
    const started = await ask(kernel, actor, project.name, s.prompt, {
      requestKey: `schedule:${s.id}:${s.next_fire_at}`,
      onCreated: async (trx, conversationId) => {
        if (!(await advance(trx, s.id, s.next_fire_at, next, now, { conversationId }))) throw new LostRace();
        created = true;
        await kernel.scheduledIn?.(trx, conversationId, s.channel_id ?? project.channel_id);
        await recordAudit(trx, now, {
          actor: `schedule:${s.id}`,
          via: "schedule",
          action: "schedule.fire",
          target: `conversation:${conversationId}`,
          project: project.name,
          outcome: "ok",
          detail: `as ${s.created_by}: ${s.prompt}`,
        });
      },
    });
    const refused = refusalOf(started);
    if (refused)
      return (await settle(kernel, s, project, next, now, { why: "refused", reason: refused }))
        ? "skipped"
        : "lost";
    if (created) return "fired";
    // Nothing created here: another process's firing of this minute (its request key), or a
    // refusal answered in a shape refusalOf does not know. The row tells which.
    const now2 = await getSchedule(kernel.db, s.id);
    if (now2?.status !== "active" || now2.next_fire_at !== s.next_fire_at) return "lost";
    const reason = kindOf(started) ?? "refused";
    return (await settle(kernel, s, project, next, now, { why: "refused", reason })) ? "skipped" : "lost";
  } catch (err) {
    if (err instanceof LostRace) return "lost";
    if (!isEngineError(err)) throw err;
    return (await settle(kernel, s, project, next, now, { why: "refused", error: err })) ? "skipped" : "lost";
  }
}

type Skip = { why: "missed" } | { why: "refused"; error?: EngineError; reason?: string };

/**
 * Skips this firing: advances the schedule (guarded, as a firing does) and, for a refusal, says
 * so in its channel; recorded in the audit. False when another process settled it first.
 */
async function settle(kernel: Kernel, s: Schedule, project: Project, next: number, now: number, skip: Skip) {
  const reason =
    skip.why === "missed" ? "missed_while_down" : skip.error ? skip.error.reason : (skip.reason ?? "refused");
  return writeTransaction(kernel.db, async (trx) => {
    if (!(await advance(trx, s.id, s.next_fire_at, next, now, null))) return false;
    if (skip.why === "refused")
      await emit(trx, now, {
        kind: "schedule.skipped",
        scheduleId: s.id,
        reason,
        code: skip.error?.code ?? "refused",
        params: skip.error?.params ?? {},
      });
    await recordAudit(trx, now, {
      actor: `schedule:${s.id}`,
      via: "schedule",
      action: "schedule.fire",
      target: `schedule:${s.id}`,
      project: project.name,
      outcome: "refused",
      reason: (skip.why === "refused" && refusalOf(skip.error)) || reason,
    });
    return true;
  });
}

/** The creator lost the project: the schedule pauses (guarded) and its creator is told by DM. */
async function pauseForAccess(kernel: Kernel, s: Schedule, project: Project, now: number) {
  return writeTransaction(kernel.db, async (trx) => {
    const paused = await setStatus(trx, s.id, "paused", now, {
      reason: "access_lost",
      onlyIf: { nextFireAt: s.next_fire_at },
    });
    if (!paused) return false;
    await emit(trx, now, { kind: "schedule.paused", scheduleId: s.id, userId: s.created_by });
    await recordAudit(trx, now, {
      actor: `schedule:${s.id}`,
      via: "schedule",
      action: "schedule.pause",
      target: `schedule:${s.id}`,
      project: project.name,
      outcome: "ok",
      reason: "creator_lost_access",
    });
    return true;
  });
}
