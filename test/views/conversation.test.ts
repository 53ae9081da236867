import { describe, expect, it } from "vitest";
import {
  agentAnswer,
  conversationRoot,
  followUpAck,
  stopSummary,
  type ConversationRootInput,
} from "../../src/views/conversation.js";
import { ACTIONS, BLOCKS } from "../../src/views/ids.js";
import { MAX_MESSAGE_BLOCKS, MAX_SECTION_TEXT } from "../../src/views/limits.js";
import { markdownToMrkdwn } from "../../src/views/mrkdwn.js";
import { buttons, expectWithinBlockKit, texts } from "./blockKit.js";

const base: ConversationRootInput = {
  conversationId: "conv-1",
  projectName: "nasflix",
  prompt: "Corrige le test qui échoue",
  userId: "U0ALICE",
  status: "queued",
};

const stateText = (c: ConversationRootInput, locale: "fr" | "en" = "fr"): string => {
  const block = conversationRoot(locale, c).blocks.find((b) => b.block_id === BLOCKS.conversationState);
  return block && block.type === "section" && "text" in block ? block.text.text : "";
};

describe("conversationRoot", () => {
  it("says who asked what in which project", () => {
    const view = conversationRoot("fr", base);
    const request = texts(view.blocks)[0];
    expect(request).toContain("<@U0ALICE>");
    expect(request).toContain("*nasflix*");
    expect(request).toContain("> Corrige le test qui échoue");
    expect(view.text).toContain("nasflix");
  });

  it("offers a Stop button with a confirmation while the prompt is queued or running", () => {
    for (const status of ["queued", "running"] as const) {
      const view = conversationRoot("fr", { ...base, status });
      const [stop, ...others] = buttons(view.blocks);
      expect(others).toEqual([]);
      expect(stop?.action_id).toBe(ACTIONS.conversationStop);
      expect(stop?.value).toBe("conv-1");
      expect(stop?.style).toBe("danger");
      expect(stop?.confirm?.title.text).toBe("Arrêter l’agent ?");
      expect(view.blocks.find((b) => b.type === "actions")?.block_id).toBe(BLOCKS.conversationActions);
      expectWithinBlockKit(view.blocks);
    }
  });

  it("has no Stop button once the conversation is done, failed or cancelled", () => {
    for (const status of ["done", "failed", "cancelled"] as const) {
      const view = conversationRoot("fr", { ...base, status });
      expect(buttons(view.blocks)).toEqual([]);
      expect(view.blocks.some((b) => b.type === "actions")).toBe(false);
    }
  });

  it("shows the queue position while queued", () => {
    expect(stateText({ ...base, position: 3 })).toBe("⏳ En file d’attente (position 3)");
    expect(stateText({ ...base, position: null })).toBe("⏳ En file d’attente");
    expect(stateText({ ...base, position: 2 }, "en")).toBe("⏳ Queued (position 2)");
  });

  it("shows the latest activity while running", () => {
    expect(stateText({ ...base, status: "running", activity: "npm test" })).toBe("⚙️ En cours : npm test");
    expect(stateText({ ...base, status: "running" })).toBe("⚙️ En cours…");
  });

  it("shows how long a finished turn took", () => {
    expect(stateText({ ...base, status: "done", startedAt: 1_000, finishedAt: 126_000 })).toBe(
      "✅ Terminé en 2 min 5 s",
    );
    expect(stateText({ ...base, status: "done" }, "en")).toBe("✅ Done");
  });

  it("shows a failure's text and the explanation of its code", () => {
    const text = stateText({
      ...base,
      status: "failed",
      error: "turn timed out after 600 s",
      errorCode: "watchdog",
    });
    expect(text).toBe(
      "❌ Échec : turn timed out after 600 s\n_L’agent a dépassé le temps autorisé et a été arrêté._",
    );
    expect(stateText({ ...base, status: "failed", error: null, errorCode: "interrupted" }, "en")).toBe(
      "❌ Failed\n_The agent’s process stopped midway (restart or crash)._",
    );
    expect(stateText({ ...base, status: "failed", error: "x", errorCode: "mystery" })).toBe("❌ Échec : x");
  });

  it("shows who stopped a cancelled conversation when known", () => {
    expect(stateText({ ...base, status: "cancelled" })).toBe("🛑 Annulé");
    expect(stateText({ ...base, status: "cancelled", stoppedBy: "U0BOB" })).toBe(
      "🛑 Annulé · Arrêté par <@U0BOB>",
    );
  });

  it("links a waiting conversation's status to the decision's question once it is posted", () => {
    const waiting = { ...base, status: "done" as const, decisionOpen: true };
    expect(stateText(waiting)).toBe("⏸ En attente de ta réponse");
    const link = "https://example.slack.com/archives/C1/p1700000000000100";
    expect(stateText({ ...waiting, decisionLink: link })).toBe(
      `⏸ En attente de ta réponse · <${link}|voir la question>`,
    );
    expect(stateText({ ...waiting, decisionLink: link }, "en")).toBe(
      `⏸ Waiting for your answer · <${link}|see the question>`,
    );
    // A link with Slack's delimiters cannot break out of its <…|…>.
    expect(stateText({ ...waiting, decisionLink: "https://x.test/a|b>c" })).toContain(
      "<https://x.test/a%7Cb%3Ec|voir la question>",
    );
  });

  it("escapes what users and agents wrote", () => {
    const view = conversationRoot("fr", {
      ...base,
      prompt: "ping <!channel> & co",
      status: "failed",
      error: "<@U0EVE>",
    });
    const all = texts(view.blocks).join("\n");
    expect(all).not.toContain("<!channel>");
    expect(all).not.toContain("<@U0EVE>");
    expect(all).toContain("&lt;!channel&gt; &amp; co");
    expect(view.text).not.toContain("<!channel>");
  });

  it("clips a huge prompt, activity and error within Block Kit limits", () => {
    const huge = "ligne très longue ".repeat(2000);
    for (const status of ["running", "failed"] as const) {
      const view = conversationRoot("fr", {
        ...base,
        status,
        prompt: `${huge}\n`.repeat(50),
        activity: huge,
        error: huge,
        projectName: "p".repeat(500),
      });
      expectWithinBlockKit(view.blocks);
    }
  });
});

