import path from "node:path";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import type { RunningBot } from "../../src/bot/server.js";
import type { FakeStep, ResponsesRequestBody } from "../support/fakeModel.js";
import { ADMIN, eventually, OWNER, slackBot } from "../support/slackBot.js";
import { appMentionEvent, messageEvent } from "../support/slackRequests.js";
import { settled } from "../support/settled.js";

// Issue 32, items 2 and 3, through the real bot (signed HTTP, intake, notifier), real workers and
// the real Codex binary against the fake model: a conversation's thread is the team's. People who
// may not prompt are never told "not found" and are told once what they may do; a teammate allowed
// to prompt the project carries the conversation on, named to the agent, charged and audited as
// themselves; `--thread-prompters author` keeps it to its author.

type Bot = Awaited<ReturnType<typeof slackBot>>;

/** Allowed to prompt the project (`/codex project allow demo @bob`). */
const BOB = "UBOB";
/** In the thread, but may not prompt the project (cannot even see it). */
const CAROL = "UCAROL";
const CLI = path.resolve("dist/bin/main.js");

/** The text of the request's last user message (the prompt of the turn it belongs to). */
function lastUser(body: ResponsesRequestBody): string {
  const users = (body.input ?? []).filter(
    (i): i is { role: string; content: Array<{ text?: string }> } =>
      typeof i === "object" && i !== null && (i as { role?: string }).role === "user",
  );
  const last = users[users.length - 1];
  return (Array.isArray(last?.content) ? last.content : []).map((c) => c.text ?? "").join("\n");
}

/** The model answers each prompt with its marker (`THR-…`), so that answers can be counted. */
function respond(body: ResponsesRequestBody): FakeStep {
  const marker = [...lastUser(body).matchAll(/THR-[A-Z0-9]+/g)].pop();
  return { kind: "text", text: marker ? `ANSWER ${marker[0]}` : "ok" };
}

/** The bot's posts in C1 (threads included) that carry the answer to `marker`. */
const answersOf = (b: Bot, marker: string) =>
  b.slack
    .messages("C1")
    .filter(
      (m) =>
        m.user === b.slack.botUserId &&
        `${m.text}${JSON.stringify(m.blocks ?? [])}`.includes(`ANSWER ${marker}`),
    );

/** The queued prompts whose text holds `marker` (one per turn started). */
const turnsOf = async (b: Bot, marker: string) =>
  (
    await b.db
      .selectFrom("prompt_queue")
      .select(["id", "conversation_id", "content", "requested_by", "writer_name"])
      .execute()
  ).filter((i) => i.content.includes(marker));

/** The model's requests for the turn whose prompt holds `marker`. */
const requestsOf = (b: Bot, marker: string) => b.model.requests.filter((r) => lastUser(r).includes(marker));

const ephemeralsTo = (b: Bot, user: string) => b.slack.ephemerals.filter((e) => e.user === user);
const notFound = (b: Bot) => b.slack.ephemerals.filter((e) => /not found|introuvable/i.test(e.text));

/** A message written by `user` in C1 (in `threadTs`'s thread when given), delivered as Slack does. */
async function say(b: Bot, user: string, text: string, threadTs?: string): Promise<string> {
  const m = b.slack.say({ channel: "C1", user, text, ...(threadTs ? { thread_ts: threadTs } : {}) });
  const at = { user, channel: "C1", text, ts: m.ts };
  if (threadTs) await b.event(messageEvent({ ...at, thread_ts: threadTs, parent_user_id: OWNER }));
  else await b.event(appMentionEvent(at));
  return at.ts;
}

/** The owner calls codexpi at the top of C1; answers the conversation's thread (its root's ts). */
async function ownersConversation(b: Bot, marker: string): Promise<string> {
  const ts = await say(b, OWNER, `<@${b.slack.botUserId}> demo ${marker} look at the import`);
  await eventually(() => answersOf(b, marker).length > 0, 60_000, `the answer to ${marker}`);
  return ts;
}

/** Lets the owner allow Bob to prompt the project, through Slack. */
async function allowBob(b: Bot): Promise<void> {
  const r = await b.command(`project allow demo <@${BOB}>`, OWNER);
  expect((await b.response(r.responseId)).text).toContain(BOB);
}

