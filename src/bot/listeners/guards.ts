import type { App } from "@slack/bolt";
import type { BotContext } from "../context.js";
import { inLocale } from "../userLocales.js";

/** The workspace and enterprise ids a request carries, by what they name. */
export interface RequestTeams {
  /** The workspace the request was sent from (`team_id`, `team.id`, `view.team_id`, authorizations). */
  request: string[];
  /** The workspace of the person acting (`user.team_id`, an event's `team` / `user_team` / `source_team`). */
  user: string[];
  /** Enterprise Grid ids (`enterprise_id`, `team.enterprise_id`, `enterprise.id`, authorizations). */
  enterprise: string[];
}

const ids = (...values: unknown[]): string[] =>
  values.filter((x): x is string => typeof x === "string" && x !== "");

/** Every team field of a request, wherever its payload kind keeps it (commands, actions, views, events). */
function teamsOf(body: Record<string, unknown>): RequestTeams {
  const b = body as {
    team_id?: unknown;
    context_team_id?: unknown;
    enterprise_id?: unknown;
    context_enterprise_id?: unknown;
    team?: { id?: unknown; enterprise_id?: unknown } | null;
    user?: { team_id?: unknown } | null;
    enterprise?: { id?: unknown } | null;
    view?: { team_id?: unknown } | null;
    event?: { team?: unknown; user_team?: unknown; source_team?: unknown } | null;
    authorizations?: Array<{ team_id?: unknown; enterprise_id?: unknown }> | null;
  };
  const auths = Array.isArray(b.authorizations) ? b.authorizations : [];
  return {
    request: ids(b.team_id, b.context_team_id, b.team?.id, b.view?.team_id, ...auths.map((a) => a?.team_id)),
    user: ids(b.user?.team_id, b.event?.team, b.event?.user_team, b.event?.source_team),
    enterprise: ids(
      b.enterprise_id,
      b.context_enterprise_id,
      b.team?.enterprise_id,
      b.enterprise?.id,
      ...auths.map((a) => a?.enterprise_id),
    ),
  };
}

/**
 * Whether a request comes from the allowed workspace: every field naming a workspace (the
 * request's and the acting user's) must be the allowed one, and the request's must be present.
 * Accepting when any one field matched let a foreign workspace through with one field of ours.
 * An enterprise id (`E…`, an org-wide install) is compared with the enterprise fields instead:
 * there, workspaces are the org's own and Slack gives no offline way to tell them apart.
 */
function fromAllowedTeam(teams: RequestTeams, allowed: string): boolean {
  if (allowed.startsWith("E"))
    return teams.enterprise.length > 0 && teams.enterprise.every((id) => id === allowed);
  return teams.request.length > 0 && [...teams.request, ...teams.user].every((id) => id === allowed);
}

/**
 * Global middleware: refuses requests from another workspace than SLACK_TEAM_ID (acked, so Slack
 * does not retry, and ignored). Events already handled (Slack retries them) are dropped by the
 * intake, which nothing on the ack path may wait behind (see intake/intake.ts); an @mention in a
 * thread arrives twice under different ids, which the listeners handle. It runs in both modes;
 * signed HTTP requests were checked before (see receiver/signatureCheck.ts).
 */
export function registerGuards(app: App, ctx: BotContext): void {
  app.use(async (args) => {
    const body = args.body as unknown as Record<string, unknown>;
    const expected = ctx.config.slack.teamId;
    if (expected && !fromAllowedTeam(teamsOf(body), expected)) {
      ctx.logger.warn({ teams: teamsOf(body) }, "request from another workspace refused");
      const ack = (args as { ack?: (r?: unknown) => Promise<void> }).ack;
      if (ack) await ack();
      return;
    }
    await args.next();
  });
}

/** The Slack user a request is from: a command's `user_id`, an action's or view's `user`, an event's `user`. */
function userOf(body: Record<string, unknown>): string | undefined {
  const b = body as { user_id?: unknown; user?: { id?: unknown } | null; event?: { user?: unknown } | null };
  const id = b.user_id ?? b.user?.id ?? b.event?.user;
  return typeof id === "string" ? id : undefined;
}

/**
 * Global middleware: the rest of the request (its ack, its listeners and the work they schedule)
 * runs in the language of the person it is from, so that what they read is in their Slack locale.
 */
export function registerPersonLocale(app: App, ctx: BotContext): void {
  app.use(async (args) => {
    const locale = await ctx.locales.of(userOf(args.body as unknown as Record<string, unknown>));
    await inLocale(locale, () => args.next());
  });
}
