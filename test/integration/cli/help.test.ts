import { describe, expect, it } from "vitest";
import { cliHarness } from "./harness.js";

describe("codexpi --help (real binary)", () => {
  const t = cliHarness();

  it("--help of every command exits 0 with its usage, in the configured language", async () => {
    await t.setup();
    for (const command of [
      "serve",
      "migrate",
      "doctor",
      "project",
      "ask",
      "answer",
      "stop",
      "decide",
      "tick",
      "worker",
    ]) {
      const help = await t.cli(command, "--help");
      expect(help.exitCode, command).toBe(0);
      expect(help.stdout, command).toContain(`codexpi ${command}`);
      expect(help.stdout, command).toContain("utilisation : codexpi");
    }
    t.env.CODEXPI_LOCALE = "en";
    expect((await t.cli("help", "stop")).stdout).toContain("codexpi stop CONVERSATION");
    const en = await t.cli("ask", "-h");
    expect(en.stdout).toContain("usage: codexpi");
    expect(en.stdout).toContain("--stop-on-exit");
    const wrong = await t.cli("ask", "demo");
    expect(wrong.stderr).toContain("expected 2 argument(s), got 1");
    expect((await t.cli("nonsense")).stderr).toContain("unknown command: nonsense");
  });
});
