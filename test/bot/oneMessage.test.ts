import { afterEach, describe, expect, it } from "vitest";
import type { RunningBot } from "../../src/bot/server.js";
import type { FakeStep, ResponsesRequestBody } from "../support/fakeModel.js";
import { eventually, OWNER, SECRET, slackBot, TEAM } from "../support/slackBot.js";
import { appMentionEvent, eventBody, messageEvent, postSigned } from "../support/slackRequests.js";
import { settled } from "../support/settled.js";

// Issue 32, item 1, through the real bot (signed HTTP, intake, notifier), real workers and the
// real Codex binary against the fake model: Slack delivers a message that mentions the bot as
// `app_mention` and as `message` (other event ids, either order), retries on top; the message,
// (channel, ts), starts one turn and gets one answer.

type Bot = Awaited<ReturnType<typeof slackBot>>;

/** The model answers each prompt with its marker (`ONE-…`), so that answers can be counted. */
function respond(body: ResponsesRequestBody): FakeStep {
  // The last marker: the prompt's own, after any quoted thread context.
  const marker = [...lastUser(body).matchAll(/ONE-[A-Z0-9]+/g)].pop();
  return { kind: "text", text: marker ? `ANSWER ${marker[0]}` : "ok" };
}

/** The text of the request's last user message (the prompt of the turn it belongs to). */
function lastUser(body: ResponsesRequestBody): string {
  const users = (body.input ?? []).filter(
    (i): i is { role: string; content: Array<{ text?: string }> } =>
      typeof i === "object" && i !== null && (i as { role?: string }).role === "user",
  );
  const last = users[users.length - 1];
  return (Array.isArray(last?.content) ? last.content : []).map((c) => c.text ?? "").join("\n");
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The queued prompts whose text holds `marker` (one per turn started). */
const turnsOf = async (b: Bot, marker: string) =>
  (await b.db.selectFrom("prompt_queue").select(["id", "content"]).execute()).filter((i) =>
    i.content.includes(marker),
  );

/** The bot's posts in `channel` (threads included) that carry the answer to `marker`. */
const answersOf = (b: Bot, channel: string, marker: string) =>
  b.slack
    .messages(channel)
    .filter(
      (m) =>
        m.user === b.slack.botUserId &&
        `${m.text}${JSON.stringify(m.blocks ?? [])}`.includes(`ANSWER ${marker}`),
    );

/** Waits for the answer, lets everything settle, and checks one turn and one answer. */
async function expectOneHandling(b: Bot, channel: string, marker: string): Promise<void> {
  await eventually(() => answersOf(b, channel, marker).length > 0, 60_000, `the answer to ${marker}`);
  await settled(b, 60_000);
  expect(await turnsOf(b, marker)).toHaveLength(1);
  expect(answersOf(b, channel, marker)).toHaveLength(1);
  expect(b.model.requests.filter((r) => lastUser(r).includes(marker))).toHaveLength(1);
  // The twin said nothing to anyone: no ephemeral "not found", usage or project choice.
  expect(b.slack.ephemerals).toEqual([]);
}

/** Posts an event to one `serve` (its Slack port), as Slack would, a retry when `retryNum` is given. */
const deliver = (
  b: Bot,
  to: RunningBot | null,
  event: Record<string, unknown> & { type: string },
  eventId: string,
  retryNum?: number,
) =>
  postSigned(
    to ? `http://127.0.0.1:${to.slack?.port ?? 0}` : b.base,
    "/slack/events",
    eventBody({ event, event_id: eventId, team_id: TEAM, bot_user_id: b.slack.botUserId }),
    "json",
    SECRET,
    retryNum === undefined ? {} : { retryNum },
  );

describe("one Slack message, one handling", () => {
  let bot: Bot | undefined;
  let other: RunningBot | undefined;
  afterEach(async () => {
    await other?.stop();
    other = undefined;
    await bot?.close();
    bot = undefined;
  });

  /** A mention written by the owner in `channel` (in `threadTs`'s thread when given), and its two events. */
  function mention(b: Bot, channel: string, marker: string, threadTs?: string) {
    const text = `<@${b.slack.botUserId}> demo ${marker} please`;
    const m = b.slack.say({ channel, user: OWNER, text, ...(threadTs ? { thread_ts: threadTs } : {}) });
    const at = { user: OWNER, channel, text, ts: m.ts, ...(threadTs ? { thread_ts: threadTs } : {}) };
    return { ts: m.ts, appMention: appMentionEvent(at), message: messageEvent(at) };
  }

  it("S-ONE-01: a mention at the top level delivered as app_mention then message, and another as message then app_mention, each run one turn and post one answer", async () => {
    bot = await slackBot({ env: { CODEXPI_LOCALE: "en" }, model: { respond } });
    const b = bot;
    const first = mention(b, "C1", "ONE-TOPA");
    await b.event(first.appMention);
    await b.event(first.message);
    await expectOneHandling(b, "C1", "ONE-TOPA");
    const second = mention(b, "C1", "ONE-TOPB");
    await b.event(second.message);
    await b.event(second.appMention);
    await expectOneHandling(b, "C1", "ONE-TOPB");
  }, 180_000);

  it("S-ONE-02: a mention in someone's thread delivered as app_mention, then as message 1.5 s later (the thread now a conversation's), runs one turn and posts one answer", async () => {
    bot = await slackBot({ env: { CODEXPI_LOCALE: "en" }, model: { respond } });
    const b = bot;
    const root = b.slack.say({ channel: "C1", user: "UALICE", text: "the import fails" });
    const m = mention(b, "C1", "ONE-LATE", root.ts);
    await b.event(m.appMention);
    await eventually(async () => (await turnsOf(b, "ONE-LATE")).length > 0, 30_000, "the conversation");
    await sleep(1500);
    await b.event(m.message);
    await expectOneHandling(b, "C1", "ONE-LATE");
  }, 180_000);

  it("S-ONE-03: a mention in someone's thread delivered as message then app_mention, and both at once, runs one turn each", async () => {
    bot = await slackBot({ env: { CODEXPI_LOCALE: "en" }, model: { respond } });
    const b = bot;
    const root = b.slack.say({ channel: "C1", user: "UALICE", text: "the import fails" });
    const m = mention(b, "C1", "ONE-REV", root.ts);
    await b.event(m.message);
    await b.event(m.appMention);
    await expectOneHandling(b, "C1", "ONE-REV");
    const root2 = b.slack.say({ channel: "C1", user: "UALICE", text: "the export fails" });
    const both = mention(b, "C1", "ONE-BOTH", root2.ts);
    await Promise.all([b.event(both.appMention), b.event(both.message)]);
    await expectOneHandling(b, "C1", "ONE-BOTH");
  }, 180_000);

  it("S-ONE-04: a mention in a conversation's thread, delivered both ways in either order, is one follow-up: one turn, one answer; a retry of the same event_id changes nothing", async () => {
    bot = await slackBot({ env: { CODEXPI_LOCALE: "en" }, model: { respond } });
    const b = bot;
    const start = mention(b, "C1", "ONE-START");
    await b.event(start.appMention);
    await expectOneHandling(b, "C1", "ONE-START");
    const threadTs = start.ts;

    const follow = mention(b, "C1", "ONE-FOLLOW", threadTs);
    await deliver(b, null, follow.appMention, "EvFOLLOWMENTION");
    await deliver(b, null, follow.message, "EvFOLLOWMESSAGE");
    await deliver(b, null, follow.message, "EvFOLLOWMESSAGE", 1);
    await expectOneHandling(b, "C1", "ONE-FOLLOW");

    const reverse = mention(b, "C1", "ONE-BACK", threadTs);
    await deliver(b, null, reverse.message, "EvBACKMESSAGE");
    await sleep(1500);
    await deliver(b, null, reverse.appMention, "EvBACKMENTION");
    await deliver(b, null, reverse.appMention, "EvBACKMENTION", 1);
    await expectOneHandling(b, "C1", "ONE-BACK");
  }, 240_000);

  it("S-ONE-05: two different messages in the same thread (different ts) run two turns (the control)", async () => {
    bot = await slackBot({ env: { CODEXPI_LOCALE: "en" }, model: { respond } });
    const b = bot;
    const start = mention(b, "C1", "ONE-CTLA");
    await b.event(start.appMention);
    await b.event(start.message);
    await expectOneHandling(b, "C1", "ONE-CTLA");
    const next = mention(b, "C1", "ONE-CTLB", start.ts);
    await b.event(next.appMention);
    await b.event(next.message);
    await expectOneHandling(b, "C1", "ONE-CTLB");
    expect((await b.db.selectFrom("prompt_queue").select("id").execute()).length).toBe(2);
    expect((await b.db.selectFrom("conversations").select("id").execute()).length).toBe(1);
  }, 180_000);

  it("S-ONE-08: a mention with a file, delivered as app_mention and as its message file_share twin (both orders, top level and in a conversation's thread), runs one turn each and stages the file once", async () => {
    bot = await slackBot({ env: { CODEXPI_LOCALE: "en" }, model: { respond } });
    const b = bot;
    const withFile = (marker: string, threadTs?: string) => {
      const m = mention(b, "C1", marker, threadTs);
      const file = b.slack.shared.share({ name: `${marker}.txt`, content: Buffer.from(`${marker}\n`) });
      return {
        ...m,
        appMention: { ...m.appMention, files: [file] },
        fileShare: { ...m.message, subtype: "file_share", files: [file] },
      };
    };
    const top = withFile("ONE-FILEA");
    await b.event(top.appMention);
    await b.event(top.fileShare);
    await expectOneHandling(b, "C1", "ONE-FILEA");
    const follow = withFile("ONE-FILEB", top.ts);
    await b.event(follow.fileShare);
    await b.event(follow.appMention);
    await expectOneHandling(b, "C1", "ONE-FILEB");
    // Each prompt carries its file once (the twin staged nothing of its own).
    for (const marker of ["ONE-FILEA", "ONE-FILEB"]) {
      const [item] = await turnsOf(b, marker);
      const row = await b.db
        .selectFrom("prompt_queue")
        .select("attachments")
        .where("id", "=", item!.id)
        .executeTakeFirstOrThrow();
      expect(JSON.parse(row.attachments ?? "[]")).toHaveLength(1);
    }
  }, 180_000);

  it("S-ONE-07: the twins of a mention in a thread reaching two serve at once (PostgreSQL; one serve on SQLite) run one turn and post one answer", async () => {
    bot = await slackBot({ env: { CODEXPI_LOCALE: "en" }, model: { respond } });
    const b = bot;
    // SQLite allows one serve per data directory: there both twins reach the same one.
    if (b.config.database.dialect === "postgres") other = await b.another();
    const root = b.slack.say({ channel: "C1", user: "UALICE", text: "the deploy fails" });
    const m = mention(b, "C1", "ONE-TWO", root.ts);
    await Promise.all([
      deliver(b, null, m.appMention, "EvTWOMENTION"),
      deliver(b, other ?? null, m.message, "EvTWOMESSAGE"),
    ]);
    await expectOneHandling(b, "C1", "ONE-TWO");
    expect((await b.db.selectFrom("conversations").select("id").execute()).length).toBe(1);
  }, 180_000);
});
