import { describe, expect, it } from "vitest";
import { normalizeName } from "../../../src/engine/protocol/normalizeName.js";

describe("normalizeName", () => {
  it("S-PRO-06: lower-cases, strips accents and drops non-alphanumerics", () => {
    expect(normalizeName("Agent Bibliothécaire")).toBe("agentbibliothecaire");
    expect(normalizeName("CodexPi (Self)")).toBe("codexpiself");
  });

  it("S-PRO-06: makes spelling variants of one project name equal", () => {
    expect(normalizeName("NASFLIX")).toBe(normalizeName("nasflix"));
    expect(normalizeName("Éléphant-Rose_2")).toBe("elephantrose2");
    expect(normalizeName("  Ça   va ! ")).toBe("cava");
  });

  it("S-PRO-06: folds a precomposed capital the same way as its decomposed spelling", () => {
    expect(normalizeName("\u00C9t\u00E9")).toBe("ete");
    expect(normalizeName("E\u0301te\u0301")).toBe("ete");
    expect(normalizeName("İstanbul")).toBe("istanbul");
  });

  it("S-PRO-06: a name made only of punctuation normalises to the empty string", () => {
    expect(normalizeName(" -_()! ")).toBe("");
  });
});
