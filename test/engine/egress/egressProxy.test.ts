/**
 * The egress proxy, tried as an agent would: real TCP on 127.0.0.1, a listed and an unlisted
 * server, names that resolve where the agent would like them to. Every refusal has its positive
 * control: the same request to a listed destination goes through.
 */
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  type EgressRules,
  parseAuthority,
  startEgressProxy,
} from "../../../src/engine/egress/egressProxy.js";
import {
  isPrivateAddress,
  matchHost,
  type NetworkPolicy,
  parseHostEntry,
} from "../../../src/engine/network/index.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

/** A server that answers every request with its name, counting what reaches it. */
async function server(name: string): Promise<{ port: number; hits: () => number }> {
  let hits = 0;
  const s = http.createServer((_req, res) => {
    hits += 1;
    res.end(name);
  });
  s.on("connection", () => undefined);
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", () => r()));
  closers.push(() => new Promise((r) => s.close(() => r())));
  return { port: (s.address() as AddressInfo).port, hits: () => hits };
}

function rulesOf(policy: NetworkPolicy, privateAllowed: boolean): EgressRules {
  return {
    match: (h, p) => (matchHost(policy, h, p) ? { privateAllowed } : null),
    isPrivateAddress,
  };
}

/** `CONNECT host:port` through the proxy, then a GET in the tunnel: the status line and body. */
function connectThrough(proxyPort: number, authority: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = net.connect(proxyPort, "127.0.0.1", () => {
      s.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`);
    });
    let text = "";
    let sent = false;
    s.on("data", (d) => {
      text += d.toString();
      if (!sent && text.startsWith("HTTP/1.1 200")) {
        sent = true;
        s.write(`GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      }
    });
    s.on("end", () => resolve(text));
    s.on("error", reject);
  });
}

describe("the egress proxy", () => {
  it("tunnels to a listed destination and refuses an unlisted one, which receives nothing", async () => {
    const listed = await server("listed");
    const other = await server("other");
    const policy: NetworkPolicy = { mode: "allowlist", hosts: [parseHostEntry(`127.0.0.1:${listed.port}`)] };
    const proxy = await startEgressProxy({ rules: rulesOf(policy, true) });
    closers.push(() => proxy.close());
    expect(await connectThrough(proxy.port, `127.0.0.1:${listed.port}`)).toContain("listed");
    const refused = await connectThrough(proxy.port, `127.0.0.1:${other.port}`);
    expect(refused).toMatch(/^HTTP\/1.1 403/);
    expect(refused).toContain("not in the project's network list");
    expect(other.hits()).toBe(0);
    expect(listed.hits()).toBe(1);
    expect(proxy.refusals()).toEqual([{ host: "127.0.0.1", port: other.port, reason: "not_listed" }]);
  });

  it("refuses a listed public name that resolves to a private address, unless the entry was an admin's private one", async () => {
    const target = await server("internal");
    const policy: NetworkPolicy = {
      mode: "allowlist",
      hosts: [parseHostEntry(`registry.example:${target.port}`)],
    };
    const lookup = async () => ["127.0.0.1"];
    const proxy = await startEgressProxy({ rules: rulesOf(policy, false), lookup });
    closers.push(() => proxy.close());
    expect(await connectThrough(proxy.port, `registry.example:${target.port}`)).toMatch(/^HTTP\/1.1 403/);
    expect(proxy.refusals()[0]?.reason).toBe("private_address");
    expect(target.hits()).toBe(0);
    // Positive control: the same name, the entry an admin's private one.
    const allowed = await startEgressProxy({ rules: rulesOf(policy, true), lookup });
    closers.push(() => allowed.close());
    expect(await connectThrough(allowed.port, `registry.example:${target.port}`)).toContain("internal");
  });

  it("forwards a plain http:// request to a listed host and refuses another", async () => {
    const listed = await server("plain");
    const policy: NetworkPolicy = { mode: "allowlist", hosts: [parseHostEntry(`localhost:${listed.port}`)] };
    const proxy = await startEgressProxy({ rules: rulesOf(policy, true), lookup: async () => ["127.0.0.1"] });
    closers.push(() => proxy.close());
    const get = (url: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(
          { host: "127.0.0.1", port: proxy.port, path: url, headers: { host: "x" } },
          (res) => {
            let body = "";
            res.on("data", (d) => {
              body += d;
            });
            res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on("error", reject);
        req.end();
      });
    expect(await get(`http://localhost:${listed.port}/`)).toEqual({ status: 200, body: "plain" });
    expect((await get(`http://elsewhere.example:${listed.port}/`)).status).toBe(403);
  });

  it("reads CONNECT authorities, IPv6 included, and refuses malformed ones", () => {
    expect(parseAuthority("Registry.NPMjs.org.:443")).toEqual({ host: "registry.npmjs.org", port: 443 });
    expect(parseAuthority("[::1]:8080")).toEqual({ host: "::1", port: 8080 });
    for (const bad of ["host", "host:0", "host:70000", "user@host:443", "a/b:443", ":443"])
      expect(parseAuthority(bad)).toBeNull();
  });
});
