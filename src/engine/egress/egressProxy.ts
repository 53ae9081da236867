import dns from "node:dns/promises";
import http from "node:http";
import net from "node:net";
import type { Socket } from "node:net";
import { listenLocal } from "../system/index.js";

/**
 * One turn's egress proxy: an HTTP proxy on the host's loopback, outside every jail, the only way
 * out of a jail whose project lists hosts. Agents reach it through their commands' `HTTPS_PROXY`
 * and `HTTP_PROXY` (the namespace has no other route, so a tool that ignores them gets nowhere).
 * It takes `CONNECT host:port` (TLS and any other TCP) and plain `http://` requests, checks the
 * host *name* the agent gave against the project's list, resolves it itself and connects to the
 * address it checked: an agent never chooses the address, and a listed name that resolves to a
 * loopback, link-local or private address is refused unless an admin listed such an entry.
 */

/** What the proxy asks of the project's list. */
export interface EgressRules {
  /** The listed entry for a host (name or IP literal, as the agent wrote it) and port, or null. */
  match(host: string, port: number): { privateAllowed: boolean } | null;
  /** Whether an address is loopback, link-local, private or otherwise not the internet. */
  isPrivateAddress(ip: string): boolean;
}

/** Why a connection was refused. */
export type RefusalReason = "not_listed" | "private_address" | "unresolved" | "bad_request";

/** One refused connection. */
export interface EgressRefusal {
  host: string;
  port: number;
  reason: RefusalReason;
}

/** A started proxy. */
export interface EgressProxy {
  port: number;
  /** Every refusal so far, in order (one per attempt). */
  refusals(): EgressRefusal[];
  close(): Promise<void>;
}

/** Seams: name resolution (tests), the refusal callback. */
export interface EgressProxyOptions {
  rules: EgressRules;
  /** A unix socket to listen on (a turn's, bound into its jail); default an ephemeral loopback port. */
  socketPath?: string;
  lookup?: (host: string) => Promise<string[]>;
  onRefused?: (r: EgressRefusal) => void;
}

const MAX_REFUSALS = 200;

const defaultLookup = async (host: string): Promise<string[]> =>
  (await dns.lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** `host:port` of a CONNECT target (`[v6]:port` too); null when malformed. */
export function parseAuthority(authority: string): { host: string; port: number } | null {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]/\s@]+)):(\d{1,5})$/.exec(authority);
  if (!m) return null;
  const port = Number(m[3]);
  if (port < 1 || port > 65535) return null;
  return { host: (m[1] ?? m[2] ?? "").toLowerCase().replace(/\.$/, ""), port };
}

/** What the handlers share: the decision, the refusal record, the open sockets. */
interface ProxyContext {
  decide(host: string, port: number): Promise<string | RefusalReason>;
  refuse(host: string, port: number, reason: RefusalReason): void;
  sockets: Set<Socket>;
}

const deniedText = (reason: RefusalReason, host: string): string =>
  `codexpi: connection to ${host} refused (${reason === "not_listed" ? "not in the project's network list" : reason.replace("_", " ")})\n`;

/** A plain http:// request in absolute form (`GET http://host/path`): checked, then forwarded. */
function forwardPlainHttp(ctx: ProxyContext, req: http.IncomingMessage, res: http.ServerResponse): void {
  let url: URL;
  try {
    url = new URL(req.url ?? "");
  } catch {
    res.writeHead(400).end("codexpi: only proxy requests are served here\n");
    return;
  }
  if (url.protocol !== "http:") {
    res.writeHead(400).end("codexpi: use CONNECT for this scheme\n");
    return;
  }
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const port = url.port ? Number(url.port) : 80;
  void ctx.decide(host, port).then((target) => {
    if (!net.isIP(target)) {
      ctx.refuse(host, port, target as RefusalReason);
      res.writeHead(403, { "content-type": "text/plain" }).end(deniedText(target as RefusalReason, host));
      return;
    }
    const headers = { ...req.headers };
    delete headers["proxy-connection"];
    delete headers["proxy-authorization"];
    const upstream = http.request(
      {
        host: target,
        port,
        method: req.method,
        path: `${url.pathname}${url.search}`,
        headers,
        setHost: false,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502).end("codexpi: upstream unreachable\n");
      else res.destroy();
    });
    req.pipe(upstream);
  });
}

/** `CONNECT host:port`: checked, then a tunnel to the address the proxy resolved itself. */
function tunnel(ctx: ProxyContext, req: http.IncomingMessage, client: Socket, head: Buffer): void {
  const target = parseAuthority(req.url ?? "");
  if (!target) {
    ctx.refuse(req.url ?? "", 0, "bad_request");
    client.end("HTTP/1.1 400 Bad Request\r\n\r\n");
    return;
  }
  void ctx.decide(target.host, target.port).then((address) => {
    if (!net.isIP(address)) {
      ctx.refuse(target.host, target.port, address as RefusalReason);
      const body = deniedText(address as RefusalReason, target.host);
      client.end(
        `HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      return;
    }
    const upstream = net.connect({ host: address, port: target.port }, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    ctx.sockets.add(upstream);
    upstream.on("close", () => ctx.sockets.delete(upstream));
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
  });
}

/** Starts a turn's proxy on its socket (or an ephemeral port of 127.0.0.1). */
export async function startEgressProxy(opts: EgressProxyOptions): Promise<EgressProxy> {
  const lookup = opts.lookup ?? defaultLookup;
  const refused: EgressRefusal[] = [];
  const sockets = new Set<Socket>();
  const ctx: ProxyContext = {
    sockets,
    refuse(host, port, reason) {
      const r = { host, port, reason };
      if (refused.length < MAX_REFUSALS) refused.push(r);
      opts.onRefused?.(r);
    },
    async decide(host, port) {
      const entry = opts.rules.match(host, port);
      if (!entry) return "not_listed";
      let addresses: string[];
      try {
        addresses = net.isIP(host) ? [host] : await lookup(host);
      } catch {
        return "unresolved";
      }
      if (!addresses.length) return "unresolved";
      // Every address the name has, not just the one used: a name that answers both is refused.
      if (!entry.privateAllowed && addresses.some((a) => opts.rules.isPrivateAddress(a)))
        return "private_address";
      return addresses[0] as string;
    },
  };
  const server = http.createServer((req, res) => forwardPlainHttp(ctx, req, res));
  server.on("connect", (req: http.IncomingMessage, client: Socket, head: Buffer) =>
    tunnel(ctx, req, client, head),
  );
  const listening = await listenLocal(server, opts.socketPath);
  return {
    port: listening.port,
    refusals: () => [...refused],
    async close() {
      // The tunnels' upstream halves are not the server's connections: they go first.
      for (const s of sockets) s.destroy();
      await listening.close();
    },
  };
}
