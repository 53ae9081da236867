import { afterEach, describe, expect, it } from "vitest";
import { forgeChecks } from "../../src/cli/forgeCheck.js";
import { createEngineApi } from "../../src/engine/api/index.js";
import { CLI_ACTOR } from "../../src/engine/api/model.js";
import { ForgePolling } from "../../src/forge/store/polling.js";
import { ForgeThreads } from "../../src/forge/store/threads.js";
import { testEngine } from "../support/engine.js";

// Polling's rows on both dialects (migration 0042; src/forge/store/polling.ts), and what doctor
// makes of a polled project.

describe("polling's settings and cursors", () => {
  let env: Awaited<ReturnType<typeof testEngine>> | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  it("S-FORGE-49: polling is off until turned on; on, it starts then and its cursors are kept per listing; on again keeps its start; off then on starts afresh, its cursors forgotten; the other settings stay", async () => {
    env = await testEngine();
    const id = env.project.id;
    const polling = new ForgePolling(env.db);
    expect(await polling.pollOf(id)).toEqual({ poll: "off", from: null });
    expect(await polling.polled()).toEqual([]);
    await new ForgeThreads(env.db).setSettings(id, { channel_id: "C1", fix_ci: "on" }, 1);
    expect(await polling.setPoll(id, true, 1_000)).toEqual({ poll: "on", from: 1_000 });
    expect(await polling.polled()).toEqual([{ project_id: id, poll_from: 1_000 }]);
    await polling.saveCursor(
      id,
      "github:issue_comments",
      { since: "2026-01-01T00:00:00Z", last_id: null, etag: 'W/"a"' },
      2,
    );
    await polling.saveCursor(id, "github:review_comments", { since: null, last_id: null, etag: null }, 2);
    await polling.saveCursor(
      id,
      "github:issue_comments",
      { since: "2026-01-02T00:00:00Z", last_id: null, etag: null },
      3,
    );
    expect(await new ForgePolling(env.db).cursors(id)).toEqual({
      "github:issue_comments": { since: "2026-01-02T00:00:00Z", last_id: null, etag: null },
      "github:review_comments": { since: null, last_id: null, etag: null },
    });
    expect(await polling.setPoll(id, true, 5_000)).toEqual({ poll: "on", from: 1_000 });
    expect(Object.keys(await polling.cursors(id))).toHaveLength(2);
    expect(await polling.setPoll(id, false, 6_000)).toEqual({ poll: "off", from: null });
    expect(await polling.polled()).toEqual([]);
    expect(await polling.setPoll(id, true, 7_000)).toEqual({ poll: "on", from: 7_000 });
    expect(await polling.cursors(id)).toEqual({});
    expect(await new ForgeThreads(env.db).settings(id)).toMatchObject({ channel_id: "C1", fix_ci: "on" });
  });
});

describe("doctor's forge line with polling", () => {
  let env: Awaited<ReturnType<typeof testEngine>> | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  it("S-FORGE-48: a polled project needs no webhook secret, and in Socket Mode no HTTP mode; one receiving webhooks still does (the control)", async () => {
    env = await testEngine({ env: { CODEXPI_LOCALE: "en", SLACK_APP_TOKEN: "xapp-test" } });
    const api = createEngineApi(env.engine);
    await api.projects.setForge(CLI_ACTOR, env.project.name, { forge: "github", forgeRepo: "acme/widgets" });
    await api.projects.setForgeToken(CLI_ACTOR, env.project.name, "ghp_doctorpolltoken01");
    await new ForgeThreads(env.db).setSettings(env.project.id, { channel_id: "C1" }, 1);
    const [webhooks] = await forgeChecks(env.config);
    expect(webhooks!.detail).toContain(`project ${env.project.name} lacks: webhook_secret`);
    expect(webhooks!.detail).toContain("Socket Mode");
    await new ForgePolling(env.db).setPoll(env.project.id, true, 2);
    const [polled] = await forgeChecks(env.config);
    expect(polled).toMatchObject({ ok: true });
    expect(polled!.warning).toBeUndefined();
  });
});
