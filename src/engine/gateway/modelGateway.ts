import { randomBytes, timingSafeEqual, createHash } from "node:crypto";
import http from "node:http";
import { listenLocal } from "../system/index.js";
import { EnvHttpProxyAgent, request } from "undici";
import type { Upstream } from "./upstream.js";
import { UsageTap, type GatewayUsage } from "./usageTap.js";

/**
 * One turn's model gateway: an HTTP server on the host's loopback, outside every jail, that the
 * turn's Codex reaches through the one port its jail forwards. Codex sends its requests with a
 * stand-in bearer (this turn's token, worth nothing elsewhere); the gateway checks it, swaps in
 * the real credential and forwards the request to the configured upstream, streaming the answer
 * back. It knows its turn: once the turn has ended, every request is refused. It counts the
 * turn's usage from the upstream's own `response.completed` events.
 */

/** A started gateway. */
export interface ModelGateway {
  /** The port on 127.0.0.1 (0 when it listens on a unix socket). */
  port: number;
  /** The stand-in credential Codex sends (valid for this turn only, through this gateway only). */
  token: string;
  /** Tokens the upstream reported for this turn's responses so far. */
  usage(): GatewayUsage;
  /** Ends the turn: later requests are refused, requests in flight cut, the port closed. */
  end(): Promise<void>;
}

/** Seams: the upstream and where forwarded requests go (a proxy from the environment by default). */
export interface GatewayOptions {
  upstream: Upstream;
  /** A unix socket to listen on (a turn's, bound into its jail); default an ephemeral loopback port. */
  socketPath?: string;
  /**
   * The model could not be reached (attempt, cause) and the gateway retries, holding Codex's
   * request; then it was reached again. The turn's watchdog decides how long that may last.
   */
  onUnreachable?(attempt: number, cause: string): void;
  onReached?(): void;
  /** Largest request body accepted (a turn's prompt with its images). */
  maxBodyBytes?: number;
  log?: { warn(obj: object, msg: string): void };
}

/** Request headers never forwarded: hop-by-hop ones, the stand-in credential, what we set. */
const DROP_REQUEST = new Set([
  "host",
  "connection",
  "keep-alive",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "authorization",
  "content-length",
  // An identity answer: the gateway reads the stream to count usage.
  "accept-encoding",
  "chatgpt-account-id",
  "api-key",
  "x-api-key",
]);
const DROP_RESPONSE = new Set(["connection", "keep-alive", "transfer-encoding", "content-length"]);

const digest = (s: string): Buffer => createHash("sha256").update(s).digest();

/** Whether `header` is `Bearer <token>` (compared in constant time). */
function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(.+)$/i.exec(header ?? "");
  return m !== null && timingSafeEqual(digest(m[1] as string), digest(token));
}

function refuse(res: http.ServerResponse, status: number, message: string): void {
  if (res.headersSent) return void res.destroy();
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ error: { message: `codexpi gateway: ${message}`, type: "codexpi_gateway" } }));
}

async function readBody(req: http.IncomingMessage, max: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > max) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The upstream URL of a request to `/v1/<rest>`. */
function upstreamUrl(upstream: Upstream, reqUrl: string): string | null {
  const url = new URL(reqUrl, "http://gateway.invalid");
  if (url.pathname !== "/v1" && !url.pathname.startsWith("/v1/")) return null;
  const target = new URL(`${upstream.baseUrl}${url.pathname.slice(3)}`);
  url.searchParams.forEach((v, k) => target.searchParams.set(k, v));
  for (const [k, v] of Object.entries(upstream.query)) target.searchParams.set(k, v);
  return target.toString();
}

/** One gateway's state, shared by its request handling. */
interface GatewayState {
  opts: GatewayOptions;
  token: string;
  tap: UsageTap;
  dispatcher: EnvHttpProxyAgent;
  inFlight: Set<AbortController>;
  ended: boolean;
}

/** Sends one request upstream with the credential's headers (read now: a login may be refreshed). */
async function send(
  g: GatewayState,
  target: string,
  method: string,
  headers: Record<string, string>,
  body: Buffer,
  signal: AbortSignal,
) {
  return request(target, {
    method: method as "POST",
    headers: { ...headers, ...(await g.opts.upstream.headers()) },
    body: method === "GET" || method === "HEAD" ? undefined : body,
    dispatcher: g.dispatcher,
    signal,
    // A model may think for minutes before its first byte; Codex's own idle limits still apply.
    headersTimeout: 0,
    bodyTimeout: 0,
  });
}

