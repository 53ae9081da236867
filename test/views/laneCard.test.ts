import { describe, expect, it } from "vitest";
import type { Block } from "../../src/views/blocks.js";
import { type LaneCardChanges, type LaneCardInput, laneCard } from "../../src/views/laneCard.js";
import { buttons, expectWithinBlockKit, texts } from "./blockKit.js";

const GITHUB_TOKEN = `ghp_${"A1b2C3d4".repeat(4)}abcd`;
const OPENAI_KEY = `sk-proj-${"x9Y8z7".repeat(8)}`;

const changes: LaneCardChanges = {
  commits: [
    { sha: "b".repeat(40), subject: "Binary logo" },
    { sha: "a".repeat(40), subject: "Edit app <@U999> & more" },
  ],
  totalCommits: 2,
  files: [
    { path: "app.txt", added: 2, removed: 1, binary: false },
    { path: "logo.bin", added: 0, removed: 0, binary: true },
  ],
  totalFiles: 2,
  added: 2,
  removed: 1,
  diff: "diff --git a/app.txt b/app.txt\n--- a/app.txt\n+++ b/app.txt\n@@ -1,3 +1,4 @@\n one\n-two\n+TWO\n three\n+four\n",
  diffBytes: 90,
  diffTruncated: false,
};

const open: LaneCardInput = {
  conversationId: "conv-1",
  branch: "codexpi/fix-login-1a2b3c4d",
  base: "main",
  changes,
  state: { kind: "open" },
  project: "app",
  publishing: { push: true, pullRequest: true, gap: null, remote: "origin" },
};

const blocksOf = (card: LaneCardInput, locale: "en" | "fr" = "en") =>
  laneCard(locale, card).blocks as Block[];
const all = (card: LaneCardInput, locale: "en" | "fr" = "en") => texts(blocksOf(card, locale)).join("\n");
const ids = (card: LaneCardInput) => buttons(blocksOf(card)).map((b) => b.action_id);

/** A diff of `n` added lines. */
const longDiff = (n: number) =>
  `diff --git a/big.txt b/big.txt\n@@ -0,0 +1,${n} @@\n${Array.from({ length: n }, (_, i) => `+line ${i}`).join("\n")}\n`;

