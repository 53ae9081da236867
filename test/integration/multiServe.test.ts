import os from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { inputText } from "../support/fakeModel.js";
import { messageEvent, slashCommandPayload } from "../support/slackRequests.js";
import { startConversation } from "../../src/engine/conversations/conversations.js";
import { OWNER, TEAM, eventually } from "../support/slackBot.js";
import { serveProcess } from "../support/serveProcess.js";
import { tempDir } from "../support/engine.js";
import { testDatabase } from "../support/testDatabase.js";

// Run by the postgres project only (vitest.config.ts): two real `serve` processes on one
// PostgreSQL and one data directory (the Codex homes), sharing the intake journal of that
// database, one fake Slack and model.

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const LEASE_SECONDS = 5;

describe("several serve instances on one PostgreSQL", () => {
  let s: Awaited<ReturnType<typeof serveProcess>> | undefined;
  afterEach(async () => {
    await s?.close();
    s = undefined;
  });

  const holder = async () =>
    (await s!.db.selectFrom("leases").select("owner").where("name", "=", "coordinator").executeTakeFirst())
      ?.owner ?? null;
  const ownedBy = (pid: number | null) => new RegExp(`^${os.hostname()}:${pid}:`);
  const roots = () => s!.slack.messages("C1").filter((m) => !m.thread_ts || m.thread_ts === m.ts);
  const said = (text: string) => s!.slack.messages().filter((m) => m.text.includes(text));

  it("one coordinator notifies, an event sent to both is taken once, and the other takes over after a SIGKILL", async () => {
    s = await serveProcess({ database: await testDatabase(tempDir()) });
    s.model.enqueue(
      { kind: "text", text: "premier tour 7101" },
      { kind: "text", text: "second tour 7102" },
      { kind: "text", text: "après la reprise 7103" },
    );
    const env = { CODEXPI_LEASE_SECONDS: String(LEASE_SECONDS) };
    await s.start(env);
    const b = await s.another(env);
    expect(await holder()).toMatch(ownedBy(s.pid)); // the first one started is the coordinator

    // A command to the standby instance: it acks and enqueues; the answer is posted once.
    const res = await b.command("ask demo hello");
    expect(res.status).toBe(200);
    const root = await eventually(() => roots()[0], 30_000, "root message");
    await eventually(() => said("premier tour 7101")[0], 60_000, "first answer");
    await pause(1_500);
    expect(roots()).toHaveLength(1);
    expect(said("premier tour 7101")).toHaveLength(1);
    expect(s.slack.answers().filter((r) => r.id === res.responseId)).toHaveLength(1);
    expect(await holder()).toMatch(ownedBy(s.pid)); // the standby never took the lease meanwhile

    // Slack retries an event to another instance: the same event_id at both, at once.
    const reply = messageEvent({
      user: OWNER,
      channel: "C1",
      text: "et ensuite ?",
      ts: "1800000000.000700",
      thread_ts: root.ts,
      parent_user_id: s.slack.botUserId,
    });
    const [toA, toB] = await Promise.all([s.event(reply, "EvSameEvent7"), b.event(reply, "EvSameEvent7")]);
    expect([toA.status, toB.status]).toEqual([200, 200]);
    await eventually(() => said("second tour 7102")[0], 60_000, "the reply answered");
    await pause(2_000);
    expect(said("second tour 7102")).toHaveLength(1);
    expect(s.model.requests).toHaveLength(2);
    expect(inputText(s.model.requests[1]!)).toContain("et ensuite ?");
    const items = await s.db.selectFrom("prompt_queue").select("status").execute();
    expect(items.map((i) => i.status)).toEqual(["done", "done"]);
    // Taken once: one row in the shared journal, one key in the main database.
    const keys = await s.db
      .selectFrom("slack_events")
      .select("event_id")
      .where("event_id", "=", "EvSameEvent7")
      .execute();
    expect(keys).toHaveLength(1);

    // The coordinator dies: the other instance takes the lease (same host: its holder is provably
    // dead, so at its next tick; at most the lease time otherwise) and notifies from then on.
    const killedAt = Date.now();
    await s.kill();
    await eventually(
      async () => ownedBy(b.pid).test((await holder()) ?? ""),
      LEASE_SECONDS * 1000 + 3_000,
      "the takeover",
    );
    const takeoverMs = Date.now() - killedAt;
    console.log(`coordinator SIGKILLed → lease taken by the other serve in ${takeoverMs} ms`);
    expect(takeoverMs).toBeLessThan(LEASE_SECONDS * 1000);
    await b.command("ask demo again");
    await eventually(() => said("après la reprise 7103")[0], 60_000, "the answer after the takeover");
    await pause(1_500);
    expect(said("après la reprise 7103")).toHaveLength(1);
    expect(roots()).toHaveLength(2);
  }, 180_000);

  it("a coordinator that died on another machine is replaced only once its lease has expired, and then within a tick", async () => {
    s = await serveProcess({ database: await testDatabase(tempDir()) });
    const env = { CODEXPI_LEASE_SECONDS: String(LEASE_SECONDS) };
    await s.start(env);
    const b = await s.another(env);
    expect(await holder()).toMatch(ownedBy(s.pid));
    // The holder's id names another host: nothing here can prove it dead (as for a coordinator on
    // another machine); it stops renewing (its own id no longer matches) and is killed.
    const lease = await s.db
      .updateTable("leases")
      .set({ owner: "another-machine:4242:1:abcdef" })
      .where("name", "=", "coordinator")
      .returning("expires_at")
      .executeTakeFirstOrThrow();
    const killedAt = Date.now();
    await s.kill();
    await eventually(
      async () => ownedBy(b.pid).test((await holder()) ?? ""),
      LEASE_SECONDS * 1000 + 5_000,
      "the takeover",
    );
    const takenAt = Date.now();
    console.log(
      `coordinator on "another machine" gone → lease taken ${takenAt - killedAt} ms later (${takenAt - lease.expires_at} ms after it expired)`,
    );
    expect(takenAt).toBeGreaterThanOrEqual(lease.expires_at); // not before the expiry
    expect(takenAt - lease.expires_at).toBeLessThan(3_000); // the next tick (every second) took it
  }, 60_000);

  it("requests a dead instance acked and never consumed are adopted by a survivor and answered once", async () => {
    s = await serveProcess({ database: await testDatabase(tempDir()) });
    s.model.enqueue({ kind: "text", text: "réponse 8101" }, { kind: "text", text: "réponse 8102" });
    const env = { CODEXPI_LEASE_SECONDS: String(LEASE_SECONDS) };
    await s.start(env);
    const b = await s.another(env);
    // An instance of this machine that died (no such pid): it had acked two `/codex ask`. The first
    // it never began; the second it had taken and queued, then died before marking it done.
    const dead = `${os.hostname()}:999999:1:dead00`;
    const body = (text: string, id: string) =>
      JSON.stringify(
        slashCommandPayload({
          text,
          user_id: OWNER,
          channel_id: "C1",
          team_id: TEAM,
          response_url: s!.slack.responseUrl(id),
        }),
      );
    const now = Date.now();
    const project = await s.db
      .selectFrom("projects")
      .selectAll()
      .where("name", "=", "demo")
      .executeTakeFirstOrThrow();
    await startConversation(s.db, { now: () => now }, project, "ask half 8102", OWNER, {
      requestKey: "sig:half",
    });
    await s.db.insertInto("slack_events").values({ event_id: "sig:half", received_at: now }).execute();
    await s.db
      .insertInto("intake_requests")
      .values([
        {
          key: "sig:fresh",
          kind: "command",
          body: body("ask demo fresh 8101", "fresh"),
          owner: dead,
          received_at: now,
        },
        {
          key: "sig:half",
          kind: "command",
          body: body("ask demo half 8102", "half"),
          owner: dead,
          received_at: now,
        },
      ])
      .execute();
    const adoptedAt = await eventually(
      async () => {
        const open = await s!.db
          .selectFrom("intake_requests")
          .select("id")
          .where("status", "<>", "done")
          .execute();
        return open.length === 0 ? Date.now() : null;
      },
      15_000,
      "the dead instance's requests consumed",
    );
    console.log(
      `requests of a dead instance consumed by a survivor ${adoptedAt - now} ms after they were left`,
    );
    // Each prompt reached the model once (its answer is whichever the fake model gave first).
    const asked = (token: string) => s!.model.requests.filter((r) => inputText(r).includes(token)).length;
    await eventually(() => asked("8101") && asked("8102"), 60_000, "both prompts asked");
    const items = async () =>
      s!.db.selectFrom("prompt_queue").select(["request_key", "status"]).orderBy("seq").execute();
    await eventually(
      async () => (await items()).every((i) => i.status === "done"),
      60_000,
      "both turns done",
    );
    // The fresh one, asked in C1, has its thread: one root, one answer in it.
    const root = await eventually(() => roots()[0], 30_000, "the fresh request's root");
    const answered = () =>
      s!.slack
        .messages("C1")
        .filter((m) => m.thread_ts === root.ts && m.ts !== root.ts && /réponse 810[12]/.test(m.text));
    await eventually(() => answered()[0], 30_000, "the fresh request's answer");
    await pause(2_000);
    expect([asked("8101"), asked("8102")]).toEqual([1, 1]);
    expect(await items()).toEqual([
      { request_key: "sig:half", status: "done" },
      { request_key: "sig:fresh", status: "done" },
    ]);
    expect(roots()).toHaveLength(1);
    expect(answered()).toHaveLength(1);
    // The survivor that consumed the fresh one answered its person (the response URL).
    expect(s.slack.answers().filter((r) => r.id === "fresh")).toHaveLength(1);
    expect(b.pid).toBeGreaterThan(0);
  }, 120_000);
});