/** Section texts of all messages, in order. */
const sectionTexts = (answer: ReturnType<typeof agentAnswer>): string[] =>
  answer.messages.flatMap((m) =>
    m.blocks.flatMap((b) => (b.type === "section" && "text" in b ? [b.text.text] : [])),
  );

/** Text without fence lines and blank-line differences: what is left once re-openings are ignored. */
const content = (s: string): string =>
  s
    .split("\n")
    .filter((l) => !/^```/.test(l))
    .join("\n")
    .replace(/\s+/g, " ")
    .trim();

function longAnswer(chars: number): string {
  let md = "";
  for (let i = 0; md.length < chars; i++) {
    md += `## Étape ${i}\n\nJ’ai modifié **le fichier** \`src/f${i}.ts\` pour corriger le cas où a < b & c.\n\n`;
    md += `\`\`\`ts\n${Array.from({ length: 40 }, (_, j) => `export const v${i}_${j} = ${j}; // ligne ${j}`).join("\n")}\n\`\`\`\n\n`;
    md += `${"Explication détaillée de la modification. ".repeat(12)}\n\n`;
  }
  return md;
}

describe("agentAnswer", () => {
  it("posts a short answer as one converted message and no file", () => {
    const answer = agentAnswer("fr", "**Fait** : tests verts.");
    expect(answer.file).toBeNull();
    expect(answer.messages).toHaveLength(1);
    expect(sectionTexts(answer)).toEqual(["*Fait* : tests verts."]);
    expect(answer.messages[0]?.text).toContain("Fait");
  });

  it("says that the agent answered nothing when the answer is empty", () => {
    for (const empty of ["", "  \n\n "]) {
      const answer = agentAnswer("fr", empty);
      expect(answer.file).toBeNull();
      expect(answer.messages).toHaveLength(1);
      expect(answer.messages[0]?.text).toBe("L’agent n’a rien répondu.");
    }
    expect(agentAnswer("en", "").messages[0]?.text).toBe("The agent answered nothing.");
  });

  it("splits a 60 000-character answer with code blocks within every limit and loses nothing", () => {
    const md = longAnswer(60_000);
    const answer = agentAnswer("fr", md, { fileThreshold: Number.POSITIVE_INFINITY });
    expect(answer.file).toBeNull();
    expect(answer.messages.length).toBeGreaterThan(5);
    for (const [i, m] of answer.messages.entries()) {
      expectWithinBlockKit(m.blocks);
      expect(m.blocks.length).toBeLessThanOrEqual(MAX_MESSAGE_BLOCKS);
      const chars = texts(m.blocks).reduce((n, t) => n + t.length, 0);
      expect(chars).toBeLessThan(12_000);
      expect(texts(m.blocks)).toContain(`Partie ${i + 1}/${answer.messages.length}`);
    }
    const sections = sectionTexts(answer);
    for (const s of sections) {
      expect(s.length).toBeLessThanOrEqual(MAX_SECTION_TEXT);
      expect(s.split("\n").filter((l) => l.startsWith("```")).length % 2).toBe(0);
    }
    expect(content(sections.join("\n"))).toBe(content(markdownToMrkdwn(md)));
  });

  it("respects a smaller message size", () => {
    const answer = agentAnswer("en", longAnswer(20_000), {
      maxMessageChars: 4_000,
      fileThreshold: Number.POSITIVE_INFINITY,
    });
    for (const m of answer.messages) {
      const sections = m.blocks.flatMap((b) => (b.type === "section" && "text" in b ? [b.text.text] : []));
      expect(sections.reduce((n, s) => n + s.length, 0)).toBeLessThanOrEqual(4_000);
    }
    expect(texts(answer.messages[0]?.blocks ?? [])).toContain(`Part 1/${answer.messages.length}`);
  });

  it("keeps many short sections under 50 blocks per message", () => {
    const md = Array.from({ length: 400 }, (_, i) => `${"x".repeat(2990)}${i}`).join("\n\n");
    const answer = agentAnswer("fr", md, {
      fileThreshold: Number.POSITIVE_INFINITY,
      maxMessageChars: 12_000,
    });
    for (const m of answer.messages) expectWithinBlockKit(m.blocks);
  });

  it("beyond the threshold, posts the first lines and the full Markdown as a file", () => {
    const md = longAnswer(30_000);
    const answer = agentAnswer("fr", md);
    expect(answer.messages).toHaveLength(1);
    expect(answer.file).toEqual({ filename: "reponse-agent.md", content: md, title: "Réponse de l’agent" });
    const [summary, note] = texts(answer.messages[0]?.blocks ?? []);
    expect(summary?.startsWith("*Étape 0*")).toBe(true);
    expect((summary ?? "").length).toBeLessThan(2_000);
    expect((summary ?? "").split("\n").filter((l) => l.startsWith("```")).length % 2).toBe(0);
    expect(note).toContain(`(${md.length} caractères)`);
    expectWithinBlockKit(answer.messages[0]?.blocks ?? []);
  });

  it("uses the threshold it is given", () => {
    expect(agentAnswer("en", "a".repeat(500), { fileThreshold: 100 }).file?.filename).toBe("agent-answer.md");
    expect(agentAnswer("en", "a".repeat(500), { fileThreshold: 1_000 }).file).toBeNull();
  });
});

