import { afterEach, describe, expect, it } from "vitest";
import { eventually, slackBot } from "../support/slackBot.js";

const STEPS = 5;

// The real bot (Bolt, notifier, outbox, workers, the real Codex binary); Slack and the model faked.
describe("live progress in Slack", () => {
  let bot: Awaited<ReturnType<typeof slackBot>>;
  afterEach(async () => bot?.close());

  it("the status message shows each of five commands while it runs, in French, then the duration and tokens", async () => {
    bot = await slackBot();
    for (let i = 1; i <= STEPS; i++)
      bot.model.enqueue({ kind: "shell", command: ["sh", "-c", `sleep 3; echo step-${i}`] });
    bot.model.enqueue({ kind: "text", text: "fini", usage: { input_tokens: 1200, output_tokens: 34 } });
    const res = await bot.command("ask demo cinq étapes");
    expect(res.status).toBe(200);
    const root = () => bot.slack.messages("C1").find((m) => !m.thread_ts || m.thread_ts === m.ts);
    await eventually(root, 30_000, "status message");

    // The status as Slack has it, sampled with how many model requests had arrived: command N runs
    // between request N (which asked for it) and request N+1 (which carries its output).
    const seen: Array<{ blocks: string; requests: number }> = [];
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline) {
      const blocks = JSON.stringify(root()?.blocks ?? "");
      seen.push({ blocks, requests: bot.model.requests.length });
      if (blocks.includes("✅") || blocks.includes("❌")) break;
      await new Promise((r) => setTimeout(r, 150));
    }
    for (let i = 1; i <= STEPS; i++) {
      const during = seen.filter((s) => s.blocks.includes(`step-${i}`) && s.requests === i);
      expect(during.length, `step-${i} shown while it ran`).toBeGreaterThan(0);
      expect(during[0]!.blocks).toContain("exécute une commande");
      expect(during[0]!.blocks).toMatch(/En cours depuis \d+ s/);
    }
    // Nothing internal or English leaks into the French status.
    expect(seen.some((s) => /turn started|\$ \/bin\/bash/.test(s.blocks))).toBe(false);
    const last = seen.at(-1)!.blocks;
    expect(last).toMatch(/✅ Terminé en \d+ s · \d[\d\s]* jetons/u);
  }, 150_000);
});
