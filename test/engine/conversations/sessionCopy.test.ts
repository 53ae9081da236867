import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { copyCodexSessions } from "../../../src/engine/projects/placement.js";
import { projectCodexState } from "../../../src/engine/isolation/codexJail.js";
import { tempDir } from "../../support/engine.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe("moving a project's Codex sessions between hosts' data directories", () => {
  it("copies the project's own session files, never reads a planted link, and replaces a link planted at the target instead of writing through it", () => {
    const [from, to, host] = [tempDir(), tempDir(), tempDir()];
    dirs.push(from, to, host);
    const secret = path.join(host, "secret.jsonl");
    const victim = path.join(host, "victim.jsonl");
    fs.writeFileSync(secret, "HOST-SECRET");
    fs.writeFileSync(victim, "HOST-FILE");
    const fromDay = path.join(projectCodexState(from, "p1"), "sessions", "2026", "01", "01");
    fs.mkdirSync(fromDay, { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(fromDay, "rollout-a.jsonl"), "THREAD-A");
    fs.symlinkSync(secret, path.join(fromDay, "rollout-b.jsonl"));
    const toDay = path.join(projectCodexState(to, "p1"), "sessions", "2026", "01", "01");
    fs.mkdirSync(toDay, { recursive: true, mode: 0o700 });
    fs.chmodSync(projectCodexState(to, "p1"), 0o700);
    fs.symlinkSync(victim, path.join(toDay, "rollout-a.jsonl"));
    // Positive control: a plain copy would write through the planted link.
    expect(fs.readFileSync(path.join(toDay, "rollout-a.jsonl"), "utf8")).toBe("HOST-FILE");

    expect(copyCodexSessions(from, to, "p1")).toBe(1);
    expect(fs.readFileSync(victim, "utf8")).toBe("HOST-FILE");
    expect(fs.lstatSync(path.join(toDay, "rollout-a.jsonl")).isFile()).toBe(true);
    expect(fs.readFileSync(path.join(toDay, "rollout-a.jsonl"), "utf8")).toBe("THREAD-A");
    expect(fs.existsSync(path.join(toDay, "rollout-b.jsonl"))).toBe(false);
  });
});