describe("a thread is the team's", () => {
  let bot: Bot | undefined;
  let other: RunningBot | undefined;
  afterEach(async () => {
    await other?.stop();
    other = undefined;
    await bot?.close();
    bot = undefined;
  });

  it("S-THREAD-01: three people in one thread, one of whom may not prompt, are never told 'not found'; she is told once, in her language (across two serve on PostgreSQL), and her words reach the agent with the next follow-up", async () => {
    bot = await slackBot({ env: { CODEXPI_LOCALE: "en" }, model: { respond } });
    const b = bot;
    b.slack.setUser(CAROL, { locale: "fr-FR" });
    await allowBob(b);
    const thread = await ownersConversation(b, "THR-ROOT");

    await say(b, CAROL, "CAROL-ONE the staging database is down since noon", thread);
    const told = await eventually(() => ephemeralsTo(b, CAROL)[0], 30_000, "Carol's notice");
    await say(b, CAROL, "CAROL-TWO and the replica too", thread);
    // Another `serve` on the same database takes the next deliveries: she is not told again there
    // (PostgreSQL; SQLite allows one serve per data directory, where the row alone decides).
    if (b.config.database.dialect === "postgres") {
      other = await b.another();
      b.sendTo(other);
    }
    await say(b, CAROL, "CAROL-THREE any news?", thread);
    await say(b, BOB, "THR-BOB check the staging connection string", thread);
    await eventually(() => answersOf(b, "THR-BOB").length > 0, 60_000, "the answer to Bob");
    await say(b, OWNER, "THR-OWNER thanks, now fix it", thread);
    await eventually(() => answersOf(b, "THR-OWNER").length > 0, 60_000, "the answer to the owner");
    await settled(b, 60_000);

    // Told once (the positive control of "never again"), in French, naming who may allow her.
    expect(ephemeralsTo(b, CAROL)).toHaveLength(1);
    expect(told.text).toContain("(Je ne le redirai pas dans ce fil.)");
    expect(told.text).toContain(`<@${OWNER}>`);
    expect(told.text).toContain(`<@${ADMIN}>`);
    expect(told.text).toContain("/codex project allow demo");
    expect(notFound(b)).toEqual([]);
    expect(ephemeralsTo(b, BOB)).toEqual([]);
    expect(ephemeralsTo(b, OWNER)).toEqual([]);
    // Her words ran nothing of their own, and reached the agent, quoted, with Bob's follow-up.
    expect(await turnsOf(b, "CAROL-")).toEqual([]);
    const [bobs] = requestsOf(b, "THR-BOB");
    expect(bobs).toBeDefined();
    for (const words of ["CAROL-ONE", "CAROL-TWO", "CAROL-THREE"])
      expect(lastUser(bobs as ResponsesRequestBody)).toContain(words);
    expect(
      await b.db
        .selectFrom("slack_thread_notices")
        .select("user_id")
        .where("thread_ts", "=", thread)
        .execute(),
    ).toEqual([{ user_id: CAROL }]);
  }, 240_000);

  it("S-THREAD-02: a teammate's follow-up in someone else's thread runs in that conversation and the agent sees the teammate's name; S-THREAD-04: the turn is charged to the teammate and the audit names them", async () => {
    bot = await slackBot({ env: { CODEXPI_LOCALE: "en" }, model: { respond } });
    const b = bot;
    await allowBob(b);
    const thread = await ownersConversation(b, "THR-FIRST");
    const [first] = await turnsOf(b, "THR-FIRST");

    await say(b, BOB, "THR-TEAM run the parser tests", thread);
    await eventually(() => answersOf(b, "THR-TEAM").length > 0, 60_000, "the answer to Bob");
    await say(b, OWNER, "THR-AFTER and commit", thread);
    await eventually(() => answersOf(b, "THR-AFTER").length > 0, 60_000, "the answer to the owner");
    await settled(b, 60_000);

    const [bobs] = await turnsOf(b, "THR-TEAM");
    expect(bobs).toMatchObject({
      conversation_id: first?.conversation_id,
      requested_by: BOB,
      writer_name: "ubob",
    });
    expect(lastUser(requestsOf(b, "THR-TEAM")[0] as ResponsesRequestBody)).toContain(
      "Follow-up written in the conversation's Slack thread by ubob (not the person who started the conversation):\nTHR-TEAM run the parser tests",
    );
    // The thread is shared now: the author's own follow-up is named too; the first prompt was not.
    expect(lastUser(requestsOf(b, "THR-AFTER")[0] as ResponsesRequestBody)).toContain(
      "Follow-up written by uowner, who started the conversation:\nTHR-AFTER",
    );
    expect(lastUser(requestsOf(b, "THR-FIRST")[0] as ResponsesRequestBody)).not.toContain(
      "Follow-up written",
    );
    expect(answersOf(b, "THR-TEAM")[0]?.thread_ts).toBe(thread);
    expect(b.slack.ephemerals).toEqual([]);

    // Charged to the person who wrote each turn.
    const usage = await b.db.selectFrom("turn_usage").select(["queue_id", "person"]).execute();
    const [owners] = await turnsOf(b, "THR-AFTER");
    expect(usage).toEqual(
      expect.arrayContaining([
        { queue_id: bobs?.id, person: BOB },
        { queue_id: owners?.id, person: OWNER },
        { queue_id: first?.id, person: OWNER },
      ]),
    );
    const audit = await b.db
      .selectFrom("audit_events")
      .select(["actor", "outcome", "detail"])
      .where("action", "=", "conversation.follow_up")
      .execute();
    expect(audit.find((a) => a.detail?.includes("THR-TEAM"))).toMatchObject({ actor: BOB, outcome: "ok" });
    expect(audit.find((a) => a.detail?.includes("THR-AFTER"))).toMatchObject({ actor: OWNER, outcome: "ok" });
  }, 240_000);

  it("S-THREAD-03: with --thread-prompters author (set on the command line) a teammate's follow-up does not run and they are told once why; set back to prompters from Slack, the same reply runs", async () => {
    bot = await slackBot({ env: { CODEXPI_LOCALE: "en" }, model: { respond } });
    const b = bot;
    await allowBob(b);
    const cli = await execa(
      process.execPath,
      [CLI, "project", "set", "demo", "--thread-prompters", "author"],
      { env: { ...process.env, ...b.env }, reject: false },
    );
    expect(cli.exitCode, cli.stderr).toBe(0);
    expect(cli.stdout).toContain("demo: who follows up its conversations: author");
    const thread = await ownersConversation(b, "THR-MINE");

    await say(b, BOB, "THR-NOPE take over from here", thread);
    const told = await eventually(() => ephemeralsTo(b, BOB)[0], 30_000, "Bob's notice");
    await say(b, BOB, "THR-NOPETOO please", thread);
    await say(b, OWNER, "THR-STILL go on", thread);
    await eventually(() => answersOf(b, "THR-STILL").length > 0, 60_000, "the owner's follow-up");
    await settled(b, 60_000);
    expect(await turnsOf(b, "THR-NOPE")).toEqual([]);
    expect(ephemeralsTo(b, BOB)).toHaveLength(1);
    expect(told.text).toContain(
      `Only <@${OWNER}> (who started this conversation and owns *demo*) and admins may prompt in this conversation`,
    );
    expect(told.text).toContain("Start your own conversation: `/codex ask demo …`.");
    expect(notFound(b)).toEqual([]);

    // The control: the project's owner gives its threads back to the team, from Slack.
    const set = await b.command("project set demo --thread-prompters prompters", OWNER);
    expect((await b.response(set.responseId)).text).toContain(
      "anyone allowed to prompt it may follow up, stop and answer decisions",
    );
    await say(b, BOB, "THR-NOWOK take over from here", thread);
    await eventually(() => answersOf(b, "THR-NOWOK").length > 0, 60_000, "Bob's follow-up");
    const [bobs] = await turnsOf(b, "THR-NOWOK");
    expect(bobs?.requested_by).toBe(BOB);
  }, 240_000);
});