describe("lane card", () => {
  it("S-CARD-08: shows the branch, its base, the commits and the files with their +/− lines, and a short diff inline", () => {
    const card = laneCard("en", open);
    expectWithinBlockKit(card.blocks as Block[]);
    const text = all(open);
    expect(text).toContain("`codexpi/fix-login-1a2b3c4d` → `main`");
    expect(text).toContain("2 commits · 2 files changed · +2 −1");
    expect(text).toContain("`bbbbbbbb` Binary logo");
    expect(text).toContain("Edit app &lt;@U999&gt; &amp; more"); // an agent's subject cannot mention anyone
    expect(text).toContain("• `app.txt` +2 −1");
    expect(text).toContain("• `logo.bin` _binary_");
    expect(text).toContain("```diff --git a/app.txt b/app.txt");
    expect(text).toContain("+TWO");
    expect(card.diffFile).toBeNull();
    expect(card.text).toBe("What changed in codexpi/fix-login-1a2b3c4d");
  });

  it("S-CARD-08: a long diff is left to a file the caller uploads, the card saying so; a cut diff says where", () => {
    const lines = { ...open, changes: { ...changes, diff: longDiff(45), diffBytes: 500 } };
    const byLines = laneCard("en", lines);
    expect(all(lines)).not.toContain("```");
    expect(all(lines)).toContain("The diff (47 lines) is long: it is attached as a file in this thread.");
    expect(byLines.diffFile).toMatchObject({ filename: "codexpi-fix-login-1a2b3c4d.diff" });
    expect(byLines.diffFile?.content).toContain("+line 44\n");
    // Under 40 lines but over 2,500 characters: a file too.
    const wide = { ...open, changes: { ...changes, diff: `+${"x".repeat(2_600)}\n` } };
    expect(laneCard("en", wide).diffFile?.content).toContain("x".repeat(2_600));
    // Control: 30 short lines stay inline.
    expect(laneCard("en", { ...open, changes: { ...changes, diff: longDiff(30) } }).diffFile).toBeNull();
    const cut = {
      ...open,
      changes: { ...changes, diff: longDiff(20), diffBytes: 3_000_000, diffTruncated: true },
    };
    const cutCard = laneCard("en", cut);
    expect(all(cut)).toMatch(/The attached file is cut at 0\.2 kB of 3,000 kB\./);
    expect(cutCard.diffFile?.content).toMatch(/\[… diff cut here: 0\.2 kB of 3,000 kB\]\n$/);
  });

  it("S-CARD-08: secrets are redacted from the inline diff, from the attached file and from commit subjects", () => {
    const leak = `+const token = "${GITHUB_TOKEN}";\n+OPENAI_API_KEY=${OPENAI_KEY}\n`;
    const inline = {
      ...open,
      changes: { ...changes, diff: leak, commits: [{ sha: "c".repeat(40), subject: `add ${GITHUB_TOKEN}` }] },
    };
    const shown = all(inline);
    expect(shown).toContain("```");
    expect(shown).toContain("+const token");
    expect(shown).not.toContain(GITHUB_TOKEN.slice(4));
    expect(shown).not.toContain(OPENAI_KEY.slice(8));
    const attached = laneCard("en", { ...open, changes: { ...changes, diff: `${leak}${longDiff(60)}` } });
    expect(attached.diffFile?.content).toContain("+const token");
    expect(attached.diffFile?.content).not.toContain(GITHUB_TOKEN.slice(4));
    expect(attached.diffFile?.content).not.toContain(OPENAI_KEY.slice(8));
  });

  it("S-CARD-09: an open lane has Merge into <base>, Push branch, Open pull request and Discard (with a confirmation), each carrying only the conversation's id", () => {
    const b = buttons(blocksOf(open));
    expect(b.map((x) => [x.action_id, x.value, x.text.text])).toEqual([
      ["lane.merge", "conv-1", "Merge into main"],
      ["lane.push", "conv-1", "Push branch"],
      ["lane.pull_request", "conv-1", "Open pull request"],
      ["lane.discard", "conv-1", "Discard"],
    ]);
    const discard = b.find((x) => x.action_id === "lane.discard")!;
    expect(discard.style).toBe("danger");
    expect(discard.confirm).toMatchObject({
      title: { text: "Discard this branch?" },
      confirm: { text: "Discard" },
    });
    expect(b.filter((x) => x.action_id !== "lane.discard").every((x) => x.confirm === undefined)).toBe(true);
    // A lane with nothing committed can only be discarded.
    const empty = {
      ...changes,
      commits: [],
      totalCommits: 0,
      files: [],
      totalFiles: 0,
      diff: "",
      diffBytes: 0,
    };
    expect(ids({ ...open, changes: empty })).toEqual(["lane.discard"]);
    expect(all({ ...open, changes: empty })).toContain("No change in this branch yet.");
  });

  it("S-CARD-09: after a conflict the card names the files and offers Ask the agent to merge <base> first", () => {
    const conflict: LaneCardInput = { ...open, state: { kind: "conflict", files: ["app.txt", "src/x.ts"] } };
    expectWithinBlockKit(blocksOf(conflict));
    expect(all(conflict)).toContain(
      "Merging into `main` conflicts; the project was left as it was. Files: `app.txt`, `src/x.ts`",
    );
    expect(buttons(blocksOf(conflict)).map((x) => [x.action_id, x.text.text])).toEqual([
      ["lane.ask_merge", "Ask the agent to merge main"],
      ["lane.merge", "Merge into main"],
      ["lane.push", "Push branch"],
      ["lane.pull_request", "Open pull request"],
      ["lane.discard", "Discard"],
    ]);
    expect(all(open)).not.toContain("conflicts");
  });

  it("S-CARD-09: after a push and a pull request the card shows the remote, the PR's link and state, and offers no second PR", () => {
    const pr: LaneCardInput = {
      ...open,
      pushed: { remote: "origin" },
      pullRequest: { url: "https://github.example/acme/app/pull/12", number: 12, state: "open" },
    };
    const text = all(pr);
    expect(text).toContain("Branch pushed to `origin`.");
    expect(text).toContain("Pull request <https://github.example/acme/app/pull/12|#12> · open");
    expect(ids(pr)).toEqual(["lane.merge", "lane.push", "lane.discard"]);
    expect(all({ ...pr, pullRequest: { ...pr.pullRequest!, state: "merged" } }, "fr")).toContain(
      "· fusionnée",
    );
  });

  it("S-CARD-09: after a merge or a discard the card shows the final state and no button", () => {
    const merged: LaneCardInput = {
      ...open,
      pushed: { remote: "origin" },
      state: { kind: "merged", by: "U123", revision: "d".repeat(40), how: "merge-commit" },
    };
    expect(buttons(blocksOf(merged))).toEqual([]);
    expect(all(merged)).toContain("Merged into `main` by <@U123>: merge commit `dddddddd`");
    expect(all(merged)).toContain("Branch pushed to `origin`.");
    const discarded: LaneCardInput = { ...open, state: { kind: "discarded", by: "U42" } };
    expect(buttons(blocksOf(discarded))).toEqual([]);
    expect(all(discarded)).toContain("Discarded by <@U42>");
  });

  it('S-CARD-14: a fast-forward reads "Fast-forwarded", a merge commit reads as one, a merge from before codexpi recorded how names only the revision', () => {
    const merged = (how: "fast-forward" | "merge-commit" | "already-merged" | null): LaneCardInput => ({
      ...open,
      state: { kind: "merged", by: "U123", revision: "d".repeat(40), how },
    });
    const ff = all(merged("fast-forward"));
    expect(ff).toContain("Fast-forwarded `main` to `dddddddd` by <@U123> (no merge commit)");
    expect(ff).not.toContain("merge commit `");
    expect(all(merged("fast-forward"), "fr")).toContain(
      "Avance rapide (fast-forward) de `main` jusqu’à `dddddddd` par <@U123> (sans commit de fusion)",
    );
    // Control: a real merge is called a merge commit, never a fast-forward.
    const mc = all(merged("merge-commit"));
    expect(mc).toContain("Merged into `main` by <@U123>: merge commit `dddddddd`");
    expect(mc).not.toMatch(/fast-forward/i);
    expect(all(merged("already-merged"))).toContain("already merged (`dddddddd`)");
    const unknown = all(merged(null));
    expect(unknown).toContain("Merged into `main` by <@U123>: `dddddddd`");
    expect(unknown).not.toMatch(/fast-forward|merge commit/i);
  });

  it("S-CARD-12: without a remote the card offers neither Push nor Open pull request and says, for admins, what is missing; a remote without a forge offers Push only; a forge without a token too", () => {
    const noRemote: LaneCardInput = {
      ...open,
      publishing: { push: false, pullRequest: false, gap: "remote", remote: "origin" },
    };
    expect(ids(noRemote)).toEqual(["lane.merge", "lane.discard"]);
    expectWithinBlockKit(blocksOf(noRemote));
    expect(all(noRemote)).toContain(
      "No Push branch or Open pull request: the checkout of `app` names no remote `origin`. Admins: add it there (`git remote add origin URL`), or name the forge's repository (`/codex project forge app --kind github|gitlab --repo OWNER/NAME`) and store a token on the host.",
    );
    expect(all(noRemote, "fr")).toContain("le checkout de `app` ne nomme aucun remote `origin`");
    const noForge: LaneCardInput = {
      ...open,
      publishing: { push: true, pullRequest: false, gap: "forge", remote: "origin" },
    };
    expect(ids(noForge)).toEqual(["lane.merge", "lane.push", "lane.discard"]);
    expect(all(noForge)).toContain(
      "No Open pull request: project `app` has no forge. Admins: `/codex project forge app --kind github|gitlab --repo OWNER/NAME`.",
    );
    const noToken: LaneCardInput = {
      ...open,
      publishing: { push: true, pullRequest: false, gap: "token", remote: "origin" },
    };
    expect(ids(noToken)).toEqual(["lane.merge", "lane.push", "lane.discard"]);
    expect(all(noToken)).toContain("never in Slack: `codexpi project credential app --forge-token -`");
    // No remote, the forge's repository named, no token: neither button, the token's hint.
    const forgeNoToken: LaneCardInput = {
      ...open,
      publishing: { push: false, pullRequest: false, gap: "token", remote: "origin" },
    };
    expect(ids(forgeNoToken)).toEqual(["lane.merge", "lane.discard"]);
    expect(all(forgeNoToken)).toContain(
      "No Push branch or Open pull request: the checkout of `app` names no remote, and pushing to the forge's repository needs a token.",
    );
    // Control: with everything set, both buttons and no hint.
    expect(ids(open)).toEqual(["lane.merge", "lane.push", "lane.pull_request", "lane.discard"]);
    expect(all(open)).not.toContain("Admins");
    // No hint where nothing would be offered: a lane without a commit, a pull request already open.
    const empty = { ...changes, commits: [], totalCommits: 0, files: [], totalFiles: 0, diff: "" };
    expect(all({ ...noRemote, changes: empty })).not.toContain("Admins");
    const withPr = { url: "https://github.example/acme/app/pull/3", number: 3, state: "open" as const };
    expect(all({ ...noToken, pullRequest: withPr })).not.toContain("Admins");
    // An ended lane has no buttons and no hint.
    const ended: LaneCardInput = { ...noRemote, publishing: null, state: { kind: "discarded", by: "U1" } };
    expect(buttons(blocksOf(ended))).toEqual([]);
    expect(all(ended)).not.toContain("Admins");
  });

  it("S-CARD-08: both locales; French sizes and buttons", () => {
    const fr = all(open, "fr");
    expect(fr).toContain("Branche `codexpi/fix-login-1a2b3c4d` → `main`");
    expect(fr).toContain("2 commits · 2 fichiers modifiés · +2 −1");
    expect(fr).toContain("_binaire_");
    expect(buttons(blocksOf(open, "fr")).map((b) => b.text.text)).toEqual([
      "Fusionner dans main",
      "Pousser la branche",
      "Ouvrir une pull request",
      "Abandonner",
    ]);
    const one = {
      ...changes,
      totalCommits: 1,
      commits: changes.commits.slice(0, 1),
      totalFiles: 1,
      files: changes.files.slice(0, 1),
    };
    expect(all({ ...open, changes: one }, "fr")).toContain("1 commit · 1 fichier modifié");
    expect(all({ ...open, changes: one })).toContain("1 commit · 1 file changed");
    const cut = {
      ...open,
      changes: { ...changes, diff: longDiff(50), diffBytes: 2_500_000, diffTruncated: true },
    };
    expect(all(cut, "fr")).toMatch(/Le diff \(52 lignes\) est long.*coupé à 0,5\sko sur 2\s500\sko/);
  });

  it("stays within Block Kit's limits with many commits, files and long names", () => {
    const many: LaneCardInput = {
      ...open,
      branch: `codexpi/${"x".repeat(300)}`,
      changes: {
        ...changes,
        commits: Array.from({ length: 50 }, (_, i) => ({
          sha: `${i}`.padStart(40, "0"),
          subject: "s".repeat(500),
        })),
        totalCommits: 80,
        files: Array.from({ length: 100 }, (_, i) => ({
          path: `${"d/".repeat(100)}${i}`,
          added: i,
          removed: 0,
          binary: false,
        })),
        totalFiles: 100,
      },
      state: { kind: "conflict", files: Array.from({ length: 40 }, (_, i) => `f${i}`) },
    };
    expectWithinBlockKit(blocksOf(many));
    expect(all(many)).toContain("… and 70 more");
    expect(all(many)).toContain("… and 85 more");
  });
});
