import { afterEach, describe, expect, it } from "vitest";
import { forgeChecks } from "../../src/cli/forgeCheck.js";
import { createEngineApi } from "../../src/engine/api/index.js";
import { CLI_ACTOR } from "../../src/engine/api/model.js";
import { ForgeThreads } from "../../src/forge/store/threads.js";
import { testEngine } from "../support/engine.js";

describe("doctor's forge line", () => {
  let env: Awaited<ReturnType<typeof testEngine>>;
  afterEach(async () => env?.close());

  it("S-FORGE-12: names what a project given a forge channel lacks (repository, webhook secret, token), says it is complete once all are there, and is absent when no project uses the forge", async () => {
    env = await testEngine({ env: { CODEXPI_LOCALE: "en" } });
    expect(await forgeChecks(env.config)).toEqual([]);
    await new ForgeThreads(env.db).setSettings(env.project.id, { channel_id: "C1" }, Date.now());
    const [lacking] = await forgeChecks(env.config);
    expect(lacking).toMatchObject({ ok: true, warning: true });
    expect(lacking!.detail).toContain(`project ${env.project.name} lacks: repository, webhook_secret, token`);
    const api = createEngineApi(env.engine);
    await api.projects.setForge(CLI_ACTOR, env.project.name, { forge: "github", forgeRepo: "acme/widgets" });
    await api.forge.setWebhookSecret(CLI_ACTOR, env.project.name, "a-webhook-secret-of-tests");
    await api.projects.setForgeToken(CLI_ACTOR, env.project.name, "ghp_doctortoken0001");
    const [complete] = await forgeChecks(env.config);
    expect(complete).toMatchObject({ ok: true });
    expect(complete!.warning).toBeUndefined();
    expect(complete!.detail).toContain("1 project(s) receive forge webhooks");
  });
});
