import type { App } from "@slack/bolt";
import type { BotContext } from "../context.js";

/** The workspace (or enterprise) a request comes from, wherever its payload keeps it. */
export function teamOf(body: Record<string, unknown>): string[] {
  const b = body as {
    team_id?: string;
    enterprise_id?: string;
    team?: { id?: string; enterprise_id?: string };
    user?: { team_id?: string };
    enterprise?: { id?: string };
    event?: { team?: string };
  };
  return [b.team_id, b.enterprise_id, b.team?.id, b.team?.enterprise_id, b.user?.team_id, b.enterprise?.id].filter((x): x is string => typeof x === "string");
}

/**
 * Global middleware: refuses requests from another workspace than SLACK_TEAM_ID (acked, so Slack
 * does not retry, and ignored), and drops events already handled (Slack retries them, and an
 * @mention in a thread arrives twice under different ids — that case is handled by the listeners).
 */
export function registerGuards(app: App, ctx: BotContext): void {
  app.use(async (args) => {
    const body = args.body as unknown as Record<string, unknown>;
    const expected = ctx.config.slack.teamId;
    if (expected && !teamOf(body).includes(expected)) {
      ctx.logger.warn({ teams: teamOf(body) }, "request from another workspace refused");
      const ack = (args as { ack?: (r?: unknown) => Promise<void> }).ack;
      if (ack) await ack();
      return;
    }
    const eventId = typeof body.event_id === "string" ? body.event_id : null;
    if (eventId) {
      const inserted = await ctx.engine.db
        .insertInto("slack_events")
        .values({ event_id: eventId, received_at: ctx.engine.clock.now() })
        .onConflict((oc) => oc.column("event_id").doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
        ctx.logger.debug({ eventId }, "duplicate event ignored");
        return;
      }
    }
    await args.next();
  });
}
