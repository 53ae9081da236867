import path from "node:path";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import type { RunningBot } from "../../src/bot/server.js";
import { movableClock } from "../support/movableClock.js";
import { ADMIN, eventually, OTHER, OWNER, slackBot } from "../support/slackBot.js";

// Issue 21 (schedules and the audit trail) end to end through the real bot: signed HTTP, notifier,
// ticker every second, real workers and the real Codex binary against the fake model. The bots'
// clock runs with real time plus an offset the test moves, so a schedule's next minute comes at
// once instead of in real minutes. Leases outlive the jumps: the first bot stays the coordinator.

const CLI = path.resolve("dist/bin/main.js");
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Bot = Awaited<ReturnType<typeof slackBot>>;

describe("schedules and the audit trail through the real bot", () => {
  let s: Bot | undefined;
  const extra: RunningBot[] = [];
  afterEach(async () => {
    for (const b of extra.splice(0)) await b.stop();
    await s?.close();
    s = undefined;
    live = null;
  });

  const env = { CODEXPI_LOCALE: "en", CODEXPI_LEASE_SECONDS: "3600", CODEXPI_ADMINS: ADMIN };
  const roots = () => s!.slack.messages("C1").filter((m) => !m.thread_ts || m.thread_ts === m.ts);
  /** The running coordinator's database handle (the first bot's until it stops). */
  let live: RunningBot | null = null;
  const db = () => (live ?? s!.bot).engine.db;
  const scheduleRow = async (id: string) =>
    db().selectFrom("schedules").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const idIn = (text: string) => /`([0-9a-f]{8})`/.exec(text)?.[1] as string;
  const ask = async (text: string, user = OWNER) => {
    const r = await s!.command(text, user);
    return (await s!.response(r.responseId)).text ?? "";
  };
  /** Jumps to the schedule's next minute and waits for its firing (count `n`). */
  const fire = async (clock: ReturnType<typeof movableClock>, id: string, n: number) => {
    clock.reach(Number((await scheduleRow(id)).next_fire_at));
    await eventually(async () => Number((await scheduleRow(id)).fired_count) === n, 30_000, `firing ${n}`);
  };

  it("S-SCHED-07 S-AUDIT-05: one conversation per minute with two bots (PostgreSQL) and across a restart; the audit lists it all in order", async () => {
    const clock = movableClock();
    s = await slackBot({ clock, env });
    // A schedule posts only where its creator is a member (S-BUDGET-08): C1 lists the people.
    s.slack.setChannel("C1", { members: [OWNER, OTHER, ADMIN] });
    expect(await ask("project set demo --steer on", ADMIN)).toBeTruthy();
    await ask("ask demo hello there");
    await eventually(() => roots().length === 1, 30_000, "the prompt's root");
    const added = await ask(
      'schedule add demo "* * * * *" --tz UTC --channel <#C1|general> summarise last night',
    );
    const id = idIn(added);
    expect(added).toContain("Schedule");
    // On PostgreSQL a second serve on the same database stands by (on SQLite one data directory
    // takes one serve: the race of two engines on one file is S-SCHED-02's, in the engine tests).
    if (s.config.database.dialect === "postgres") extra.push(await s.another());
    for (let minute = 1; minute <= 2; minute++) {
      await fire(clock, id, minute);
      await eventually(() => roots().length === 1 + minute, 30_000, "the firing's root in C1");
      await pause(2_500); // a few more ticks of both bots: nothing fires twice
      expect(Number((await scheduleRow(id)).fired_count)).toBe(minute);
      expect(roots()).toHaveLength(1 + minute);
    }
    // Restart: the coordinator stops, three minutes pass, a new one starts: the missed firing runs once.
    await extra.pop()?.stop();
    await s.bot.stop();
    if (s.config.database.dialect === "sqlite") await pause(500); // the intake file's lock let go
    clock.advance(3 * 60_000);
    const restarted = await s.another();
    extra.push(restarted);
    live = restarted;
    await eventually(
      async () => Number((await scheduleRow(id)).fired_count) === 3,
      30_000,
      "the missed firing",
    );
    await pause(2_500);
    expect(Number((await scheduleRow(id)).fired_count)).toBe(3);
    expect(Number((await scheduleRow(id)).next_fire_at)).toBeGreaterThan(clock.now());
    const fired = await db().selectFrom("conversations").select("user_id").execute();
    expect(fired.map((c) => c.user_id)).toEqual(Array(4).fill(OWNER));

    // The audit (S-AUDIT-05), through the restarted bot's Slack port.
    s.sendTo(restarted);
    const refused = await ask("audit demo", OWNER);
    expect(refused).toMatch(/admin/i);
    expect(refused).not.toContain("schedule.fire");
    const audit = await ask("audit demo", ADMIN);
    const lines = audit.split("\n").filter((l) => l.includes(" → "));
    const summary = lines.map((l) => [/(<@\w+>|`schedule:\w+`)/.exec(l)?.[1], /\*([\w.]+)\*/.exec(l)?.[1]]);
    expect(summary).toEqual([
      [`<@${ADMIN}>`, "project.steer"],
      [`<@${OWNER}>`, "conversation.ask"],
      [`<@${OWNER}>`, "schedule.add"],
      ["`schedule:" + id + "`", "schedule.fire"],
      ["`schedule:" + id + "`", "schedule.fire"],
      ["`schedule:" + id + "`", "schedule.fire"],
    ]);
    // The CLI's export: one JSON object per line, the same trail (and the admin's reading is no change).
    const out = await execa(process.execPath, [CLI, "audit", "--json", "--project", "demo"], {
      env: { ...s.env },
      reject: false,
      timeout: 60_000,
    });
    expect(out.exitCode).toBe(0);
    const rows = out.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { action: string; actor: string });
    expect(rows.map((r) => r.action)).toEqual([
      "project.steer",
      "conversation.ask",
      "schedule.add",
      "schedule.fire",
      "schedule.fire",
      "schedule.fire",
    ]);
  });

  it("S-SCHED-07: a paused schedule does not fire, resumed it does; a creator removed from the project is told by DM", async () => {
    const clock = movableClock();
    s = await slackBot({ clock, env });
    // A schedule posts only where its creator is a member (S-BUDGET-08): C1 lists the people.
    s.slack.setChannel("C1", { members: [OWNER, OTHER, ADMIN] });
    await ask(`project allow demo <@${OTHER}>`, ADMIN);
    const id = idIn(
      await ask(
        'schedule add demo "*/5 * * * *" --tz Europe/Paris --channel <#C1|general> check the build',
        OTHER,
      ),
    );
    expect(await ask("schedule list demo", OTHER)).toContain(id);
    await fire(clock, id, 1); // positive control
    expect(await ask(`schedule pause ${id}`, OTHER)).toContain("paused");
    expect(await ask("schedule list", OTHER)).toContain("paused");
    clock.advance(10 * 60_000);
    await pause(3_000);
    expect(Number((await scheduleRow(id)).fired_count)).toBe(1);
    expect(await ask(`schedule resume ${id}`, OTHER)).toContain("resumed");
    await fire(clock, id, 2);
    // Removed from the project: the next firing pauses the schedule and its creator is told.
    await ask(`project disallow demo <@${OTHER}>`, ADMIN);
    clock.reach(Number((await scheduleRow(id)).next_fire_at));
    const dm = await eventually(
      () => s!.slack.messages(s!.slack.dmChannel(OTHER)).find((m) => m.text.includes(id)),
      30_000,
      "the creator's DM",
    );
    expect(dm.text).toContain("paused");
    expect(await scheduleRow(id)).toMatchObject({ status: "paused", paused_reason: "access_lost" });
    expect(Number((await scheduleRow(id)).fired_count)).toBe(2);
    expect(await ask(`schedule remove ${id}`, OWNER)).toContain("removed"); // the project's owner may
  });
});
