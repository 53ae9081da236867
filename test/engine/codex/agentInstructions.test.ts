import { describe, expect, it } from "vitest";
import { agentInstructions, tomlString } from "../../../src/engine/codex/agentInstructions.js";

describe("agentInstructions", () => {
  it("tells each purpose its own markers, with their JSON, in the configured language", () => {
    const conversation = agentInstructions("conversation", "en");
    expect(conversation).toContain('CODEXPI_DECISION {"title":');
    expect(conversation).toContain("CODEXPI_SPECIALIST_CALL");
    expect(conversation).toContain("outside any code block");
    expect(conversation).not.toContain("CODEXPI_SELF_REPAIR");
    expect(agentInstructions("self_repair", "en")).toContain("CODEXPI_SELF_REPAIR");
    expect(agentInstructions("self_repair", "en")).not.toContain("CODEXPI_DECISION");
    expect(agentInstructions("specialist", "fr")).toContain("CODEXPI_SPECIALIST_READY");
    expect(agentInstructions("run", "fr")).toContain("CODEXPI_SUPERVISION");
    expect(agentInstructions("orchestration", "fr")).toContain("hors de tout bloc de code");
  });

  it("quotes a value as a TOML basic string: quotes, backslashes, newlines and DEL escaped", () => {
    expect(tomlString('a "b" \\ c\nd\u007f')).toBe('"a \\"b\\" \\\\ c\\nd\\u007F"');
  });
});
