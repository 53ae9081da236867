import { afterEach, describe, expect, it } from "vitest";
import { secondProject } from "../support/secondProject.js";
import { inputText, type ResponsesRequestBody } from "../support/fakeModel.js";
import { ADMIN, OTHER, OWNER, eventually, slackBot } from "../support/slackBot.js";
import { appMentionEvent, messageEvent } from "../support/slackRequests.js";

// Issue 32, item 4 through the real bot (signed HTTP, notifier, ticker), real `codexpi worker`
// processes and the real Codex binary against the fake model: a channel's settings (project,
// model, effort, instructions), a request's own options over them, who may set them, no picker
// for a single project, and `project share` in one step. The configured model is gpt-5.5 at
// effort low (test/support/codexHome.ts): the channel asks for others, so that the checks can fail.

type Bot = Awaited<ReturnType<typeof slackBot>>;

/** The requests of one prompt (its marker in the input). */
const requestsOf = (b: Bot, marker: string): ResponsesRequestBody[] =>
  b.model.requests.filter((r) => inputText(r).includes(marker));
/** What a request says in one role (developer: codexpi's instructions; user: the prompt). */
const said = (r: ResponsesRequestBody, role: "developer" | "user") =>
  JSON.stringify((r.input ?? []).filter((i) => (i as { role?: string }).role === role));
const effortOf = (r: ResponsesRequestBody) => (r.reasoning as { effort?: string } | undefined)?.effort;

