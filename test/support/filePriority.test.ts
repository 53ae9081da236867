import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { wantedPriority } from "./filePriority.js";
import { LATENCY_FILES } from "./latencyFiles.js";

describe("the priority a test file runs at (vitest.config.ts, filePriority.ts)", () => {
  it("is the default for a file that bounds no latency, and the processes the file starts inherit it", async (ctx) => {
    if (process.getuid?.() !== 0) ctx.skip(); // without root a reused worker's priority cannot be raised
    expect(os.getPriority()).toBe(0);
    const child = await execa("nice", []); // prints its own niceness
    expect(Number(child.stdout)).toBe(0);
    // Positive control: a raised priority is inherited the same way.
    os.setPriority(-5);
    try {
      expect(Number((await execa("nice", [])).stdout)).toBe(-5);
    } finally {
      os.setPriority(0);
    }
  });

  it("is the project's latency priority for a latency file, the default for any other", () => {
    const latency = path.join(process.cwd(), LATENCY_FILES[0] as string);
    expect(wantedPriority(latency, { CODEXPI_TEST_LATENCY_NICE: "-5" })).toBe(-5);
    expect(wantedPriority(latency, {})).toBe(0);
    expect(
      wantedPriority(path.join(process.cwd(), "test/config.test.ts"), { CODEXPI_TEST_LATENCY_NICE: "-5" }),
    ).toBe(0);
  });
});
