import path from "node:path";
import { inputText } from "../../support/fakeModel.js";
import { describe, expect, it } from "vitest";
import { cliHarness } from "./harness.js";

describe("codexpi ask (real binary, fake model)", () => {
  const t = cliHarness();

  it("project add then ask --wait prints the model's answer; ask --conversation continues the same Codex thread", async () => {
    await t.setup();
    t.fake.enqueue(
      { kind: "text", text: "Réponse du modèle 7731" },
      { kind: "text", text: "Suite de la conversation" },
    );
    const added = await t.cli("project", "add", "demo", path.join(t.dir, "demo"));
    expect(added.exitCode).toBe(0);
    expect(added.stdout).toContain("projet demo ajouté");
    await t.relaxPolicy();

    const first = await t.cli("ask", "demo", "hello", "--wait");
    expect(first.stdout.trim()).toBe("Réponse du modèle 7731");
    expect(first.exitCode).toBe(0);
    const conversationId = /conversation (\S+)/.exec(first.stderr)?.[1];
    expect(conversationId).toBeTruthy();

    const second = await t.cli("ask", "demo", "et ensuite ?", "--wait", "--conversation", conversationId!);
    expect(second.stdout.trim()).toBe("Suite de la conversation");
    expect(inputText(t.fake.requests[1]!)).toContain("Réponse du modèle 7731");
  });

  it('ask --wait exits 1 with Codex\'s error on a failed turn; bad input gets usage and exit 2; S-FH-09: a mistyped project name gets "did you mean"', async () => {
    await t.setup();
    t.fake.enqueue({ kind: "fail", message: "modèle indisponible" });
    await t.cli("project", "add", "demo", path.join(t.dir, "demo"));
    await t.relaxPolicy();
    const failed = await t.cli("ask", "demo", "hello", "--wait");
    expect(failed.exitCode).toBe(1);
    expect(failed.stderr).toContain("modèle indisponible");
    const unknown = await t.cli("ask", "nope", "hello");
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toContain("Projet introuvable : nope");
    // S-FH-09: a near-miss of a project the operator sees is suggested, before the hint.
    const typo = await t.cli("ask", "demi", "hello");
    expect(typo.exitCode).toBe(1);
    expect(typo.stderr).toContain(
      "Projet introuvable : demi (voulais-tu dire demo ?). `codexpi project list` ",
    );
    const usage = await t.cli("ask", "demo");
    expect(usage.exitCode).toBe(2);
    expect(usage.stderr).toContain("utilisation : codexpi"); // errors and usage in one language
    expect(usage.stderr).toContain("2 argument(s) attendu(s)");
    const badPath = await t.cli("project", "add", "other", path.join(t.dir, "missing"));
    expect(badPath.exitCode).toBe(1);
    expect(badPath.stderr).toContain("n’est pas un dossier");
  });
});
