import type { Actor } from "../../engine/api/model.js";
import { t } from "../../i18n/index.js";
import { auditPageText, clockTime, scheduleChannel, scheduleListText } from "../../views/schedules.js";
import type { AuditCommand, ScheduleCommand } from "../scheduleGrammar.js";
import type { BotContext } from "../context.js";
import type { Reply } from "./runs.js";

type Kind<K extends ScheduleCommand["kind"]> = Extract<ScheduleCommand, { kind: K }>;

/**
 * `/codex schedule add`: the schedule's conversations start in `--channel`, else the project's
 * channel, else the channel the command was typed in; its firings are the person's prompts.
 */
export async function scheduleAdd(
  ctx: BotContext,
  cmd: Kind<"schedule.add">,
  actor: Actor,
  channelId: string,
) {
  const project = await ctx.api.projects.forActor(actor, cmd.project);
  const channel = cmd.channel ?? project.channel_id ?? channelId;
  // The engine posts only where the creator is a member: the bot tells it which (the channel the
  // command was typed in counts without asking Slack).
  const member = channel === channelId || (await ctx.channelMembers.isMember(channel, actor.userId));
  const s = await ctx.api.schedules.add(
    member ? { ...actor, channels: [...(actor.channels ?? []), channel] } : actor,
    {
      project: cmd.project,
      cron: cmd.cron,
      tz: cmd.tz,
      channel,
      prompt: cmd.prompt,
      catchUp: cmd.catchUp,
    },
  );
  return {
    text: t(ctx.locale, "schedule.added", {
      id: s.id,
      project: s.project,
      cron: s.cron,
      tz: s.tz,
      next: `${clockTime(s.nextFireAt, s.tz)} ${s.tz}`,
      channel: scheduleChannel(ctx.locale, s),
    }),
  };
}

/** `/codex schedule list|pause|resume|remove`. */
export async function scheduleChange(
  ctx: BotContext,
  cmd: Exclude<ScheduleCommand, { kind: "schedule.add" }>,
  actor: Actor,
): Promise<Reply> {
  if (cmd.kind === "schedule.list")
    return { text: scheduleListText(ctx.locale, await ctx.api.schedules.list(actor, cmd.project)) };
  if (cmd.kind === "schedule.pause") {
    const s = await ctx.api.schedules.pause(actor, cmd.id);
    return { text: t(ctx.locale, "schedule.paused", { id: s.id }) };
  }
  if (cmd.kind === "schedule.resume") {
    const s = await ctx.api.schedules.resume(actor, cmd.id);
    return {
      text: t(ctx.locale, "schedule.resumed", { id: s.id, next: `${clockTime(s.nextFireAt, s.tz)} ${s.tz}` }),
    };
  }
  const s = await ctx.api.schedules.remove(actor, cmd.id);
  return { text: t(ctx.locale, "schedule.removed", { id: s.id }) };
}

/** `/codex audit`: admins only (the engine refuses anyone else). */
export async function auditCommand(ctx: BotContext, cmd: AuditCommand, actor: Actor): Promise<Reply> {
  const page = await ctx.api.audit.page(
    actor,
    { project: cmd.project, user: cmd.user, since: cmd.since },
    cmd.page,
  );
  return { text: auditPageText(ctx.locale, page) };
}
