/**
 * Runs inside an agent's jail, as the parent of its Codex: listens on the jail's own loopback at
 * the given TCP ports, each connection piped to a unix socket of the turn's (bound into the
 * jail read-only), then starts the command and exits as it does. The jail has no network of its
 * own (`--unshare-net`): these ports are its only ways out — the turn's model gateway, its
 * egress proxy, the host services the operator forwards — each answered by its worker, outside.
 *
 * Standalone on purpose (node: modules only): the jail shows this one file, not codexpi.
 * Usage: node forwarder.mjs '[[port, "/socket/path"], …]' program [args…]
 */
import { spawn } from "node:child_process";
import net from "node:net";

const [specText = "[]", program, ...args] = process.argv.slice(2);
const spec = JSON.parse(specText) as Array<[number, string]>;

// Signals are for Codex (its worker signals it directly); this process ends when Codex does.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => undefined);

function listen(port: number, socketPath: string): Promise<void> {
  const server = net.createServer((client) => {
    const upstream = net.connect(socketPath);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
}

async function main(): Promise<void> {
  if (!program) throw new Error("forwarder: no program to run");
  await Promise.all(spec.map(([port, socketPath]) => listen(port, socketPath)));
  const child = spawn(program, args, { stdio: "inherit" });
  child.on("error", (err) => {
    process.stderr.write(`forwarder: ${err.message}\n`);
    process.exit(127);
  });
  child.on("exit", (code, signal) => {
    process.exit(
      code ??
        128 +
          (signal ? (({ SIGKILL: 9, SIGTERM: 15, SIGINT: 2 } as Record<string, number>)[signal] ?? 1) : 1),
    );
  });
}

main().catch((err: Error) => {
  process.stderr.write(`forwarder: ${err.message}\n`);
  process.exit(126);
});
