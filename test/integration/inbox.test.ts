import { afterEach, describe, expect, it } from "vitest";
import { createConversation, enqueueIn } from "../../src/engine/conversations/conversations.js";
import { passText } from "../../src/engine/conversations/inbox.js";
import { writeTransaction } from "../../src/engine/database.js";
import { functionCallOutputs } from "../support/fakeModel.js";
import { codexEngine, finished } from "../support/codexEngine.js";

// The path a cut text names must work where the agent runs: inside the jail, from its workspace.
describe("a long text's whole copy, read by a real jailed agent (real binary, fake model)", () => {
  let env: Awaited<ReturnType<typeof codexEngine>>;
  afterEach(async () => env?.close());

  it("the agent reads the file its prompt names and finds the fact at the end of a 50 kB text", async () => {
    env = await codexEngine();
    const fact = "The file produced is output/final-report-7731.pdf";
    const long = `${"Intermediate measurement, nothing conclusive yet. ".repeat(1000)}\n${fact}`;
    const queueId = await writeTransaction(env.db, async (trx) => {
      const conversation = await createConversation(trx, env.clock, env.project.id, "résultat", "UOWNER");
      const prompt = `Result of the specialist:\n${passText({ locale: "en", dataDir: env.config.dataDir }, conversation.id, long)}`;
      return (await enqueueIn(trx, env.clock, conversation.id, prompt, { origin: "specialist_result" })).id;
    });
    const prompt = (
      await env.db
        .selectFrom("prompt_queue")
        .select("content")
        .where("id", "=", queueId)
        .executeTakeFirstOrThrow()
    ).content;
    const file = prompt.match(/\.codexpi\/inbox\/[0-9a-f-]+\.md/)?.[0];
    expect(file).toBeDefined();
    env.fake.enqueue(
      { kind: "shell", command: ["sh", "-c", `wc -c < ${file}; tail -n 1 ${file}`] },
      { kind: "text", text: "lu" },
    );

    await env.engine.dispatch();

    expect(await finished(env.db, queueId)).toMatchObject({ status: "done" });
    const output = JSON.stringify(functionCallOutputs(env.fake.requests[1] ?? {}));
    expect(output).toContain(fact);
    expect(output).toContain(String(Buffer.byteLength(long)));
  });
});
