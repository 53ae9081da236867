import os from "node:os";
import { describe, it, expect } from "vitest";
import { inputText } from "../../support/fakeModel.js";
import { slashCommandPayload } from "../../support/slackRequests.js";
import { startConversation } from "../../../src/engine/conversations/conversations.js";
import { OWNER, TEAM, eventually } from "../../support/slackBot.js";
import { multiServe, pause, LEASE_SECONDS } from "./shared.js";

describe("several serve instances on one PostgreSQL", () => {
  const { open, roots } = multiServe();

  it("requests a dead instance acked and never consumed are adopted by a survivor and answered once", async () => {
    const s = await open();
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
          response_url: s.slack.responseUrl(id),
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
        const open = await s.db
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
    const asked = (token: string) => s.model.requests.filter((r) => inputText(r).includes(token)).length;
    await eventually(() => asked("8101") && asked("8102"), 60_000, "both prompts asked");
    const items = async () =>
      s.db.selectFrom("prompt_queue").select(["request_key", "status"]).orderBy("seq").execute();
    await eventually(
      async () => (await items()).every((i) => i.status === "done"),
      60_000,
      "both turns done",
    );
    // The fresh one, asked in C1, has its thread: one root, one answer in it.
    const root = await eventually(() => roots()[0], 30_000, "the fresh request's root");
    const answered = () =>
      s.slack
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
