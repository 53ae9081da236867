import { describe, expect, it } from "vitest";
import { runnerFor } from "../../../src/engine/codex/runnerChoice.js";

describe("which runner a project's turns use", () => {
  it("a project whose agent may ask runs through the app-server whatever the operator's default; one that never asks keeps the default", () => {
    for (const runner of ["exec", "app-server"] as const) {
      expect(runnerFor({ runner }, { id: "p", approval_mode: "on-request" })).toBe("app-server");
      expect(runnerFor({ runner }, { id: "p", approval_mode: "never" })).toBe(runner);
    }
  });
});