/** Checks one request of the turn's Codex, forwards it and streams the answer back, counting usage. */
async function forward(g: GatewayState, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  if (g.ended) return refuse(res, 403, "this turn has ended");
  if (!bearerMatches(req.headers.authorization, g.token))
    return refuse(res, 401, "not this turn's credential");
  const target = upstreamUrl(g.opts.upstream, req.url ?? "/");
  if (!target) return refuse(res, 404, "only /v1/… is forwarded");
  const body = await readBody(req, g.opts.maxBodyBytes ?? 64 * 1024 * 1024);
  if (body === null) return refuse(res, 413, "request too large");
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers))
    if (!DROP_REQUEST.has(k) && typeof v === "string") headers[k] = v;
  const abort = new AbortController();
  g.inFlight.add(abort);
  try {
    const method = req.method ?? "GET";
    let answer = await sendUntilReached(g, target, method, headers, body, abort.signal);
    if (answer.statusCode === 401 && (await g.opts.upstream.refreshAfterUnauthorized())) {
      await answer.body.dump().catch(() => undefined);
      answer = await send(g, target, method, headers, body, abort.signal);
    }
    if (g.ended) return refuse(res, 403, "this turn has ended");
    const out: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(answer.headers))
      if (!DROP_RESPONSE.has(k) && v !== undefined) out[k] = v;
    res.writeHead(answer.statusCode, out);
    const sse = String(answer.headers["content-type"] ?? "").includes("text/event-stream");
    for await (const chunk of answer.body) {
      if (sse) g.tap.push(chunk as Buffer);
      else if (answer.statusCode < 300) g.tap.pushJson(chunk as Buffer);
      res.write(chunk);
    }
    g.tap.end();
    res.end();
  } finally {
    g.inFlight.delete(abort);
  }
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

/** Why the upstream could not be reached, in Codex's own words for it ("Connection failed: …"). */
function causeOf(g: GatewayState, err: Error): string {
  const code = (err as NodeJS.ErrnoException).code ?? (err.cause as NodeJS.ErrnoException | undefined)?.code;
  return `Connection failed: ${new URL(g.opts.upstream.baseUrl).host} ${code ?? err.message}`;
}

/**
 * Sends a request, retrying while the upstream cannot be reached (as Codex does, which would say
 * "Reconnecting… waiting for network" forever): the turn is told each attempt and, through its
 * watchdog's connection limit, decides when to give up. Without a listener, one attempt.
 */
async function sendUntilReached(
  g: GatewayState,
  target: string,
  method: string,
  headers: Record<string, string>,
  body: Buffer,
  signal: AbortSignal,
) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      const answer = await send(g, target, method, headers, body, signal);
      if (attempt > 1) g.opts.onReached?.();
      return answer;
    } catch (err) {
      if (!g.opts.onUnreachable || g.ended || signal.aborted) throw err;
      g.opts.onUnreachable(attempt, causeOf(g, err as Error));
      await sleep(Math.min(500 * 2 ** (attempt - 1), 5_000), signal);
      if (g.ended || signal.aborted) throw err;
    }
  }
}

/** An upstream that could not be reached: a 502 naming the cause (Codex retries it, then reports it). */
function unreachable(g: GatewayState, res: http.ServerResponse, err: Error): void {
  if (g.ended) {
    refuse(res, 403, "this turn has ended");
    return;
  }
  g.opts.log?.warn({ err: { message: err.message } }, "model gateway: upstream request failed");
  // Without the gateway Codex would retry a refused connection forever; with it, the turn ends
  // within Codex's request retries, with these words.
  const code = (err as NodeJS.ErrnoException).code ?? (err.cause as NodeJS.ErrnoException | undefined)?.code;
  refuse(
    res,
    502,
    `the model at ${new URL(g.opts.upstream.baseUrl).host} could not be reached (${code ?? err.message})`,
  );
}

/** Starts a turn's gateway on its socket (or an ephemeral port of 127.0.0.1). */
export async function startModelGateway(opts: GatewayOptions): Promise<ModelGateway> {
  const g: GatewayState = {
    opts,
    token: `codexpi-turn-${randomBytes(24).toString("base64url")}`,
    tap: new UsageTap(),
    dispatcher: new EnvHttpProxyAgent(),
    inFlight: new Set(),
    ended: false,
  };
  const server = http.createServer((req, res) => {
    forward(g, req, res).catch((err: Error) => unreachable(g, res, err));
  });
  const listening = await listenLocal(server, opts.socketPath);
  return {
    port: listening.port,
    token: g.token,
    usage: () => g.tap.total(),
    async end() {
      if (g.ended) return;
      g.ended = true;
      for (const a of g.inFlight) a.abort();
      await listening.close();
      await g.dispatcher.close().catch(() => undefined);
    },
  };
}
