import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { startPolicyProxy } from "./policyProxy.js";

/**
 * `doctor`'s check that an egress proxy starts here and does its job: one on a socket of its own,
 * whose list names a throw-away server on 127.0.0.1, lets a CONNECT to that server through and
 * refuses one to a port it does not list. Throws, saying what failed.
 */
export async function egressSelfTest(runDir: string): Promise<void> {
  fs.mkdirSync(runDir, { recursive: true, mode: 0o700 });
  const dir = fs.mkdtempSync(path.join(runDir, "doctor-"));
  const target = net.createServer((c) => c.end("codexpi-doctor\n"));
  await new Promise<void>((r) => target.listen(0, "127.0.0.1", () => r()));
  const port = (target.address() as net.AddressInfo).port;
  const proxy = await startPolicyProxy(dir, { mode: "allowlist", hosts: [{ host: "127.0.0.1", port }] });
  try {
    const through = await connectVia(path.join(dir, "proxy.sock"), `127.0.0.1:${port}`);
    if (!through.startsWith("HTTP/1.1 200"))
      throw new Error(`a listed host was not let through: ${through.split("\r\n")[0]}`);
    const refused = await connectVia(
      path.join(dir, "proxy.sock"),
      `127.0.0.1:${port === 65535 ? 1 : port + 1}`,
    );
    if (!refused.startsWith("HTTP/1.1 403")) throw new Error("a host that is not listed was let through");
  } finally {
    await proxy.close();
    await new Promise<void>((r) => target.close(() => r()));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The proxy's first answer to `CONNECT authority` (bounded in time). */
function connectVia(socket: string, authority: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const c = net.connect(socket, () =>
      c.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`),
    );
    const timer = setTimeout(() => {
      c.destroy();
      reject(new Error("the proxy did not answer within 5 s"));
    }, 5_000);
    c.once("data", (d) => {
      clearTimeout(timer);
      c.destroy();
      resolve(d.toString("utf8"));
    });
    c.once("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}
