import { describe, expect, it } from "vitest";
import { mentionedUsers, readableText, tsBefore, tsToMillis } from "../../src/bot/threadContext/slackText.js";

describe("Slack markup quoted as people read it", () => {
  const names = new Map([["U1", "Alice"]]);

  it("S-CTX-06: mentions, channels, broadcasts and links as Slack shows them, entities decoded last", () => {
    expect(
      readableText(
        "<@U1> and <@U2|bob> in <#C9|general> <!here>: see <https://x.test/a?b=1|the log> or <https://y.test> &lt;@U1&gt; &amp;",
        (id) => names.get(id),
      ),
    ).toBe("@Alice and @U2 in #general @here: see the log (https://x.test/a?b=1) or https://y.test <@U1> &");
    expect(mentionedUsers("<@U1> <@U2|b> <@U1>")).toEqual(["U1", "U2"]);
  });

  it("S-CTX-06: Slack timestamps as times and in order", () => {
    expect(tsToMillis("1700000000.000100")).toBe(1_700_000_000_000);
    expect(tsBefore("1700000000.000100", "1700000000.000200")).toBe(true);
    expect(tsBefore("1700000000.000200", "1700000000.000200")).toBe(false);
  });
});
