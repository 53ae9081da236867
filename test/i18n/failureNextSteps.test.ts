import { describe, expect, it } from "vitest";
import { failureNextStep, failureNote } from "../../src/i18n/failures.js";

describe("what to try after a failure", () => {
  it("S-FAIL-03: each kind of failure says what to try next, in the reader's language; a cancel says nothing", () => {
    const unreachable = failureNote("worker.model_unreachable", { s: 120, detail: "Connection failed" });
    expect(failureNextStep("en", unreachable, "watchdog")).toMatch(/^Try next: check that the model answers/);
    expect(failureNextStep("fr", unreachable, "watchdog")).toMatch(
      /^À essayer : vérifier que le modèle répond/,
    );
    expect(failureNextStep("en", failureNote("worker.watchdog_turn", { s: 60 }), "watchdog")).toMatch(
      /CODEXPI_TURN_TIMEOUT/,
    );
    for (const code of ["codex_failed", "interrupted", "spawn_failed", "thread_busy"])
      expect(failureNextStep("en", "x", code)).toMatch(/^Try next: /);
    expect(failureNextStep("en", null, "cancelled")).toBeNull();
  });
});
