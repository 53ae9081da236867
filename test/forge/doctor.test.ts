import { afterEach, describe, expect, it } from "vitest";
import { forgeChecks } from "../../src/cli/forgeCheck.js";
import { createEngineApi } from "../../src/engine/api/index.js";
import { CLI_ACTOR } from "../../src/engine/api/model.js";
import { ForgeDeliveries } from "../../src/forge/store/deliveries.js";
import { ForgeThreads } from "../../src/forge/store/threads.js";
import { testEngine } from "../support/engine.js";
import { type FakeGitHub, startFakeGitHub } from "../support/fakeGitHub.js";
import { type FakeGitLab, startFakeGitLab } from "../support/fakeGitLab.js";

const GH_TOKEN = "ghp_doctortoken0002";
const GL_TOKEN = "glpat-doctor-0002";

describe("doctor's forge line", () => {
  let env: Awaited<ReturnType<typeof testEngine>>;
  let github: FakeGitHub | undefined;
  let gitlab: FakeGitLab | undefined;
  afterEach(async () => {
    await github?.close();
    await gitlab?.close();
    github = gitlab = undefined;
    await env?.close();
  });

  /** The demo project on a fake forge, with its channel, token and webhook secret; answers its line. */
  async function onForge(forge: "github" | "gitlab", apiUrl: string, repo: string, token: string) {
    env = await testEngine({ env: { CODEXPI_LOCALE: "en" } });
    const api = createEngineApi(env.engine);
    await new ForgeThreads(env.db).setSettings(env.project.id, { channel_id: "C1" }, Date.now());
    await api.projects.setForge(CLI_ACTOR, env.project.name, { forge, forgeUrl: apiUrl, forgeRepo: repo });
    await api.forge.setWebhookSecret(CLI_ACTOR, env.project.name, "a-webhook-secret-of-tests");
    await api.projects.setForgeToken(CLI_ACTOR, env.project.name, token);
    return async () => {
      const checks = await forgeChecks(env.config);
      expect(checks).toHaveLength(2);
      return checks[1]!;
    };
  }

  it("S-FORGE-62: on GitHub it says the token's scopes (what a classic token lacks, that a fine-grained token's cannot be read) and the webhook's last delivery as GitHub tells it, and the last delivery codexpi journaled; each warning names its fix", async () => {
    github = await startFakeGitHub({ token: GH_TOKEN, repos: ["acme/widgets"], enterprise: true });
    const line = await onForge("github", github.apiUrl, "acme/widgets", GH_TOKEN);
    const name = () => env.project.name;

    // No webhook calls codexpi: a warning naming the path to add.
    github.hooks.add("acme/widgets", "https://ci.example/other");
    const none = await line();
    expect(none).toMatchObject({ ok: true, warning: true });
    expect(none.detail).toContain("token scopes: repo");
    expect(none.detail).toContain("no webhook of acme/widgets calls …/forge/github");
    expect(none.detail).toContain("codexpi has journaled no delivery");

    // Positive control: a classic token with repo, the hook's last delivery 200, a journaled delivery.
    const hook = github.hooks.add("acme/widgets", "https://bot.example/forge/github");
    github.hooks.delivered(hook, 500, "2026-12-01T10:00:00Z");
    github.hooks.delivered(hook, 200, "2026-12-02T10:00:00Z");
    await new ForgeDeliveries(env.db).journal(
      { forge: "github", delivery_id: "d-1", event: "issue_comment", project_id: env.project.id, body: "{}" },
      Date.UTC(2026, 11, 2, 10),
    );
    const good = await line();
    expect(good.warning).toBeUndefined();
    expect(good.name).toBe(`forge of ${name()}`);
    expect(good.detail).toContain(
      "webhook https://bot.example/forge/github: last delivery 200 at 2026-12-02T10:00:00Z",
    );
    expect(good.detail).toContain(
      "last delivery codexpi journaled: issue_comment at 2026-12-02T10:00:00.000Z (pending)",
    );
    expect(github.hooks.perPage).toContain("1");
    expect(github.received.some((r) => r.url.endsWith("/user"))).toBe(true);

    // A refused delivery: the secrets differ, and the command that sets codexpi's.
    github.hooks.delivered(hook, 401, "2026-12-03T10:00:00Z");
    const refused = await line();
    expect(refused.warning).toBe(true);
    expect(refused.detail).toContain("last delivery refused (401) at 2026-12-03T10:00:00Z");
    expect(refused.detail).toContain(`codexpi forge set ${name()} --webhook-secret -`);
    github.hooks.delivered(hook, 200, "2026-12-04T10:00:00Z");

    // A classic token without repo: what it lacks and how to store another.
    github.hooks.scopes = ["read:org", "gist"];
    const lacks = await line();
    expect(lacks.warning).toBe(true);
    expect(lacks.detail).toContain("the token lacks the repo scope");
    expect(lacks.detail).toContain("it has: read:org, gist");
    expect(lacks.detail).toContain(`codexpi project credential ${name()} --forge-token -`);

    // A fine-grained token: no scopes header; said to be unreadable, not a warning.
    github.hooks.scopes = null;
    const fine = await line();
    expect(fine.warning).toBeUndefined();
    expect(fine.detail).toContain("a fine-grained token: GitHub does not tell its permissions");

    // A token that may not read webhooks: the last delivery is said to be unknown.
    github.hooks.readable = false;
    const unreadable = await line();
    expect(unreadable.detail).toContain("may not read acme/widgets's webhooks (404)");
  });

  it("S-FORGE-63: on GitLab it says whether the token has the api scope and whether the webhook is enabled or disabled (and until when), as GitLab tells them", async () => {
    gitlab = await startFakeGitLab({ token: GL_TOKEN, projects: ["group/app"] });
    const line = await onForge("gitlab", gitlab.apiUrl, "group/app", GL_TOKEN);
    const hook = gitlab.hooks.add("group/app", "https://bot.example/forge/gitlab");
    const good = await line();
    expect(good.warning).toBeUndefined();
    expect(good.detail).toContain("token scopes: api");
    expect(good.detail).toContain("webhook https://bot.example/forge/gitlab enabled");
    expect(gitlab.received.some((r) => r.url === "/api/v4/personal_access_tokens/self")).toBe(true);
    expect(gitlab.received.some((r) => r.url.startsWith("/api/v4/projects/group%2Fapp/hooks"))).toBe(true);

    gitlab.hooks.scopes = ["read_api", "read_repository"];
    const lacks = await line();
    expect(lacks.warning).toBe(true);
    expect(lacks.detail).toContain("the token lacks the api scope");

    // GitLab stopped calling it after failures: disabled until a time, and how to enable it again.
    gitlab.hooks.scopes = ["api"];
    gitlab.hooks.disable(hook, "temporarily_disabled", "2026-12-06T20:00:00Z");
    const disabled = await line();
    expect(disabled.warning).toBe(true);
    expect(disabled.detail).toContain("temporarily_disabled until 2026-12-06T20:00:00Z");
    expect(disabled.detail).toContain("Settings → Webhooks");

    gitlab.hooks.readable = false;
    const unreadable = await line();
    expect(unreadable.detail).toContain("may not read group/app's webhooks (403)");
  });

  it("S-FORGE-12: names what a project given a forge channel lacks (repository, webhook secret, token), says it is complete once all are there, and is absent when no project uses the forge", async () => {
    env = await testEngine({ env: { CODEXPI_LOCALE: "en" } });
    expect(await forgeChecks(env.config)).toEqual([]);
    await new ForgeThreads(env.db).setSettings(env.project.id, { channel_id: "C1" }, Date.now());
    const [lacking] = await forgeChecks(env.config);
    expect(lacking).toMatchObject({ ok: true, warning: true });
    expect(lacking!.detail).toContain(`project ${env.project.name} lacks: repository, webhook_secret, token`);
    const api = createEngineApi(env.engine);
    // A closed port on this machine: doctor's questions to the forge never leave it.
    await api.projects.setForge(CLI_ACTOR, env.project.name, {
      forge: "github",
      forgeUrl: "http://127.0.0.1:9/api/v3",
      forgeRepo: "acme/widgets",
    });
    await api.forge.setWebhookSecret(CLI_ACTOR, env.project.name, "a-webhook-secret-of-tests");
    await api.projects.setForgeToken(CLI_ACTOR, env.project.name, "ghp_doctortoken0001");
    const checks = await forgeChecks(env.config);
    const [complete] = checks;
    expect(complete).toMatchObject({ ok: true });
    expect(complete!.warning).toBeUndefined();
    expect(complete!.detail).toContain("1 project(s) receive forge webhooks");
    // The forge does not answer: said on the project's own line, as a warning.
    expect(checks[1]!.detail).toContain("the forge does not answer as expected");
    expect(checks[1]!.detail).toContain("the forge did not tell its webhooks");
  });
});
