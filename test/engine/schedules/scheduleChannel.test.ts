import { afterEach, describe, expect, it } from "vitest";
import { createEngineApi } from "../../../src/engine/api/index.js";
import { Engine } from "../../../src/engine/engine.js";
import { fireDueSchedules } from "../../../src/engine/schedules/fire.js";
import { CLI_ACTOR } from "../../../src/engine/projects/index.js";
import { engineErrorText } from "../../../src/i18n/index.js";
import { testEngine } from "../../support/engine.js";

// Issue 32, item 7: a schedule posts its conversations only in a channel its creator is a member
// of: checked when it is added (the front end resolves membership into `actor.channels`) and at
// each firing (through the bot's `channelMember` seam: the engine never calls Slack).

const MINUTE = 60_000;
const OWNER = { userId: "UOWNER", isAdmin: false };

describe("a schedule's channel is one its creator is a member of (engine)", () => {
  let env: Awaited<ReturnType<typeof testEngine>> | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  it("S-BUDGET-08: adding a schedule in a channel its creator is not a member of is refused (admins too; the CLI's operator is not a Slack member and is trusted); a member's is added", async () => {
    env = await testEngine();
    const api = createEngineApi(env.engine);
    const add = (actor: typeof OWNER & { channels?: string[] }, channel: string) =>
      api.schedules.add(actor, { project: "demo", cron: "* * * * *", tz: "UTC", channel, prompt: "x" });
    const refused = await add(OWNER, "CSECRET").catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: "forbidden", reason: "schedule_channel_not_member" });
    expect(engineErrorText("en", refused as never)).toContain("its creator is not a member of this one");
    expect(engineErrorText("fr", refused as never)).toContain("son créateur n’est pas membre de celui-ci");
    await expect(add({ userId: "UADMIN", isAdmin: true }, "CSECRET")).rejects.toMatchObject({
      reason: "schedule_channel_not_member",
    });
    expect(await api.schedules.list(OWNER)).toEqual([]);
    // Positive controls: a member, and the CLI's operator.
    expect((await add({ ...OWNER, channels: ["CTEAM"] }, "CTEAM")).channelId).toBe("CTEAM");
    expect((await add(CLI_ACTOR, "COPS")).channelId).toBe("COPS");
  });

  it("S-BUDGET-08: a firing whose creator has left the channel is skipped and said there (nothing queued); back in it, the next firing runs", async () => {
    const members = new Set(["UOWNER"]);
    const base = await testEngine();
    env = base;
    const engine = new Engine({
      config: base.config,
      db: base.db,
      clock: base.clock,
      spawner: base.spawner,
      host: base.engine.host,
      channelMember: async (channel, userId) => channel === "CTEAM" && members.has(userId),
    });
    const api = createEngineApi(engine);
    await api.schedules.add(
      { ...OWNER, channels: ["CTEAM"] },
      { project: "demo", cron: "* * * * *", tz: "UTC", channel: "CTEAM", prompt: "résume" },
    );
    const toNextMinute = () => base.clock.set((Math.floor(base.clock.now() / MINUTE) + 1) * MINUTE + 1_000);
    const queued = async () => (await base.db.selectFrom("prompt_queue").select("id").execute()).length;

    members.delete("UOWNER");
    toNextMinute();
    expect(await fireDueSchedules(engine)).toMatchObject({ fired: 0, skipped: 1 });
    expect(await queued()).toBe(0);
    const skipped = await base.db
      .selectFrom("outbox")
      .select("payload")
      .where("kind", "=", "schedule.skipped")
      .executeTakeFirstOrThrow();
    expect(JSON.parse(String(skipped.payload))).toMatchObject({
      reason: "schedule_channel_not_member",
      params: { channel: "CTEAM" },
    });

    members.add("UOWNER");
    toNextMinute();
    expect(await fireDueSchedules(engine)).toMatchObject({ fired: 1, skipped: 0 });
    expect(await queued()).toBe(1);
  });
});
