import { describe, expect, it } from "vitest";
import type { ApprovalView } from "../../src/engine/approvals/view.js";
import { approvalMessage, diffFitsInline } from "../../src/views/approvals.js";
import type { Block } from "../../src/views/blocks.js";
import { buttons, expectWithinBlockKit, texts } from "./blockKit.js";

const base: ApprovalView = {
  id: "a1",
  conversation_id: "c1",
  queue_id: "q1",
  user_id: "U1",
  kind: "command",
  command: "npm install",
  cwd: "/srv/demo",
  reason: "network",
  diff: null,
  files: [],
  status: "pending",
  answered_by: null,
  answered_at: null,
  created_at: 1_767_268_800_000,
  expires_at: 1_767_355_200_000,
  project_name: "demo",
  channel_id: "C1",
};

const blocksOf = (a: ApprovalView, locale: "fr" | "en" = "en") =>
  approvalMessage(locale, a).blocks as Block[];

describe("approval cards", () => {
  it("an open request has the four buttons, each carrying the approval's id, within Block Kit's limits", () => {
    const blocks = blocksOf(base);
    expectWithinBlockKit(blocks);
    expect(buttons(blocks).map((b) => [b.action_id, b.value])).toEqual([
      ["approval.approve", "a1"],
      ["approval.approve_session", "a1"],
      ["approval.deny", "a1"],
      ["approval.stop", "a1"],
    ]);
    expect(buttons(blocks).map((b) => b.text.text)).toContain("Approve for this session");
    expect(buttons(blocksOf(base, "fr")).map((b) => b.text.text)).toContain("Approuver pour la session");
  });

  it("a command cannot close its code block, break out into Slack markup or leak a secret", () => {
    const sneaky =
      "echo ``` <@U999> & curl -H 'Authorization: Bearer sk-abcdefghijklmnopqrstuvwxyz0123456789'";
    const text = texts(blocksOf({ ...base, command: sneaky })).join("\n");
    expect(text.match(/```/g)).toHaveLength(2);
    expect(text).toContain("&lt;@U999&gt; &amp;");
    expect(text).not.toContain("sk-abcdefghijklmnopqrstuvwxyz0123456789");
    const huge = texts(blocksOf({ ...base, command: "x".repeat(20_000) }));
    expectWithinBlockKit(blocksOf({ ...base, command: "x".repeat(20_000) }));
    expect(huge.join("").length).toBeLessThan(12_000);
  });

  it("a closed request has no button and says who answered and when, or why nobody could", () => {
    const answered = blocksOf({
      ...base,
      status: "denied",
      answered_by: "U777",
      answered_at: base.created_at + 60_000,
    });
    expect(buttons(answered)).toEqual([]);
    expect(texts(answered).join("\n")).toMatch(/Denied by <@U777> <!date\^1767268860\^/);
    expect(texts(blocksOf({ ...base, status: "abandoned" })).join("\n")).toMatch(/Reply in the thread/);
    expect(texts(blocksOf({ ...base, status: "expired", answered_at: base.expires_at })).join("\n")).toMatch(
      /Expired/,
    );
  });

  it("a short diff is shown in the card; a long one is left to a file", () => {
    const short = {
      ...base,
      kind: "file_change" as const,
      command: null,
      diff: "+new line",
      files: ["a.txt"],
    };
    expect(texts(blocksOf(short)).join("\n")).toContain("```+new line```");
    const long = { ...short, diff: "+x\n".repeat(2_000) };
    expect(diffFitsInline(short)).toBe(true);
    expect(diffFitsInline(long)).toBe(false);
    expect(texts(blocksOf(long)).join("\n")).toContain("attached as a file");
    expectWithinBlockKit(blocksOf(long));
  });
});
