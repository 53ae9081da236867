import { afterEach, describe, expect, it } from "vitest";
import { movableClock } from "../support/movableClock.js";
import { eventually, OTHER, OWNER, slackBot } from "../support/slackBot.js";

// Issue 32, item 7, through the real bot (signed HTTP, notifier, ticker) and the fake Slack's
// `conversations.members`: a schedule posts only in a channel its creator is a member of, checked
// when it is added and again at each firing (the bot lends the engine its membership check).

type Bot = Awaited<ReturnType<typeof slackBot>>;

describe("a schedule's channel through the real bot", () => {
  let s: Bot | undefined;
  afterEach(async () => {
    await s?.close();
    s = undefined;
  });

  const env = { CODEXPI_LOCALE: "en", CODEXPI_LEASE_SECONDS: "3600" };
  const ask = async (text: string, user = OWNER) => {
    const r = await s!.command(text, user);
    return (await s!.response(r.responseId, 30_000)).text ?? "";
  };
  const schedules = () => s!.db.selectFrom("schedules").selectAll().execute();

  it("S-BUDGET-08: `/codex schedule add --channel` is refused for a channel its creator is not in; a member's is added, and a firing after the creator left is skipped and said in the channel, nothing queued", async () => {
    const clock = movableClock();
    s = await slackBot({ clock, env });
    s.slack.setUser(OWNER, { locale: "en-US" });
    s.slack.setChannel("C7", { members: [OTHER] });
    s.slack.setChannel("C8", { members: [OWNER, OTHER] });

    const refused = await ask('schedule add demo "* * * * *" --tz UTC --channel <#C7|secret> summarise');
    expect(refused).toContain("its creator is not a member of this one");
    expect(await schedules()).toEqual([]);

    // Positive control: a channel the creator is in.
    const added = await ask('schedule add demo "* * * * *" --tz UTC --channel <#C8|team> summarise');
    const id = /`([0-9a-f]{8})`/.exec(added)?.[1] as string;
    expect(id).toBeTruthy();
    const [row] = await schedules();
    expect(row).toMatchObject({ id, channel_id: "C8", status: "active" });

    // The creator leaves C8; past the membership cache's minute, the firing is refused there.
    s.slack.setChannel("C8", { members: [OTHER] });
    clock.advance(2 * 60_000);
    clock.reach(Number(row!.next_fire_at));
    const skipped = await eventually(
      () => s!.slack.messages("C8").find((m) => m.text.includes(id) && m.text.includes("skipped")),
      30_000,
      "the skipped firing's notice in C8",
    );
    expect(skipped.text).toContain("its creator is not a member of this one");
    expect(await s.db.selectFrom("prompt_queue").select("id").execute()).toEqual([]);
    expect((await schedules())[0]).toMatchObject({ status: "active" });
    expect(Number((await schedules())[0]!.fired_count)).toBe(0);
  });
});