describe("followUpAck", () => {
  it("gives the queue position of a follow-up", () => {
    const ack = followUpAck("fr", { position: 2 });
    expect(ack.text).toBe("Relance en file d’attente (position 2).");
    expect(ack.blocks).toHaveLength(1);
    expectWithinBlockKit(ack.blocks);
  });

  it("acknowledges without a position when it is not known", () => {
    expect(followUpAck("en").text).toBe("Follow-up received: the agent will handle it as soon as possible.");
  });
});

describe("stopSummary", () => {
  it("names who stopped, the running turn and what was cancelled, in the reader's language", () => {
    const all = { userId: "U0123ABC", stoppingRunning: 1, cancelledQueued: 2, cancelledDecisions: 1 };
    expect(stopSummary("en", all)).toBe(
      "Stopped by <@U0123ABC>: the running turn, 2 queued follow-ups cancelled, 1 open decision cancelled.",
    );
    expect(stopSummary("fr", { ...all, cancelledQueued: 1 })).toBe(
      "Arrêté par <@U0123ABC> : le tour en cours, 1 relance en attente annulée, 1 décision ouverte annulée.",
    );
  });

  it("leaves out what the stop did not touch", () => {
    expect(
      stopSummary("en", {
        userId: "U0123ABC",
        stoppingRunning: 0,
        cancelledQueued: 1,
        cancelledDecisions: 0,
      }),
    ).toBe("Stopped by <@U0123ABC>: 1 queued follow-up cancelled.");
  });
});

describe("the root of a quiet thread and of a visible failure", () => {
  const running: ConversationRootInput = {
    ...base,
    status: "running",
    startedAt: 0,
    now: 5_000,
    progress: { kind: "command", detail: "npm test", plan: null },
  };

  it("S-QUIET-04: a done conversation gives its total work time, not its last turn's", () => {
    const done = { ...base, status: "done" as const, startedAt: 10_000, finishedAt: 12_000, tokens: 144 };
    expect(stateText({ ...done, workedMs: 14_000 }, "en")).toContain("14 s");
    // Positive control: without a total, the last turn's.
    expect(stateText(done, "en")).toContain("2 s");
  });

  it("S-FAIL-01: a turn that cannot reach its model says so, with Codex's error and the attempt", () => {
    const text = stateText(
      { ...running, progress: { kind: "reconnecting", detail: "Connection failed", attempt: 3, plan: null } },
      "en",
    );
    expect(text).toContain("reconnecting to the model: `Connection failed`, attempt 3");
  });

  it("S-FAIL-04: a turn being stopped says so rather than what its killed command did", () => {
    expect(stateText(running, "en")).toContain("npm test");
    const stopping = stateText({ ...running, stopping: true }, "en");
    expect(stopping).toContain("Stopping…");
    expect(stopping).not.toContain("npm test");
  });
});
