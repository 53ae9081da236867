/**
 * Issue 16, finding 6, tried as an attacker would: a full-access agent (real `codexpi worker`,
 * the real Codex binary in the jail, the fake model's shell replies run as the agent) probes the
 * host's network namespace — an abstract unix socket and a loopback TCP service the test opens on
 * the host, and /proc/net. With its own namespace (pasta) it reaches neither and sees neither,
 * while its turn completes (Codex reached its model through its gateway). A project whose network
 * is `open` keeps pasta's route out; any other has no route at all. The positive control runs the
 * same probe of an `open` project with the namespace off.
 */
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { startConversation } from "../../src/engine/conversations/conversations.js";
import { findNetworkStack } from "../../src/engine/isolation/agentNetwork.js";
import { codexEngine, finished, until } from "../support/codexEngine.js";
import { functionCallOutputs } from "../support/fakeModel.js";
import { jailAvailable } from "../support/jail.js";
import { processesWith } from "../support/processes.js";

let env: Awaited<ReturnType<typeof codexEngine>> | undefined;
let jail = false;
const servers: net.Server[] = [];

beforeAll(async () => {
  jail = await jailAvailable();
  if (jail && !findNetworkStack() && process.env.CODEXPI_REQUIRE_JAIL === "1")
    throw new Error("pasta (Debian passt) is not installed and CODEXPI_REQUIRE_JAIL=1");
});

afterEach(async () => {
  await env?.close();
  env = undefined;
  for (const s of servers.splice(0)) s.close();
});

/** A host service that answers `reply` to whoever connects, on a unix path or a TCP port. */
async function hostService(reply: string, where: { path: string } | { port: 0; host: string }) {
  const server = net.createServer((c) => c.end(reply));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(where, resolve));
  return server;
}

/**
 * The probe the agent runs (node is in /usr, shown read-only in the jail): connects to the
 * abstract socket and to the loopback port, and looks for both in /proc/net.
 */
const PROBE = `
const net = require("node:net");
const fs = require("node:fs");
const [name, port] = process.argv.slice(2);
const hex = Number(port).toString(16).toUpperCase().padStart(4, "0");
const reach = (opts) => new Promise((done) => {
  const s = net.connect(opts);
  s.setTimeout(3000);
  s.on("data", (d) => { done("ANSWER-" + d); s.destroy(); });
  s.on("error", (e) => done("ERROR-" + e.code));
  s.on("timeout", () => { done("TIMEOUT"); s.destroy(); });
});
(async () => {
  console.log("ABSTRACT=" + (await reach({ path: "\\0" + name })));
  console.log("LOOPBACK=" + (await reach({ host: "127.0.0.1", port: Number(port) })));
  const unix = fs.readFileSync("/proc/net/unix", "utf8");
  const tcp = fs.readFileSync("/proc/net/tcp", "utf8");
  console.log("UNIX-LISTS-SOCKET=" + unix.includes("@" + name));
  console.log("TCP-LISTS-PORT=" + tcp.includes(":" + hex + " "));
  console.log("UNIX-ENTRIES=" + (unix.trim().split("\\n").length - 1));
})();
`;

/**
 * Before the probe, the agent tries to route 127.0.0.1 out through pasta (which would then connect
 * to any port of the host's loopback): that needs CAP_NET_ADMIN over its namespace, which it must
 * not have. Then the probe.
 */
const ROUTE_ATTACK = `grep CapEff /proc/self/status
if command -v ip >/dev/null; then
  gw=$(ip route show default | cut -d' ' -f3); dev=$(ip route show default | cut -d' ' -f5)
  # route_localnet is writable by the namespace's root without any capability; the route is not.
  echo 1 > /proc/sys/net/ipv4/conf/all/route_localnet 2>/dev/null
  ip route add 127.0.0.1/32 via "$gw" dev "$dev" onlink 2>&1 && echo ROUTE-ADDED
else echo NO-IP-TOOL; fi
exec node probe.cjs "$1" "$2"`;

/** A full-access project whose network is `open` (the only kind that keeps a route out). */
async function openFullAccessProject(e: NonNullable<typeof env>) {
  const project = await e.addProject({ name: "full", ownerId: "UOWNER", fullAccess: true });
  await e.db.updateTable("projects").set({ network_mode: "open" }).where("id", "=", project.id).execute();
  return project;
}

/**
 * Opens the host's services, has a full-access agent run the probe, returns what it printed. The
 * project is `open` (pasta's namespace) unless `network` says otherwise.
 */
async function probeAsFullAccessAgent(network: "open" | "default" = "open") {
  const e = env!;
  const project =
    network === "open"
      ? await openFullAccessProject(e)
      : await e.addProject({ name: "full", ownerId: "UOWNER", fullAccess: true });
  const name = `codexpi-test-${process.pid}-${Date.now()}`;
  await hostService("HOST-SOCKET-ANSWERED", { path: `\0${name}` });
  const tcp = await hostService("HOST-TCP-ANSWERED", { port: 0, host: "127.0.0.1" });
  const port = (tcp.address() as net.AddressInfo).port;
  fs.writeFileSync(path.join(project.path, "probe.cjs"), PROBE);
  const before = e.fake.requests.length;
  e.fake.enqueue(
    { kind: "shell", command: ["sh", "-c", ROUTE_ATTACK, "attack", name, String(port)] },
    { kind: "text", text: "fait" },
  );
  const { item } = await startConversation(e.db, e.clock, project, "sonde", "UOWNER");
  await e.engine.dispatch();
  const outcome = await finished(e.db, item.id);
  const out = JSON.stringify(functionCallOutputs(e.fake.requests[before + 1] ?? {}));
  return { outcome, out, project, name };
}

