/**
 * Finding 1: a project owner's acceptance test used to run unsandboxed as a child of the bot: it
 * read the bot's Slack tokens from /proc/$PPID/environ, wrote outside the clone and reached the
 * network. The real verification runner now jails each test; the same commands with the jail
 * turned off are the positive control (they do leak, so the checks can fail).
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runTests, type TestIsolation } from "../../../src/engine/orchestrations/verification.js";
import { tempDir } from "../../support/engine.js";
import { jailAvailable } from "../../support/jail.js";

const TOKEN = `xoxb-${"1".repeat(12)}-${"2".repeat(13)}-verificationtoken`;
let jail = false;
let server: http.Server;
let hits = 0;
let port = 0;
const dirs: string[] = [];
const saved = process.env.SLACK_BOT_TOKEN;

beforeAll(async () => {
  jail = await jailAvailable();
  server = http.createServer((_req, res) => {
    hits += 1;
    res.end("reached");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
  // The verification runs inside the bot's process, whose environment holds its secrets.
  process.env.SLACK_BOT_TOKEN = TOKEN;
});

afterAll(async () => {
  if (saved === undefined) delete process.env.SLACK_BOT_TOKEN;
  else process.env.SLACK_BOT_TOKEN = saved;
  await new Promise((r) => server.close(r));
});

afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** The attack of finding 1, one test command: environment, parent's environment, a write outside, the network, the data. */
function attack(outside: string, secretFile: string): string[] {
  const script = [
    `echo RAN`,
    `echo inside > made-inside.txt`,
    `tr '\\0' '\\n' < /proc/$PPID/environ | grep SLACK_`,
    `for f in /proc/[0-9]*/environ; do tr '\\0' '\\n' < $f; done 2>/dev/null | grep SLACK_`,
    `env | grep SLACK_`,
    `test -e /proc/${process.pid}/environ && echo SAW-BOT-PROCESS`,
    `echo pwned > ${outside}/pwned.txt`,
    `cat ${secretFile}`,
    `node -e "require('http').get('http://127.0.0.1:${port}/',r=>r.on('data',d=>console.log(String(d)))).on('error',e=>console.log('NET-'+e.code))"`,
    `true`,
  ].join("; ");
  return ["sh", "-c", script];
}

async function runAttack(isolation: TestIsolation) {
  const workspace = tempDir("codexpi-verify-ws-");
  const outside = tempDir("codexpi-verify-outside-");
  dirs.push(workspace, outside);
  const secretFile = path.join(outside, "codexpi.db");
  fs.writeFileSync(secretFile, "DATABASE-CONTENT-OF-ANOTHER-USER");
  hits = 0;
  const [result] = await runTests(workspace, [attack(outside, secretFile)], 30_000, isolation);
  return { result: result!, workspace, outside, hits };
}

describe("acceptance tests run in a jail (real verification runner)", () => {
  it("finding 1: a test command reads no Slack token, writes nothing outside its clone, reaches no network and no data; it does run and write its clone", async (ctx) => {
    if (!jail) ctx.skip();
    const { result, workspace, outside, hits } = await runAttack({ jail: "bwrap" });
    expect(result.output).toContain("RAN"); // positive control: the command ran
    expect(fs.readFileSync(path.join(workspace, "made-inside.txt"), "utf8")).toBe("inside\n");
    expect(result.output).not.toContain(TOKEN);
    expect(result.output).not.toContain("SLACK_");
    expect(result.output).not.toContain("SAW-BOT-PROCESS");
    expect(fs.existsSync(path.join(outside, "pwned.txt"))).toBe(false);
    expect(result.output).not.toContain("DATABASE-CONTENT-OF-ANOTHER-USER");
    expect(result.output).not.toContain("reached");
    expect(hits).toBe(0);
  });

  it("positive control: the same command without the jail does leak (what finding 1 reported)", async () => {
    const { result, outside, hits } = await runAttack({ jail: "off" });
    // The allow-listed environment already keeps the token out of the test's own env…
    expect(result.output).toContain("RAN");
    expect(result.output).not.toContain(TOKEN);
    // …but unjailed, the bot's process (its /proc/<pid>/environ holds the secrets it started
    // with), the disk and the network are all reachable.
    expect(result.output).toContain("SAW-BOT-PROCESS");
    expect(fs.existsSync(path.join(outside, "pwned.txt"))).toBe(true);
    expect(result.output).toContain("DATABASE-CONTENT-OF-ANOTHER-USER");
    expect(hits).toBe(1);
  });
});
