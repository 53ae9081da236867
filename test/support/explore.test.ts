import { execFileSync } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { execa } from "execa";
import { test } from "vitest";
import { codexBinaryPath } from "./codexBinary.js";
import { makeCodexHome } from "./codexHome.js";
import { startFakeModel, type FakeStep } from "./fakeModel.js";

const steps: FakeStep[] = JSON.parse(process.env.EXPLORE_STEPS ?? "[]") as FakeStep[];
const extra = (process.env.EXPLORE_ARGS ?? "--sandbox workspace-write").split(" ").filter(Boolean);
const killAfter = Number(process.env.EXPLORE_KILL_AFTER_MS ?? "0");
const killSignal = (process.env.EXPLORE_KILL_SIGNAL ?? "SIGKILL") as NodeJS.Signals;
const killGroup = process.env.EXPLORE_KILL_GROUP !== "0";

function ps(): string {
  return execFileSync("ps", ["-eo", "pid,ppid,pgid,sid,stat,args", "--forest"], { encoding: "utf8" })
    .split("\n")
    .filter((l) => /codex|bwrap|sleep|marker/.test(l) && !/vitest|ps -eo/.test(l))
    .map((l) => l.slice(0, 260))
    .join("\n");
}

test("explore", async () => {
  const fake = await startFakeModel();
  const home = await makeCodexHome(fake.url, { extraToml: process.env.EXPLORE_TOML });
  const ws = await mkdtemp(path.join(os.tmpdir(), "ws-"));
  fake.enqueue(...steps);
  if (process.env.EXPLORE_GIT_INIT) execFileSync("git", ["init", "-q", ws]);
  const t0 = Date.now();
  const sub = execa(codexBinaryPath(), [...(process.env.EXPLORE_PRE ?? "").split(" ").filter(Boolean), "exec", "--json", "--skip-git-repo-check", "-C", ws, ...extra.map((a) => a.replace("WS", ws)), "-"], {
    input: process.env.EXPLORE_PROMPT ?? "hello",
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home.dir, SLACK_BOT_TOKEN: "xoxb-secret", MY_SECRET: "s", AWS_SECRET_ACCESS_KEY: "a", ...home.env },
    extendEnv: false,
    reject: false,
    timeout: 30000,
    detached: true,
  });
  let before = "";
  let after = "";
  if (process.env.EXPLORE_CLOSE_AFTER_MS) {
    await sleep(Number(process.env.EXPLORE_CLOSE_AFTER_MS));
    await fake.close();
  }
  if (killAfter > 0) {
    await sleep(killAfter);
    before = ps();
    if (killGroup) process.kill(-(sub.pid ?? 0), killSignal);
    else sub.kill(killSignal);
  }
  const r = await sub;
  if (killAfter > 0) {
    await sleep(1500);
    after = ps();
  }
  const out = {
    ms: Date.now() - t0,
    exitCode: r.exitCode,
    signal: r.signal,
    stdout: r.stdout,
    stderr: r.stderr,
    home: home.dir,
    ws,
    before,
    after,
    log: fake.log.map((l) => ({ m: l.method, p: l.path, step: l.step })),
    requests: fake.requests.map((b) => (b.input ?? []).slice(-4)),
  };
  await writeFile("/tmp/explore/last.json", JSON.stringify(out, null, 1));
  await fake.close();
});
