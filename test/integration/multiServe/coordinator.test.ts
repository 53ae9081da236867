import { describe, it, expect } from "vitest";
import { inputText } from "../../support/fakeModel.js";
import { messageEvent } from "../../support/slackRequests.js";
import { OWNER, eventually } from "../../support/slackBot.js";
import { multiServe, pause, LEASE_SECONDS } from "./shared.js";

describe("several serve instances on one PostgreSQL", () => {
  const { open, holder, ownedBy, takenBy, roots, said } = multiServe();

  it("one coordinator notifies, an event sent to both is taken once, and the other takes over after a SIGKILL", async () => {
    const s = await open();
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
    await takenBy(b.pid, LEASE_SECONDS * 1000 + 3_000);
    const takeoverMs = Date.now() - killedAt;
    console.log(`coordinator SIGKILLed → lease taken by the other serve in ${takeoverMs} ms`);
    expect(takeoverMs).toBeLessThan(LEASE_SECONDS * 1000);
    await b.command("ask demo again");
    await eventually(() => said("après la reprise 7103")[0], 60_000, "the answer after the takeover");
    await pause(1_500);
    expect(said("après la reprise 7103")).toHaveLength(1);
    expect(roots()).toHaveLength(2);
  }, 180_000);
});
