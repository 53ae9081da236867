import os from "node:os";
import { execa } from "execa";
import { describe, expect, it } from "vitest";

describe("the priority a test file runs at (vitest.config.ts, filePriority.ts)", () => {
  it("is the one its project asks for, and the processes the file starts inherit it", async (ctx) => {
    if (process.getuid?.() !== 0) ctx.skip(); // without root a reused worker's priority cannot be raised
    const wanted = Number(process.env.CODEXPI_TEST_NICE ?? "0");
    expect(os.getPriority()).toBe(wanted);
    const child = await execa("nice", []); // prints its own niceness
    expect(Number(child.stdout)).toBe(wanted);
  });
});
