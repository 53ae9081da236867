import path from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";

const SCRIPT = path.resolve("dist/scripts/render-conversations.js");

// The compiled script renders the real views: every state in both languages, text and Block Kit.
describe("scripts/render-conversations", () => {
  it("prints running, waiting, finished and failed in English and French, each as text and as Block Kit", async () => {
    const r = await execa(process.execPath, [SCRIPT], { reject: false, timeout: 30_000 });
    expect(r.exitCode).toBe(0);
    const sections = r.stdout.split(/^=== /m).slice(1);
    expect(sections.map((s) => s.split("\n")[0]?.split(" · ")[0])).toEqual([
      "en",
      "en",
      "en",
      "en",
      "fr",
      "fr",
      "fr",
      "fr",
    ]);
    const [enRunning, enWaiting, enDone, enFailed, frRunning, frWaiting, frDone, frFailed] =
      sections as string[];
    expect(enRunning).toContain(
      "⚙️ Running for 3 min 12 s · running a command: `npm test -- src/parser.test.ts`",
    );
    expect(enRunning).toContain("☑ Reproduce the failure");
    expect(enWaiting).toMatch(
      /⏸ Waiting for your answer · <https:\/\/example\.slack\.com\/archives\/C0DEV\/p\d+\|see the question>/,
    );
    expect(enDone).toContain("✅ Done in 4 min 31 s · 48,213 tokens");
    expect(enFailed).toContain("_Codex reported a failure during its turn._");
    expect(frRunning).toContain("⚙️ En cours depuis 3 min 12 s · exécute une commande");
    expect(frWaiting).toContain("|voir la question>");
    expect(frDone).toMatch(/✅ Terminé en 4 min 31 s · 48\s213 jetons/);
    expect(frFailed).toContain("❌ Échec : ");
    // Each Block Kit part is the real view's JSON: parseable, with the state block.
    for (const s of sections) {
      const json = s.slice(s.indexOf("--- Block Kit\n") + "--- Block Kit\n".length);
      const blocks = JSON.parse(json) as Array<{ block_id?: string }>;
      expect(blocks.map((b) => b.block_id)).toContain("conversation.state");
    }
  });
});
