// Cost of a full-access turn's own network namespace (pasta) on the turn's start: the time from
// spawning the jail to the jailed program's first output, with the host's network (restricted
// turns, and full-access ones before) and with a namespace through pasta, alternated run by run.
// Two programs: `echo` (the jail alone) and `codex --version` (the real binary, as a turn starts it).
//   npm run build && node dist/scripts/bench-netns.js [runs per case, default 20]
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { resolveCodexBinary, codexSupportPath } from "../src/engine/codex/codexBinary.js";
import { findNetworkStack, type PastaNetwork } from "../src/engine/isolation/agentNetwork.js";
import { jailedCodex } from "../src/engine/isolation/codexJail.js";
import { findBwrap } from "../src/engine/isolation/jail.js";
import { fmt, median, percentile } from "./benchStats.js";

const runs = Number(process.argv[2] ?? 20);
const bwrap = findBwrap();
const stack = findNetworkStack();
const codex = resolveCodexBinary(undefined);
if (!bwrap || !stack || !codex) {
  console.error(
    `needs bwrap, pasta, capsh and codex: bwrap=${bwrap} stack=${JSON.stringify(stack)} codex=${codex}`,
  );
  process.exit(1);
}

/** Milliseconds from spawn to the first byte the jailed program writes, and to its exit. */
function timeOne(file: string, args: string[], env: Record<string, string>): Promise<[number, number]> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    let first = Number.NaN;
    const child = spawn(file, args, { env, stdio: ["ignore", "pipe", "ignore"], detached: true });
    child.stdout.once("data", () => {
      first = performance.now() - start;
    });
    child.stdout.resume();
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0 || Number.isNaN(first)) reject(new Error(`${file} exited ${code} without output`));
      else resolve([first, performance.now() - start]);
    });
  });
}

const root = fs.mkdtempSync(path.join(os.tmpdir(), "codexpi-bench-netns-"));
const workspace = path.join(root, "workspace");
fs.mkdirSync(workspace);
const operatorHome = path.join(root, "operator");
fs.mkdirSync(operatorHome);
// Every jail's own namespace now (loopback only; the forwarder's ports are its ways out), and an
// `open` project's full-access turn (pasta, a route out).
const open: PastaNetwork = { ...stack, loopbackTcpPorts: [], outbound: true };
const cases = {
  host: true as const,
  namespace: false as const,
  open,
};
const programs: Record<string, string[]> = {
  echo: ["/usr/bin/echo", "ready"],
  "codex --version": [codex, "--version"],
};

try {
  for (const [program, argv] of Object.entries(programs)) {
    const times: Record<string, { first: number[]; exit: number[] }> = {};
    for (let i = 0; i < runs; i += 1) {
      for (const [name, network] of Object.entries(cases)) {
        const command = jailedCodex(
          {
            bwrap,
            network,
            codexBin: codex,
            codexSupportDir: codexSupportPath(codex),
            workspace,
            allowedAlternates: [],
            stateDir: path.join(root, "state"),
            operatorHome,
            files: { configToml: "", authJson: "{}" },
            baseEnv: process.env,
            extraEnv: {},
            overrides: [],
            forwards: null,
            dropCapabilities: false,
          },
          argv,
        );
        const [first, exit] = await timeOne(command.file, command.args, command.env);
        times[name] ??= { first: [], exit: [] };
        times[name].first.push(first);
        times[name].exit.push(exit);
      }
    }
    for (const [name, t] of Object.entries(times)) {
      console.log(
        `${program.padEnd(16)} ${name.padEnd(10)} spawn→running median ${fmt(median(t.first))}, p90 ${fmt(percentile(t.first, 90))}; spawn→exit median ${fmt(median(t.exit))} (${runs} runs)`,
      );
    }
    const added = median(times.namespace?.first ?? []) - median(times.host?.first ?? []);
    console.log(`${program.padEnd(16)} the namespace adds ${fmt(added)} to the median start`);
  }
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}
