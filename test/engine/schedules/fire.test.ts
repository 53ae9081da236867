import { afterEach, describe, expect, it } from "vitest";
import { Engine } from "../../../src/engine/engine.js";
import { openDatabase, type Database } from "../../../src/engine/database.js";
import { fixedHostLoad } from "../../../src/engine/system/hostLoad.js";
import { createEngineApi } from "../../../src/engine/api/index.js";
import { fireDueSchedules } from "../../../src/engine/schedules/fire.js";
import { advance } from "../../../src/engine/schedules/store.js";
import { writeTransaction } from "../../../src/engine/database.js";
import { setProjectPrompter } from "../../../src/engine/projects/index.js";
import { recordingSpawner, testEngine } from "../../support/engine.js";

const MINUTE = 60_000;
const OWNER = { userId: "UOWNER", isAdmin: false };
const ADMIN = { userId: "UADMIN", isAdmin: true };

describe("schedule firing (engine)", () => {
  let env: Awaited<ReturnType<typeof testEngine>>;
  let other: Database | null = null;
  afterEach(async () => {
    await other?.destroy();
    other = null;
    await env?.close();
  });

  const conversations = async () =>
    (await env.db.selectFrom("conversations").select(["id", "user_id"]).execute()).length;
  const schedule = async (id: string) =>
    env.db.selectFrom("schedules").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const outboxKinds = async () =>
    (await env.db.selectFrom("outbox").select("kind").orderBy("id").execute()).map((r) => r.kind);
  /** To the next whole minute and a second past it (a tick a second late). */
  const toNextMinute = () => env.clock.set((Math.floor(env.clock.now() / MINUTE) + 1) * MINUTE + 1_000);

  it("S-SCHED-02: two engines firing at once on one database start each minute's conversation exactly once", async () => {
    env = await testEngine({ env: { CODEXPI_ADMINS: "UADMIN" } });
    // Yielding, as the bot's connection does: a lock wait must not freeze the event loop the
    // other engine's transaction (in this same process) needs to commit.
    other = openDatabase(env.config.database, { busy: "yield" });
    const second = new Engine({
      config: env.config,
      db: other,
      clock: env.clock,
      spawner: recordingSpawner(),
      host: fixedHostLoad(),
    });
    const api = createEngineApi(env.engine);
    const s = await api.schedules.add(OWNER, {
      project: "demo",
      cron: "* * * * *",
      tz: "UTC",
      prompt: "résume la CI",
    });
    for (let minute = 1; minute <= 3; minute++) {
      toNextMinute();
      // No lease here: the guarded update alone must keep the two apart.
      const [a, b] = await Promise.all([fireDueSchedules(env.engine), fireDueSchedules(second)]);
      expect(a.fired + b.fired).toBe(1);
      // The other one saw it due too (or not yet advanced) and lost, or did not see it due.
      expect(a.lost + b.lost).toBeLessThanOrEqual(1);
      expect(await conversations()).toBe(minute);
    }
    const row = await schedule(s.id);
    expect(Number(row.fired_count)).toBe(3);
    // The guard itself, without the request key behind it: of two moves from one minute, one wins.
    const from = Number(row.next_fire_at);
    const moves = await Promise.all(
      [env.db, other].map((db) =>
        writeTransaction(db, (trx) => advance(trx, s.id, from, from + MINUTE, env.clock.now(), null)),
      ),
    );
    expect(moves.sort()).toEqual([false, true]);
    const owners = await env.db.selectFrom("conversations").select("user_id").execute();
    expect(owners.every((c) => c.user_id === "UOWNER")).toBe(true); // the creator's prompts
    // Each firing is recorded once, by the schedule, in the conversation's project.
    const fired = await env.db
      .selectFrom("audit_events")
      .selectAll()
      .where("action", "=", "schedule.fire")
      .execute();
    expect(fired.map((e) => [e.actor, e.via, e.outcome, e.project])).toEqual(
      Array(3).fill([`schedule:${s.id}`, "schedule", "ok", "demo"]),
    );
  });

  it("S-SCHED-03: a firing missed while down runs once (catch-up once), or is skipped (catch-up skip)", async () => {
    env = await testEngine();
    const api = createEngineApi(env.engine);
    const once = await api.schedules.add(OWNER, {
      project: "demo",
      cron: "* * * * *",
      tz: "UTC",
      prompt: "une fois",
    });
    const skip = await api.schedules.add(OWNER, {
      project: "demo",
      cron: "* * * * *",
      tz: "UTC",
      prompt: "sauté",
      catchUp: "skip",
    });
    env.clock.advance(10 * MINUTE); // ten firings missed
    const first = await fireDueSchedules(env.engine);
    expect(first).toMatchObject({ fired: 1, missed: 1 });
    expect(await fireDueSchedules(env.engine)).toMatchObject({ fired: 0, missed: 0 }); // never several times
    expect(Number((await schedule(once.id)).fired_count)).toBe(1);
    expect(Number((await schedule(skip.id)).fired_count)).toBe(0);
    expect(Number((await schedule(skip.id)).next_fire_at)).toBeGreaterThan(env.clock.now());
    // Positive control: on time, the skipping schedule fires too.
    toNextMinute();
    expect(await fireDueSchedules(env.engine)).toMatchObject({ fired: 2 });
  });

  it("S-SCHED-04: a paused schedule does not fire; resumed, it fires from the next minute on", async () => {
    env = await testEngine();
    const api = createEngineApi(env.engine);
    const s = await api.schedules.add(OWNER, {
      project: "demo",
      cron: "* * * * *",
      tz: "UTC",
      prompt: "en pause",
    });
    await api.schedules.pause(OWNER, s.id);
    toNextMinute();
    expect(await fireDueSchedules(env.engine)).toMatchObject({ fired: 0 });
    expect(await conversations()).toBe(0);
    await api.schedules.resume(OWNER, s.id);
    toNextMinute();
    expect(await fireDueSchedules(env.engine)).toMatchObject({ fired: 1 });
    expect(await conversations()).toBe(1);
    await expect(api.schedules.pause({ userId: "USOMEONE", isAdmin: false }, s.id)).rejects.toMatchObject({
      code: "not_found",
    });
  });

  it("S-SCHED-05: a creator who lost the project pauses the schedule, once, and is told", async () => {
    env = await testEngine();
    const api = createEngineApi(env.engine);
    await setProjectPrompter(env.db, env.clock, ADMIN, "demo", "UPROMPTER", true);
    const prompter = { userId: "UPROMPTER", isAdmin: false };
    const s = await api.schedules.add(prompter, {
      project: "demo",
      cron: "* * * * *",
      tz: "UTC",
      prompt: "à moi",
    });
    toNextMinute();
    expect(await fireDueSchedules(env.engine)).toMatchObject({ fired: 1 }); // positive control
    await setProjectPrompter(env.db, env.clock, ADMIN, "demo", "UPROMPTER", false);
    toNextMinute();
    expect(await fireDueSchedules(env.engine)).toMatchObject({ fired: 0, paused: 1 });
    toNextMinute();
    expect(await fireDueSchedules(env.engine)).toMatchObject({ fired: 0, paused: 0 });
    expect(await schedule(s.id)).toMatchObject({ status: "paused", paused_reason: "access_lost" });
    expect((await outboxKinds()).filter((k) => k === "schedule.paused")).toHaveLength(1);
    expect(await conversations()).toBe(1);
  });

  it("S-SCHED-06: a firing the ask use case refuses is skipped, said in the channel, and the schedule goes on", async () => {
    env = await testEngine();
    const api = createEngineApi(env.engine);
    // `model=` names no allowed model: the same refusal as a person's prompt gets.
    const s = await api.schedules.add(
      { ...OWNER, channels: ["C9"] },
      {
        project: "demo",
        cron: "* * * * *",
        tz: "UTC",
        channel: "C9",
        prompt: "model=nope fais-le",
      },
    );
    toNextMinute();
    expect(await fireDueSchedules(env.engine)).toMatchObject({ fired: 0, skipped: 1 });
    expect(await conversations()).toBe(0);
    expect(await outboxKinds()).toContain("schedule.skipped");
    const row = await schedule(s.id);
    expect(row.status).toBe("active");
    expect(Number(row.next_fire_at)).toBeGreaterThan(env.clock.now());
    const refused = await env.db
      .selectFrom("audit_events")
      .selectAll()
      .where("outcome", "=", "refused")
      .execute();
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ actor: `schedule:${s.id}`, action: "schedule.fire" });
  });

  it("S-SCHED-01: a bad cron, zone or a project the person may not prompt is refused at add", async () => {
    env = await testEngine();
    const api = createEngineApi(env.engine);
    const add = (cron: string, tz = "UTC", actor = OWNER) =>
      api.schedules.add(actor, { project: "demo", cron, tz, prompt: "x" });
    await expect(add("* * *")).rejects.toMatchObject({ reason: "schedule_cron_invalid" });
    await expect(add("0 0 30 2 *")).rejects.toMatchObject({ reason: "schedule_cron_never" });
    await expect(add("* * * * *", "Mars/Olympus")).rejects.toMatchObject({ reason: "schedule_tz_invalid" });
    await expect(add("* * * * *", "UTC", { userId: "USTRANGER", isAdmin: false })).rejects.toMatchObject({
      code: "not_found",
    });
    expect(await api.schedules.list(OWNER)).toEqual([]);
  });
});
