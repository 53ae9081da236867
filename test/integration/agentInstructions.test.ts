import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startConversation } from "../../src/engine/conversations/conversations.js";
import { codexEngine, finished } from "../support/codexEngine.js";

// The real Codex binary, in the worker's jail, against the fake model: what the model is sent.
describe("the protocol told to every agent (real binary, fake model)", () => {
  let env: Awaited<ReturnType<typeof codexEngine>>;
  afterEach(async () => env?.close());

  it("a conversation's turn carries codexpi's markers as developer instructions, beside the prompt", async () => {
    env = await codexEngine();
    fs.writeFileSync(path.join(env.project.path, "AGENTS.md"), "Règle du projet 8842\n");
    env.fake.enqueue({ kind: "text", text: "ok" });
    const { item } = await startConversation(env.db, env.clock, env.project, "hello 5521", "UOWNER");
    await env.engine.dispatch();
    expect(await finished(env.db, item.id)).toMatchObject({ status: "done" });
    const body = env.fake.requests[0]!;
    const developer = (body.input ?? []).filter((i) => (i as { role?: string }).role === "developer");
    const told = JSON.stringify(developer);
    expect(told).toContain("CODEXPI_DECISION");
    expect(told).toContain('\\"options\\":[{\\"id\\":\\"a\\"');
    expect(told).toContain("CODEXPI_SPECIALIST_CALL");
    // Positive control for the negative check: the other purposes' markers are not told here.
    expect(told).not.toContain("CODEXPI_SELF_REPAIR");
    // The project's AGENTS.md still applies: Codex sends it too.
    expect(JSON.stringify(body.input)).toContain("Règle du projet 8842");
    // The person's prompt is still the user message, unchanged.
    expect(JSON.stringify(body.input)).toContain("hello 5521");
  });
});
