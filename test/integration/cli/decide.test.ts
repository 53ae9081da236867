import path from "node:path";
import { inputText } from "../../support/fakeModel.js";
import { until } from "../../support/codexEngine.js";
import { describe, expect, it } from "vitest";
import { cliHarness } from "./harness.js";

describe("codexpi ask --wait and decide (real binary, fake model)", () => {
  const t = cliHarness();

  it("ask --wait prints a decision's question and options (no raw marker), keeps waiting; decide answers it and the conversation resumes", async () => {
    await t.setup();
    t.fake.enqueue(
      {
        kind: "text",
        text: 'Deux cibles.\nCODEXPI_DECISION {"title":"Cible","question":"Quelle cible ?","options":[{"id":"staging","label":"Staging"},{"id":"production","label":"Production"}]}',
      },
      { kind: "text", text: "Déployé sur staging 5190" },
    );
    await t.cli("project", "add", "demo", path.join(t.dir, "demo"));
    await t.relaxPolicy();
    const asking = t.cli("ask", "demo", "déploie", "--wait");
    let printed = "";
    let exited = false;
    void asking.then(() => {
      exited = true;
    });
    asking.stdout?.on("data", (chunk: Buffer) => {
      printed += chunk.toString();
    });
    let waiting = "";
    asking.stderr?.on("data", (chunk: Buffer) => {
      waiting += chunk.toString();
    });
    const decisionId = await until(() => /codexpi decide (\S+) OPTION/.exec(printed)?.[1], 45_000);
    expect(printed).toContain("Deux cibles.");
    expect(printed).toContain("Quelle cible ?");
    expect(printed).toMatch(/staging — Staging/);
    expect(printed).not.toContain("CODEXPI_DECISION");
    // Still waiting through the decision: no exit yet (the control is its exit 0 after the answer).
    expect(exited).toBe(false);

    // `answer` shows the open question too, with how to answer it.
    const pending = await t.cli("answer", /conversation (\S+)/.exec(waiting)?.[1] as string);
    expect(pending.exitCode).toBe(0);
    expect(pending.stdout).toContain("Quelle cible ?");
    expect(pending.stdout).toContain(`codexpi decide ${decisionId} OPTION`);
    expect(pending.stdout).not.toContain("CODEXPI_DECISION");
    const wrong = await t.cli("decide", decisionId, "nowhere");
    expect(wrong.exitCode).toBe(1);
    expect(exited).toBe(false);
    const decided = await t.cli("decide", decisionId, "staging");
    expect(decided.exitCode).toBe(0);
    const done = await asking;
    expect(done.exitCode).toBe(0);
    expect(done.stdout).toContain("Déployé sur staging 5190");
    expect(inputText(t.fake.requests[1]!)).toContain("Staging");
    const again = await t.cli("decide", decisionId, "production");
    expect(again.exitCode).toBe(1);
    // Who answered what (S-TOLD-01): here the CLI operator.
    expect(again.stderr).toContain("Déjà répondu par cli : Staging");
    // Free text where the decision allows none is refused; no option and no text is a usage error.
    expect((await t.cli("decide", decisionId, "--text", "autre")).exitCode).toBe(1);
    expect((await t.cli("decide", decisionId)).exitCode).toBe(2);
  });
});