/** Network stack processes (pasta) still running for a project's jail. */
function pastaProcessesOf(projectPath: string): number[] {
  return fs
    .readdirSync("/proc")
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return (
          /^pas(st|ta)/.test(fs.readFileSync(`/proc/${p}/comm`, "utf8")) &&
          fs.readFileSync(`/proc/${p}/cmdline`, "utf8").includes(projectPath)
        );
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe("a full-access agent's network (real Codex in the jail, issue 16 finding 6)", () => {
  /** What a full-access agent in its own namespace must (not) reach and see. */
  function expectOwnNamespace(r: Awaited<ReturnType<typeof probeAsFullAccessAgent>>) {
    // Positive control of the network: Codex reached the fake model (127.0.0.1 on the host) twice.
    expect(r.outcome).toMatchObject({ status: "done" });
    expect(r.out).toContain("ABSTRACT="); // the probe ran
    expect(r.out).toMatch(/CapEff:\\t0{16}/); // no capability over its namespace
    if (!r.out.includes("NO-IP-TOOL")) expect(r.out).toContain("RTNETLINK answers: Operation not permitted");
    expect(r.out).not.toContain("ROUTE-ADDED");
    expect(r.out).toContain("ABSTRACT=ERROR-ECONNREFUSED");
    expect(r.out).toContain("LOOPBACK=ERROR-ECONNREFUSED");
    expect(r.out).not.toContain("HOST-SOCKET-ANSWERED");
    expect(r.out).not.toContain("HOST-TCP-ANSWERED");
    expect(r.out).toContain("UNIX-LISTS-SOCKET=false");
    expect(r.out).toContain("TCP-LISTS-PORT=false");
    // The host lists its socket (so "false" above is the namespace, not a probe that cannot read).
    expect(fs.readFileSync("/proc/net/unix", "utf8")).toContain(`@${r.name}`);
    // The network stack ended with the turn.
    expect(pastaProcessesOf(r.project.path)).toEqual([]);
  }

  it("reaches neither the host's abstract socket nor an unforwarded loopback port, and sees neither in /proc/net, while its turn reached the model on the host's loopback", async (ctx) => {
    if (!jail || !findNetworkStack()) ctx.skip();
    env = await codexEngine();
    expectOwnNamespace(await probeAsFullAccessAgent());
  });

  it("the same under the app-server runner", async (ctx) => {
    if (!jail || !findNetworkStack()) ctx.skip();
    env = await codexEngine({ env: { CODEXPI_RUNNER: "app-server" } });
    expectOwnNamespace(await probeAsFullAccessAgent());
  });

  it("a turn stopped by its watchdog leaves neither the network stack nor the agent's command behind", async (ctx) => {
    if (!jail || !findNetworkStack()) ctx.skip();
    env = await codexEngine({ env: { CODEXPI_TURN_TIMEOUT: "12" } });
    const project = await openFullAccessProject(env);
    const marker = `codexpi-netns-sleeper-${process.pid}`;
    // The command outlives Codex's wait for it (a background session); then the model never answers.
    env.fake.enqueue({ kind: "shell", command: ["sh", "-c", `sleep 300; echo ${marker}`] }, { kind: "hang" });
    const { item } = await startConversation(env.db, env.clock, project, "attends", "UOWNER");
    await env.engine.dispatch();
    // Positive control: the network stack did run for this turn.
    await until(
      async () => pastaProcessesOf(project.path).length > 0 && processesWith(marker).length > 0,
      30_000,
      "pasta and the command to run",
    );
    expect(await finished(env.db, item.id, 60_000)).toMatchObject({
      status: "failed",
      error_code: "watchdog",
    });
    await until(
      async () => pastaProcessesOf(project.path).length === 0 && processesWith(marker).length === 0,
      10_000,
      "the jail's processes to end",
    );
  });

  it("a full-access project whose network is not open has no route at all, and no capability either: its only way out is its gateway", async (ctx) => {
    if (!jail) ctx.skip();
    env = await codexEngine();
    const r = await probeAsFullAccessAgent("default");
    expect(r.outcome).toMatchObject({ status: "done" }); // the model answered, through the gateway
    expect(r.out).toMatch(/CapEff:\\t0{16}/);
    expect(r.out).not.toContain("ROUTE-ADDED");
    expect(r.out).toContain("ABSTRACT=ERROR-ECONNREFUSED");
    expect(r.out).toContain("LOOPBACK=ERROR-ECONNREFUSED");
    expect(r.out).toContain("UNIX-LISTS-SOCKET=false");
    expect(r.out).toContain("TCP-LISTS-PORT=false");
    expect(pastaProcessesOf(r.project.path)).toEqual([]);
  });

  it("positive control: with the namespace off (CODEXPI_NETNS=off) the same probe reaches both and sees the socket", async (ctx) => {
    if (!jail) ctx.skip();
    env = await codexEngine({ env: { CODEXPI_NETNS: "off" } });
    const { outcome, out } = await probeAsFullAccessAgent();
    expect(outcome).toMatchObject({ status: "done" });
    expect(out).toContain("ABSTRACT=ANSWER-HOST-SOCKET-ANSWERED");
    expect(out).toContain("LOOPBACK=ANSWER-HOST-TCP-ANSWERED");
    expect(out).toContain("UNIX-LISTS-SOCKET=true");
    expect(out).toContain("TCP-LISTS-PORT=true");
  });
});