describe("channel settings through the real bot", () => {
  let bot: Bot | undefined;
  afterEach(async () => {
    await bot?.close();
    bot = undefined;
  });

  const say = async (b: Bot, text: string, user = OWNER, channel = "C7") => {
    const r = await b.command(text, user, channel);
    const response = await b.response(r.responseId);
    return [response.text ?? "", JSON.stringify(response.blocks ?? [])].join("\n");
  };
  const mention = (b: Bot, user: string, channel: string, text: string, ts: string) =>
    b.event(appMentionEvent({ user, channel, text: `<@${b.slack.botUserId}> ${text}`, ts }));
  const conversationsOf = (b: Bot) =>
    b.db
      .selectFrom("conversations")
      .innerJoin("projects", "projects.id", "conversations.project_id")
      .select(["projects.name", "conversations.user_id", "model", "effort", "instructions", "title"])
      .orderBy("conversations.created_at")
      .execute();
  const asked = async (b: Bot, marker: string) =>
    eventually(
      () => (requestsOf(b, marker).length ? requestsOf(b, marker) : null),
      90_000,
      `the model's request for ${marker}`,
    );

  it("S-CHAN-01: a channel's project, model, effort and instructions apply to a mention and to `/codex ask` without a project there, at every turn, the instructions labelled as the channel's and never in the prompt; another channel runs the project's defaults", async () => {
    bot = await slackBot();
    const b = bot;
    expect(await say(b, "project set demo --models gpt-5.5,gpt-5.6-terra", ADMIN)).toContain("gpt-5.6-terra");
    const set = await say(
      b,
      'channel set project=demo model=gpt-5.6-terra effort=high instructions="Réponds en haïku CHAN-INSTR"',
    );
    expect(set).toContain("*demo*");
    expect(set).toContain("`gpt-5.6-terra`");
    expect(set).toContain("`high`");
    expect(set).toContain("> Réponds en haïku CHAN-INSTR");
    // Anyone in the channel reads them; the project they cannot see stays unnamed.
    const shown = await say(b, "channel", OTHER);
    expect(shown).toContain("un projet que tu ne vois pas");
    expect(shown).not.toContain("demo");

    await mention(b, OWNER, "C7", "CHAN-ALPHA fais X", "1800000000.000100");
    for (const r of await asked(b, "CHAN-ALPHA")) {
      expect(r.model).toBe("gpt-5.6-terra");
      expect(effortOf(r)).toBe("high");
      expect(said(r, "developer")).toContain("Instructions du canal");
      expect(said(r, "developer")).toContain("Réponds en haïku CHAN-INSTR");
      expect(said(r, "user")).not.toContain("CHAN-INSTR");
    }
    const [first] = await conversationsOf(b);
    expect(first).toMatchObject({
      name: "demo",
      model: "gpt-5.6-terra",
      effort: "high",
      instructions: "Réponds en haïku CHAN-INSTR",
    });

    // A follow-up in its thread: the same settings, the instructions told again.
    await b.event(
      messageEvent({
        user: OWNER,
        channel: "C7",
        text: "CHAN-FOLLOW et ensuite",
        ts: "1800000000.000150",
        thread_ts: "1800000000.000100",
      }),
    );
    for (const r of await asked(b, "CHAN-FOLLOW")) {
      expect(r.model).toBe("gpt-5.6-terra");
      expect(said(r, "developer")).toContain("Réponds en haïku CHAN-INSTR");
    }

    // `/codex ask` without a project in that channel: the same.
    await b.command("ask CHAN-CHARLIE fais Y", OWNER, "C7");
    for (const r of await asked(b, "CHAN-CHARLIE")) {
      expect(r.model).toBe("gpt-5.6-terra");
      expect(said(r, "developer")).toContain("Réponds en haïku CHAN-INSTR");
    }

    // Control: in a channel without settings, the project's defaults and no instructions.
    await mention(b, OWNER, "C8", "CHAN-DELTA fais Z", "1800000000.000200");
    for (const r of await asked(b, "CHAN-DELTA")) {
      expect(r.model).toBe("gpt-5.5");
      expect(effortOf(r)).toBe("low");
      expect(said(r, "developer")).not.toContain("CHAN-INSTR");
      expect(said(r, "developer")).not.toContain("Instructions du canal");
    }
  }, 240_000);

  it("S-CHAN-02: a request's own `model=` and `effort=` win over the channel's, within the project's list; a channel model the project no longer allows is refused by name", async () => {
    bot = await slackBot();
    const b = bot;
    await say(b, "project set demo --models gpt-5.5,gpt-5.6-terra,gpt-5.6-luna", ADMIN);
    await say(b, "channel set project=demo model=gpt-5.6-terra effort=high");

    await mention(b, OWNER, "C7", "model=gpt-5.6-luna effort=medium CHAN-ECHO fais X", "1800000000.000100");
    for (const r of await asked(b, "CHAN-ECHO")) {
      expect(r.model).toBe("gpt-5.6-luna");
      expect(effortOf(r)).toBe("medium");
    }
    // Still within the list: a request's model the project does not allow is refused.
    await mention(b, OWNER, "C7", "model=gpt-9 CHAN-FOXTROT", "1800000000.000200");
    const refused = await eventually(
      () => b.slack.ephemerals.find((e) => e.channel === "C7" && e.text.includes("gpt-9")),
      20_000,
      "the refusal",
    );
    expect(refused.text).toContain("gpt-5.5, gpt-5.6-terra, gpt-5.6-luna");

    // The admin narrows the list: the channel's model is refused, naming the channel's setting.
    await say(b, "project set demo --models gpt-5.5", ADMIN);
    await mention(b, OWNER, "C7", "CHAN-GOLF", "1800000000.000300");
    const stale = await eventually(
      () => b.slack.ephemerals.find((e) => e.channel === "C7" && e.text.includes("modèle de ce canal")),
      20_000,
      "the stale model's refusal",
    );
    expect(stale.text).toContain("gpt-5.6-terra");
    expect(requestsOf(b, "CHAN-FOXTROT")).toEqual([]);
    expect(requestsOf(b, "CHAN-GOLF")).toEqual([]);
    expect((await conversationsOf(b)).map((c) => c.title)).toEqual([expect.stringContaining("CHAN-ECHO")]);
  }, 180_000);

  it("S-CHAN-03: only the project's owner or an admin changes a channel's settings; bad input is told precisely (unknown key, model not allowed, unknown project with did-you-mean); unset and clear go back", async () => {
    bot = await slackBot();
    const b = bot;
    const settingsRow = () =>
      b.db.selectFrom("slack_channel_defaults").selectAll().where("channel_id", "=", "C7").executeTakeFirst();
    // Someone who cannot see the project: "not found"; allowed to prompt it but not its owner: refused.
    expect(await say(b, "channel set project=demo", OTHER)).toMatch(/introuvable/i);
    await say(b, `project allow demo <@${OTHER}>`);
    expect(await say(b, "channel set project=demo", OTHER)).toMatch(/^Seuls le propriétaire du projet demo/);
    expect(await settingsRow()).toBeUndefined();
    // Control: the owner may.
    expect(await say(b, "channel set project=demo")).toContain("*demo*");
    expect(await settingsRow()).toMatchObject({ project_id: b.project.id });
    // …and a non-owner still may not change or clear it.
    expect(await say(b, 'channel set instructions="x"', OTHER)).toMatch(
      /^Seuls le propriétaire du projet demo/,
    );
    expect(await say(b, "channel clear", OTHER)).toMatch(/^Seuls le propriétaire du projet demo/);
    expect(await settingsRow()).toMatchObject({ instructions: null });

    expect(await say(b, "channel set modle=gpt-5.5")).toContain("voulais-tu dire `model`");
    expect(await say(b, "channel set effort=max")).toContain("low, medium, high");
    expect(await say(b, "channel set model=gpt-5.6-terra")).toContain("--models");
    await say(b, "project set demo --models gpt-5.5,gpt-5.6-luna", ADMIN);
    expect(await say(b, "channel set model=gpt-5.6-terra")).toContain("gpt-5.5, gpt-5.6-luna");
    expect(await say(b, "channel set project=dmeo")).toMatch(/introuvable.*demo/is);
    expect(await settingsRow()).toMatchObject({ model: null, effort: null });

    // The admin may, for any project; unset takes one setting back, clear all of them.
    expect(await say(b, 'channel set model=gpt-5.6-luna instructions="Sois bref"', ADMIN)).toContain(
      "`gpt-5.6-luna`",
    );
    const unset = await say(b, "channel unset model");
    expect(unset).toContain("modèle : celui du projet");
    expect(unset).toContain("> Sois bref");
    expect(await settingsRow()).toMatchObject({ model: null, instructions: "Sois bref" });
    expect(await say(b, "channel clear")).toMatch(/retirés/);
    expect(await settingsRow()).toBeUndefined();
    expect(await say(b, "channel")).toMatch(/n’a pas de réglages/);
  }, 120_000);

  it("S-CHAN-04: with one project the person may prompt, a mention without a project runs there with no picker; with two, the picker asks (positive control)", async () => {
    bot = await slackBot();
    const b = bot;
    await mention(b, OWNER, "C9", "CHAN-HOTEL fais X", "1800000000.000100");
    await asked(b, "CHAN-HOTEL");
    expect((await conversationsOf(b)).map((c) => c.name)).toEqual(["demo"]);
    expect(b.slack.ephemerals.filter((e) => /Dans quel projet/.test(e.text))).toEqual([]);

    await secondProject(b);
    await mention(b, OWNER, "C9", "CHAN-INDIA fais Y", "1800000000.000200");
    await eventually(
      () => b.slack.ephemerals.find((e) => e.channel === "C9" && /Dans quel projet/.test(e.text)),
      20_000,
      "the picker",
    );
    expect(await conversationsOf(b)).toHaveLength(1);
  }, 120_000);

  it("S-CHAN-05: `project share demo #team --prompt` lets a member of the channel who could not see the project prompt it there by a mention alone; only its owner or an admin shares; without --prompt they only read", async () => {
    bot = await slackBot();
    const b = bot;
    b.slack.setChannel("C5", { isPrivate: false, botIsMember: false, members: [OWNER, OTHER] });
    // Before: the member sees no project.
    await mention(b, OTHER, "C5", "CHAN-JULIET fais X", "1800000000.000100");
    await eventually(
      () => b.slack.ephemerals.find((e) => e.channel === "C5" && /aucun projet/.test(e.text)),
      20_000,
      "no project for them",
    );
    // Only the owner (or an admin) shares.
    expect(await say(b, "project share demo <#C5|team> --prompt", OTHER)).toMatch(/introuvable/i);

    // Read only: the channel's project, which they may read but not prompt.
    expect(await say(b, "project share demo <#C5|team>")).toContain("ses membres voient ses conversations");
    expect(b.slack.calls.some((c) => c.method === "conversations.join")).toBe(true);
    expect(await say(b, "projects", OTHER, "C5")).toContain("demo");
    await mention(b, OTHER, "C5", "demo CHAN-KILO fais Y", "1800000000.000200");
    await eventually(
      () => b.slack.ephemerals.find((e) => e.channel === "C5" && /demo/.test(e.text) && e.user === OTHER),
      20_000,
      "read only",
    );
    expect(await conversationsOf(b)).toEqual([]);

    const shared = await say(b, "project share demo <#C5|team> --prompt");
    expect(shared).toContain("peuvent le solliciter");
    expect(await say(b, "channel", OTHER, "C5")).toContain("*demo*");
    await mention(b, OTHER, "C5", "CHAN-LIMA fais Z", "1800000000.000300");
    await asked(b, "CHAN-LIMA");
    expect(await conversationsOf(b)).toMatchObject([{ name: "demo", user_id: OTHER }]);
    // Control: someone who is no member of the channel still may not prompt it.
    expect(await say(b, "ask demo CHAN-MIKE", "UTHIRD", "C1")).toMatch(/introuvable/i);

    // The audit trail names who shared what with which channel.
    const audited = await b.db
      .selectFrom("audit_events")
      .select(["action", "actor", "outcome", "detail"])
      .where("action", "=", "project.share")
      .orderBy("at")
      .execute();
    expect(audited.filter((e) => e.outcome === "ok")).toEqual([
      { action: "project.share", actor: OWNER, outcome: "ok", detail: "C5 read" },
      { action: "project.share", actor: OWNER, outcome: "ok", detail: "C5 prompt" },
    ]);

    // Unshared: not theirs any more, nor the channel's project.
    expect(await say(b, "project unshare demo <#C5|team>")).toContain("n’est plus partagé");
    expect(await say(b, "channel", OTHER, "C5")).toMatch(/n’a pas de réglages/);
  }, 180_000);
});
