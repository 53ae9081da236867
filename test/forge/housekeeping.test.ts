import { afterEach, describe, expect, it } from "vitest";
import { prune } from "../../src/bot/server.js";
import { ForgeDeliveries } from "../../src/forge/store/deliveries.js";
import { ForgeLinks } from "../../src/forge/store/links.js";
import { testEngine } from "../support/engine.js";

const DAY = 86_400_000;

describe("the forge front end's housekeeping", () => {
  let env: Awaited<ReturnType<typeof testEngine>>;
  afterEach(async () => env?.close());

  it("forgets handled deliveries after a month and expired link codes; never a pending delivery, a recent one, or a live code", async () => {
    env = await testEngine();
    const now = env.clock.now();
    const deliveries = new ForgeDeliveries(env.db);
    const d = (id: string) => ({
      forge: "github" as const,
      delivery_id: id,
      event: "issue_comment",
      project_id: env.project.id,
      body: "{}",
    });
    await deliveries.journal(d("old-done"), now - 40 * DAY);
    await deliveries.journal(d("old-pending"), now - 40 * DAY);
    await deliveries.journal(d("recent-done"), now - DAY);
    for (const id of ["old-done", "recent-done"])
      await deliveries.finish({ ...d(id), attempts: 0, root_ts: null }, "done", "ignored", now);
    const links = new ForgeLinks(env.db);
    await links.newCode("github", "U1", "codexpi-link-aaaaaaaaaaaa", now - 1);
    await links.newCode("github", "U2", "codexpi-link-bbbbbbbbbbbb", now + 3600_000);
    await prune(env.engine);
    const left = await env.db
      .selectFrom("forge_deliveries")
      .select("delivery_id")
      .orderBy("delivery_id")
      .execute();
    expect(left.map((r) => r.delivery_id)).toEqual(["old-pending", "recent-done"]);
    expect(await links.takeCode("github", "codexpi-link-aaaaaaaaaaaa", now)).toBeNull();
    expect(await links.takeCode("github", "codexpi-link-bbbbbbbbbbbb", now)).toBe("U2");
  });
});
