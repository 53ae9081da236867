import { statusOf } from "./forgeErrors.js";
import type { ForgeTarget } from "./forgeTypes.js";
import { gitlab, octokit, ownerRepo, projectId, TIMEOUT_MS } from "./discussion.js";

// What `doctor` can learn from a forge about a project's forge front end (issue 33, item 6): the
// token's scopes, and the webhook that calls codexpi with its last delivery, where the forge's API
// tells them. GitHub: `GET /user`'s `X-OAuth-Scopes` header (a classic token's scopes; a
// fine-grained token sends none, and its permissions cannot be read), `GET /repos/{o}/{r}/hooks`
// (the hook whose `config.url` ends with /forge/github), then `GET
// /repos/{o}/{r}/hooks/{id}/deliveries?per_page=1`. GitLab: `GET /personal_access_tokens/self`
// (its `scopes`), `GET /projects/:id/hooks` (`url`, `alert_status`, `disabled_until`). Reads only.

/** A token's scopes as the forge tells them. */
export type TokenScopes =
  | { kind: "scopes"; scopes: string[] }
  /** GitHub's fine-grained tokens (and app tokens): no scopes header; permissions unreadable. */
  | { kind: "unreadable" }
  /** The forge refused the token, or did not answer: `status` its HTTP status (null: no answer). */
  | { kind: "failed"; status: number | null };

/** The webhook calling codexpi, as the forge tells it. */
export type WebhookState =
  | {
      kind: "found";
      url: string;
      /** GitHub: the last delivery's HTTP status and when; null when none was made. */
      lastDelivery: { status: number | null; at: string } | null;
      /** GitLab: `executable`, `temporarily_disabled` or `disabled`, and until when. */
      alert: { status: string; until: string | null } | null;
    }
  | { kind: "none" }
  /** The token may not read the repository's webhooks (or the forge failed): `status` why. */
  | { kind: "unreadable"; status: number | null };

/** What the forge says of a project's token and webhook. */
export interface ForgeAccess {
  scopes: TokenScopes;
  webhook: WebhookState;
}

const request = () => ({ signal: AbortSignal.timeout(TIMEOUT_MS) });

const failed = (e: unknown) => statusOf(e);

async function githubScopes(target: ForgeTarget): Promise<TokenScopes> {
  try {
    const { headers } = await octokit(target).rest.users.getAuthenticated({ request: request() });
    const header = headers["x-oauth-scopes"];
    if (header === undefined || header === null) return { kind: "unreadable" };
    const scopes = String(header)
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    return { kind: "scopes", scopes };
  } catch (e) {
    return { kind: "failed", status: failed(e) };
  }
}

async function githubHook(target: ForgeTarget): Promise<WebhookState> {
  try {
    const kit = octokit(target);
    const repo = ownerRepo(target.forgeRepo);
    const { data } = await kit.rest.repos.listWebhooks({ ...repo, per_page: 100, request: request() });
    const hook = data.find((h) => /\/forge\/github\/?$/.test(String(h.config.url ?? "")));
    if (!hook) return { kind: "none" };
    const { data: deliveries } = await kit.rest.repos.listWebhookDeliveries({
      ...repo,
      hook_id: hook.id,
      per_page: 1,
      request: request(),
    });
    const last = deliveries[0];
    return {
      kind: "found",
      url: String(hook.config.url),
      lastDelivery: last ? { status: last.status_code ?? null, at: last.delivered_at } : null,
      alert: null,
    };
  } catch (e) {
    return { kind: "unreadable", status: failed(e) };
  }
}

async function gitlabScopes(target: ForgeTarget): Promise<TokenScopes> {
  try {
    const token = await gitlab(target).PersonalAccessTokens.show();
    return { kind: "scopes", scopes: (token.scopes ?? []).map(String) };
  } catch (e) {
    return { kind: "failed", status: failed(e) };
  }
}

async function gitlabHook(target: ForgeTarget): Promise<WebhookState> {
  try {
    const hooks = await gitlab(target).ProjectHooks.all(projectId(target.forgeRepo));
    const hook = hooks.find((h) => /\/forge\/gitlab\/?$/.test(String(h.url ?? "")));
    if (!hook) return { kind: "none" };
    const h = hook as { url: string; alert_status?: string; disabled_until?: string | null };
    return {
      kind: "found",
      url: h.url,
      lastDelivery: null,
      alert: h.alert_status ? { status: h.alert_status, until: h.disabled_until ?? null } : null,
    };
  } catch (e) {
    return { kind: "unreadable", status: failed(e) };
  }
}

/** The token's scopes and the webhook, as the project's forge tells them (never throws). */
export async function forgeAccess(target: ForgeTarget): Promise<ForgeAccess> {
  if (target.forge === "github") {
    const [scopes, webhook] = await Promise.all([githubScopes(target), githubHook(target)]);
    return { scopes, webhook };
  }
  const [scopes, webhook] = await Promise.all([gitlabScopes(target), gitlabHook(target)]);
  return { scopes, webhook };
}
