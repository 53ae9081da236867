/**
 * A fake Slack on 127.0.0.1 for tests: it replaces Slack (and only Slack) so that the real
 * `@slack/web-api` WebClient and the real Bolt `App` (HTTP or Socket Mode) can run offline.
 *
 * One http server (port 0) serves:
 * - `POST|GET /api/<method>`: the Web API methods codexpi uses. It accepts what WebClient sends
 *   (form-urlencoded with nested fields such as `blocks`/`metadata`/`view` JSON-encoded, JSON bodies,
 *   multipart; token in `Authorization: Bearer` or a `token` field) and answers like Slack
 *   (`{ok:true,…}` or HTTP 200 `{ok:false,error}`). Unknown methods answer `unknown_method`.
 * - `POST /upload/<fileId>`: the upload URL handed out by `files.getUploadURLExternal`.
 * - `POST /response/<id>`: response URLs (`fake.responseUrl(id)`), recorded in `fake.responses`.
 * - `GET /socket?ticket=…` (WebSocket upgrade): Socket Mode. `apps.connections.open` (app token
 *   `xapp-…`) returns this URL; the server greets with `hello` and `fake.socket.send()` pushes
 *   envelopes and resolves with the app's ack.
 *
 * Everything is recorded (`fake.calls`, `messages()`, `ephemerals`, `files`, `views`, `responses`)
 * and failures can be injected per method (`failNext`) or globally (`outage`). Messages get
 * increasing `ts` values from a fixed origin (default 1700000000.000100, .000200, …), so tests are
 * deterministic. A file shared with `files.completeUploadExternal` into a channel also appears as a
 * message (with `files`), as in Slack.
 *
 * Light Block Kit validation mirrors Slack's limits (50 blocks per message, 100 per view, section
 * text 3000, button text 75, value 2000, ids 255, header 150, modal title 24, private_metadata
 * 3000): a breach answers `invalid_blocks` (messages) or `invalid_arguments` (views) with an
 * `[ERROR] …` line in `response_metadata.messages`, so code that would be rejected by Slack fails here.
 *
 * Trap for Socket Mode tests: stop the Bolt app (`await app.stop()`) before `fake.close()`, otherwise
 * the socket-mode client tries to reconnect to a closed server and rejects unhandled.
 */
import { randomUUID } from "node:crypto";
import { FakeSharedFiles } from "./fakeSlackFiles.js";
import http from "node:http";
import path from "node:path";
import type { AddressInfo, Socket } from "node:net";
import querystring from "node:querystring";
import { setTimeout as sleep } from "node:timers/promises";
import { WebSocket, WebSocketServer } from "ws";
import { manifestBotScopes } from "../../src/cli/slackChecks.js";

export interface FakeSlackOptions {
  botUserId?: string;
  botId?: string;
  teamId?: string;
  teamName?: string;
  /** App id sent in Socket Mode `hello` and in `apps.connections.open`'s URL. */
  appId?: string;
  /** Seconds part of the first message ts (default 1700000000). */
  tsStartSeconds?: number;
  /**
   * The bot token's granted scopes, sent as Slack does in every bot-token answer's
   * `x-oauth-scopes` header (default: manifest.yml's bot scopes).
   */
  scopes?: string[];
  /**
   * Whether `chat.startStream` is allowed in this workspace (default false: it answers
   * `feature_not_enabled`, as in a workspace without Slack's AI features). Switch at run time with
   * `refuseStreaming`.
   */
  streaming?: boolean;
  /** The only token that may download shared files (default `xoxb-test`, the test bot's). */
  botToken?: string;
}

/** One chat.startStream / appendStream / stopStream call on a stream, with its chunks. */
export interface FakeSlackStreamCall {
  method: "chat.startStream" | "chat.appendStream" | "chat.stopStream";
  /** `chunks` as sent, plus a `markdown_text` argument as one chunk. */
  chunks: Array<Record<string, unknown>>;
  at: number;
}

/** A streamed message: where it is, for whom, and every call made on it in order. */
export interface FakeSlackStream {
  channel: string;
  ts: string;
  thread_ts: string | undefined;
  recipient_user_id: string | undefined;
  recipient_team_id: string | undefined;
  state: "open" | "stopped" | "expired";
  calls: FakeSlackStreamCall[];
}

/**
 * One request, recorded once it has been answered (or dropped): a call still in flight (e.g. the
 * `auth.test` Bolt fires from its constructor) is not in `calls` yet — use `waitForCall`.
 * Upload-URL posts are recorded as method "upload", response-URL posts as "response_url".
 */
export interface FakeSlackCall {
  method: string;
  /** Parsed arguments, without `token`; `blocks`, `metadata`, `attachments`, `view`, `files` JSON-decoded. */
  args: Record<string, unknown>;
  /** Token from `Authorization: Bearer` or the `token` field. */
  token: string | undefined;
  /** Epoch ms when the request arrived. */
  at: number;
  /** HTTP status answered (for `dropResponse`: 200, though nothing was sent). */
  status: number;
  /** Body's `ok` / `error` when a JSON body was produced. */
  ok: boolean | undefined;
  error: string | undefined;
  /** True when the call was performed but the socket was destroyed instead of answering. */
  dropped: boolean;
  /** True when the answer came from `failNext` or `outage`. */
  injected: boolean;
}

/**
 * What `failNext` / `outage` inject:
 * - `{ status: 500 }` (any non-200, non-429 status): HTTP error, nothing performed;
 * - `{ status: 429, retryAfter }`: `Retry-After` header, body `{ok:false,error:"ratelimited"}`;
 * - `{ error: "not_in_channel" }`: HTTP 200 `{ok:false,error}`, nothing performed;
 * - `{ status: 200, dropResponse: true }`: the call IS performed, then the socket is destroyed;
 * - `delayMs` (alone or with any of the above): wait that long first.
 */
export type FakeSlackFailure =
  | { status: 429; retryAfter: number; delayMs?: number }
  | { status: 200; dropResponse: true; delayMs?: number }
  | { error: string; status?: 200; delayMs?: number }
  | { status: number; delayMs?: number }
  | { delayMs: number };

export interface FakeSlackMessage {
  channel: string;
  ts: string;
  thread_ts: string | undefined;
  text: string;
  blocks: unknown[] | undefined;
  attachments: unknown[] | undefined;
  metadata: { event_type: string; event_payload: Record<string, unknown> } | undefined;
  /** Who wrote it: the bot's user id, but for the messages of `say`. */
  user: string;
  /** The bot's id; undefined for a person's message (`say`). */
  bot_id: string;
  /** Another app's name (`say` with a bot id). */
  username?: string;
  /** Number of successful `chat.update` calls on it. */
  updates: number;
  edited: { user: string; ts: string } | undefined;
  files: Array<{ id: string; name: string; title: string }> | undefined;
  reply_broadcast: boolean;
}

export interface FakeSlackEphemeral {
  channel: string;
  user: string;
  text: string;
  blocks: unknown[] | undefined;
  thread_ts: string | undefined;
  message_ts: string;
}

export interface FakeSlackFile {
  id: string;
  filename: string;
  title: string | undefined;
  length: number;
  /** Bytes uploaded to the upload URL (empty until uploaded). */
  content: Buffer;
  uploaded: boolean;
  completed: boolean;
  channel: string | undefined;
  thread_ts: string | undefined;
  initial_comment: string | undefined;
  alt_text: string | undefined;
  snippet_type: string | undefined;
}

export interface FakeSlackViewRecord {
  method: "views.publish" | "views.open" | "views.update" | "views.push";
  view_id: string;
  user_id: string | undefined;
  trigger_id: string | undefined;
  /** The view as sent (JSON-decoded). */
  view: Record<string, unknown>;
  hash: string;
}

export interface FakeSlackResponse {
  id: string;
  /** JSON body (or form fields / `{text}` for other content types). */
  body: unknown;
  at: number;
}

export interface FakeSlackAck {
  envelope_id: string;
  payload?: unknown;
}

export type SocketEnvelopeType = "slash_commands" | "interactive" | "events_api" | (string & {});

export interface FakeSlackSocket {
  /**
   * Sends an envelope to the most recent open connection and resolves with the app's ack
   * (`{envelope_id, payload}`); rejects after `timeoutMs` (default 5000) without an ack.
   * `acceptsResponsePayload` defaults to true except for `events_api`.
   */
  send(
    type: SocketEnvelopeType,
    payload: unknown,
    opts?: {
      acceptsResponsePayload?: boolean;
      timeoutMs?: number;
      retryAttempt?: number;
      retryReason?: string;
      envelopeId?: string;
    },
  ): Promise<FakeSlackAck>;
  connected(): boolean;
  /** Number of open connections. */
  connectionCount(): number;
  /** Total connections accepted so far (reconnections count). */
  connectionsAccepted(): number;
  waitForConnection(timeoutMs?: number): Promise<void>;
  /** Sends Slack's `{"type":"disconnect","reason":…}` to every open connection (client should reconnect). */
  disconnect(reason?: string): void;
  /** Abruptly terminates every open connection (no close frame). */
  dropConnections(): void;
  /** Acks received, in order. */
  readonly acks: FakeSlackAck[];
  /** Other (non-ack) messages received from the app. */
  readonly received: unknown[];
}

/** A channel as the fake knows it. */
export interface FakeSlackChannel {
  isPrivate: boolean;
  /** Whether the bot is a member (`conversations.join` makes it one in a public channel). */
  botIsMember: boolean;
  /** The channel's members (`conversations.members`), the bot aside. */
  members: string[];
  /** What `conversations.join` answers instead of joining (e.g. "is_archived"). */
  joinError?: string;
  /** The channel's topic (`conversations.info`). */
  topic?: string;
}

/** A message someone other than the bot wrote (`say`): a person, or another app with `botId`. */
export interface FakeSlackSaid {
  channel: string;
  user: string;
  text: string;
  thread_ts?: string;
  /** Its ts; default: the fake's next one (after everything posted so far). */
  ts?: string;
  /** Another app's message: its bot id and name. */
  botId?: string;
  username?: string;
  /** Files shared with it (as `shared.share` returns them), served with the message. */
  files?: unknown[];
}

export interface FakeSlack {
  /** `http://127.0.0.1:PORT/api/` — pass as `slackApiUrl`. */
  readonly apiUrl: string;
  /** `http://127.0.0.1:PORT` */
  readonly baseUrl: string;
  readonly port: number;
  readonly botUserId: string;
  readonly botId: string;
  readonly teamId: string;
  readonly appId: string;
  readonly calls: FakeSlackCall[];
  /**
   * API methods in the order their requests arrived, before any injected delay (`calls` records a
   * call once answered): a test knows a delayed call is in flight.
   */
  readonly arrivals: string[];
  callsTo(method: string): FakeSlackCall[];
  /** Stored (non-deleted) messages in post order, optionally for one channel; current text after updates. */
  messages(channel?: string): FakeSlackMessage[];
  /** Parent then replies of a thread, in ts order. */
  thread(channel: string, threadTs: string): FakeSlackMessage[];
  readonly ephemerals: FakeSlackEphemeral[];
  readonly files: FakeSlackFile[];
  /** Files people share (served at `/files-pri/…` to the bot token only), and their downloads. */
  readonly shared: FakeSharedFiles;
  readonly views: FakeSlackViewRecord[];
  readonly responses: FakeSlackResponse[];
  /**
   * The ephemerals response URLs left on screen: each post adds one, `replace_original: true`
   * replaces the URL's last one, `delete_original: true` removes it (as Slack does for the
   * ephemeral answers of a slash command).
   */
  shownResponses(): FakeSlackResponse[];
  /**
   * The answers sent to response URLs: every response but the `delete_original` ones, which take
   * an answer away (the ask's "Working…" once its root exists) rather than answer.
   */
  answers(): FakeSlackResponse[];
  responseUrl(id: string): string;
  /** The DM channel `conversations.open` returns for a user (stable: `D` + user id without its first letter). */
  dmChannel(userId: string): string;
  /** Overrides fields of a user returned by `users.info` (tz, is_admin, `locale` such as "en-US", …). */
  setUser(userId: string, fields: Record<string, unknown>): void;
  /** Every chat.* / files / conversations call on this channel answers `error` until cleared (undefined). */
  setChannelError(channel: string, error: string | undefined): void;
  /**
   * Describes a channel for `conversations.info`, `conversations.join` and `conversations.members`
   * (fields merge with what was set before). A channel never described is public, the bot a member.
   */
  setChannel(channel: string, fields: Partial<FakeSlackChannel>): void;
  /**
   * Stores a message written by someone else than the bot (served by `conversations.replies` and
   * `conversations.history`; no event is sent: send one with the bot's `event` when it matters).
   */
  say(message: FakeSlackSaid): FakeSlackMessage;
  /** Streams started with chat.startStream, in order, with every call made on each. */
  readonly streams: FakeSlackStream[];
  /**
   * Refuses chat.startStream with `error` (e.g. "not_allowed", "feature_not_enabled",
   * "missing_scope"); undefined allows streaming again. Rate-limit a stream method with
   * `failNext("chat.appendStream", { status: 429, retryAfter })`.
   */
  refuseStreaming(error: string | undefined): void;
  /** Every open stream stops accepting appends (as after a long gap): appends and stops answer `message_not_in_streaming_state`. */
  expireStreams(): void;
  /** Injects `failure` on the next `times` calls to `method` ("*" = any API method, "response_url" = response URLs, "upload" = upload URL). */
  failNext(method: string, failure: FakeSlackFailure, times?: number): void;
  /** While on, every API method (and upload) answers HTTP `status` (429 gets `Retry-After: 1`). */
  outage(on: boolean, status?: number): void;
  /**
   * Resolves with the predicate's first truthy result, evaluated over `calls` now and after each
   * recorded call, response or ack; rejects after `timeoutMs` (default 5000).
   */
  waitFor<T>(
    predicate: (calls: readonly FakeSlackCall[]) => T | undefined | null | false,
    timeoutMs?: number,
  ): Promise<T>;
  /** Resolves with the first call to `method` (at index >= `fromIndex` of `calls`) matching `match`. */
  waitForCall(
    method: string,
    match?: (call: FakeSlackCall) => boolean,
    timeoutMs?: number,
    fromIndex?: number,
  ): Promise<FakeSlackCall>;
  readonly socket: FakeSlackSocket;
  /** Closes sockets, WebSocket server and http server; idempotent. */
  close(): Promise<void>;
}

/** Fields that Slack decodes from JSON when sent form-encoded (WebClient JSON-encodes nested values). */
const JSON_FIELDS = new Set([
  "blocks",
  "chunks",
  "attachments",
  "metadata",
  "view",
  "files",
  "user_auth_blocks",
  "unfurls",
]);

interface ApiResult {
  body: Record<string, unknown>;
}

type Handler = (args: Record<string, unknown>, token: string | undefined) => ApiResult | Promise<ApiResult>;

interface FailureSlot {
  failure: FakeSlackFailure;
  remaining: number;
}

interface LooseFailure {
  status?: number;
  retryAfter?: number;
  error?: string;
  dropResponse?: boolean;
  delayMs?: number;
}

interface PendingAck {
  resolve: (ack: FakeSlackAck) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

const ok = (body: Record<string, unknown> = {}): ApiResult => ({ body: { ok: true, ...body } });
const fail = (error: string, messages?: string[]): ApiResult => ({
  body: messages ? { ok: false, error, response_metadata: { messages } } : { ok: false, error },
});

function str(v: unknown): string | undefined {
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return undefined;
}

function bool(v: unknown): boolean {
  return v === true || v === "true" || v === "1" || v === 1;
}

function int(v: unknown, dflt: number): number {
  const n =
    typeof v === "number" ? v : typeof v === "string" && v !== "" ? Number.parseInt(v, 10) : Number.NaN;
  return Number.isFinite(n) ? n : dflt;
}

/** Compares Slack ts strings ("seconds.micros") exactly (parseFloat loses the last digits). */
export function compareTs(a: string, b: string): number {
  const [as = "0", af = ""] = a.split(".");
  const [bs = "0", bf = ""] = b.split(".");
  const ds = BigInt(as) - BigInt(bs);
  if (ds !== 0n) return ds < 0n ? -1 : 1;
  const fa = af.padEnd(6, "0");
  const fb = bf.padEnd(6, "0");
  return fa < fb ? -1 : fa > fb ? 1 : 0;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function textOf(obj: unknown): string | undefined {
  return isRecord(obj) && typeof obj.text === "string" ? obj.text : undefined;
}

/** Best-effort Block Kit validation with Slack's documented limits; returns error lines. */
function validateBlocks(blocks: unknown, maxBlocks: number, where: string): string[] {
  const errors: string[] = [];
  if (!Array.isArray(blocks)) return [`[ERROR] must be an array [json-pointer:${where}]`];
  if (blocks.length > maxBlocks)
    errors.push(`[ERROR] no more than ${maxBlocks} items allowed [json-pointer:${where}]`);
  const limit = (value: string | undefined, max: number, ptr: string, min = 0): void => {
    if (value === undefined) return;
    if (value.length > max)
      errors.push(`[ERROR] must be less than ${max + 1} characters [json-pointer:${ptr}]`);
    if (value.length < min)
      errors.push(`[ERROR] must be more than ${min - 1} characters [json-pointer:${ptr}]`);
  };
  const element = (el: unknown, ptr: string): void => {
    if (!isRecord(el) || typeof el.type !== "string") {
      errors.push(`[ERROR] missing required field: type [json-pointer:${ptr}]`);
      return;
    }
    limit(str(el.action_id), 255, `${ptr}/action_id`);
    if (el.type === "button") {
      const t = textOf(el.text);
      if (t === undefined) errors.push(`[ERROR] missing required field: text [json-pointer:${ptr}/text]`);
      limit(t, 75, `${ptr}/text/text`, 1);
      limit(str(el.value), 2000, `${ptr}/value`);
      limit(str(el.url), 3000, `${ptr}/url`);
    }
  };
  blocks.forEach((block, i) => {
    const ptr = `${where}/${i}`;
    if (!isRecord(block) || typeof block.type !== "string") {
      errors.push(`[ERROR] missing required field: type [json-pointer:${ptr}]`);
      return;
    }
    limit(str(block.block_id), 255, `${ptr}/block_id`);
    switch (block.type) {
      case "section": {
        const t = textOf(block.text);
        if (t === undefined && !Array.isArray(block.fields)) {
          errors.push(`[ERROR] must provide either text or fields [json-pointer:${ptr}]`);
        }
        limit(t, 3000, `${ptr}/text/text`, 1);
        if (Array.isArray(block.fields)) {
          if (block.fields.length > 10)
            errors.push(`[ERROR] no more than 10 items allowed [json-pointer:${ptr}/fields]`);
          block.fields.forEach((f, j) => limit(textOf(f), 2000, `${ptr}/fields/${j}/text`, 1));
        }
        if (block.accessory !== undefined) element(block.accessory, `${ptr}/accessory`);
        break;
      }
      case "header": {
        const t = textOf(block.text);
        if (t === undefined) errors.push(`[ERROR] missing required field: text [json-pointer:${ptr}/text]`);
        if (isRecord(block.text) && block.text.type !== "plain_text") {
          errors.push(`[ERROR] must be plain_text [json-pointer:${ptr}/text/type]`);
        }
        limit(t, 150, `${ptr}/text/text`, 1);
        break;
      }
      case "actions": {
        if (!Array.isArray(block.elements) || block.elements.length === 0) {
          errors.push(`[ERROR] must provide at least 1 element [json-pointer:${ptr}/elements]`);
          break;
        }
        if (block.elements.length > 25)
          errors.push(`[ERROR] no more than 25 items allowed [json-pointer:${ptr}/elements]`);
        block.elements.forEach((el, j) => element(el, `${ptr}/elements/${j}`));
        break;
      }
      case "context": {
        if (!Array.isArray(block.elements) || block.elements.length === 0) {
          errors.push(`[ERROR] must provide at least 1 element [json-pointer:${ptr}/elements]`);
        } else if (block.elements.length > 10) {
          errors.push(`[ERROR] no more than 10 items allowed [json-pointer:${ptr}/elements]`);
        }
        break;
      }
      case "input": {
        limit(textOf(block.label), 2000, `${ptr}/label/text`, 1);
        if (block.element === undefined)
          errors.push(`[ERROR] missing required field: element [json-pointer:${ptr}/element]`);
        else element(block.element, `${ptr}/element`);
        break;
      }
      case "markdown": {
        limit(str(block.text), 12000, `${ptr}/text`, 1);
        break;
      }
      default:
        break;
    }
  });
  return errors;
}

function validateView(view: unknown): string[] {
  if (!isRecord(view)) return ["[ERROR] missing required field: view"];
  const errors: string[] = [];
  if (view.type !== "modal" && view.type !== "home")
    errors.push("[ERROR] type must be modal or home [json-pointer:/view/type]");
  if (!Array.isArray(view.blocks))
    errors.push("[ERROR] missing required field: blocks [json-pointer:/view/blocks]");
  else errors.push(...validateBlocks(view.blocks, 100, "/view/blocks"));
  if (view.type === "modal") {
    const title = textOf(view.title);
    if (title === undefined) errors.push("[ERROR] missing required field: title [json-pointer:/view/title]");
    else if (title.length > 24 || title.length === 0)
      errors.push("[ERROR] must be less than 25 characters [json-pointer:/view/title/text]");
    for (const key of ["submit", "close"] as const) {
      const t = textOf(view[key]);
      if (t !== undefined && t.length > 24)
        errors.push(`[ERROR] must be less than 25 characters [json-pointer:/view/${key}/text]`);
    }
    const hasInput = Array.isArray(view.blocks) && view.blocks.some((b) => isRecord(b) && b.type === "input");
    if (hasInput && view.submit === undefined) {
      errors.push("[ERROR] submit is required when an input block is present [json-pointer:/view/submit]");
    }
  }
  const pm = str(view.private_metadata);
  if (pm !== undefined && pm.length > 3000)
    errors.push("[ERROR] must be less than 3001 characters [json-pointer:/view/private_metadata]");
  const cb = str(view.callback_id);
  if (cb !== undefined && cb.length > 255)
    errors.push("[ERROR] must be less than 256 characters [json-pointer:/view/callback_id]");
  return errors;
}

async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Multipart parsing by the platform's fetch implementation (what WebClient sends for Buffers). */
function parseMultipart(raw: Buffer, contentType: string): Promise<FormData> {
  return new Response(new Uint8Array(raw), { headers: { "content-type": contentType } }).formData();
}

function decodeJsonFields(args: Record<string, unknown>): void {
  for (const key of Object.keys(args)) {
    const v = args[key];
    if (JSON_FIELDS.has(key) && typeof v === "string") {
      try {
        args[key] = JSON.parse(v);
      } catch {
        // leave as is: the handler answers like Slack would to malformed JSON
      }
    }
  }
}

async function parseArgs(req: http.IncomingMessage, raw: Buffer, url: URL): Promise<Record<string, unknown>> {
  const args: Record<string, unknown> = {};
  for (const [k, v] of url.searchParams) args[k] = v;
  const ct = (req.headers["content-type"] ?? "").toLowerCase();
  if (raw.length > 0) {
    if (ct.startsWith("application/json")) {
      const parsed: unknown = JSON.parse(raw.toString("utf8"));
      if (isRecord(parsed)) Object.assign(args, parsed);
    } else if (ct.startsWith("multipart/form-data")) {
      const form = await parseMultipart(raw, ct);
      for (const [k, v] of form.entries()) {
        args[k] = typeof v === "string" ? v : Buffer.from(await v.arrayBuffer());
      }
    } else {
      const parsed = querystring.parse(raw.toString("utf8"));
      for (const [k, v] of Object.entries(parsed)) args[k] = Array.isArray(v) ? v.join(",") : v;
    }
  }
  decodeJsonFields(args);
  return args;
}

class FakeSlackServer implements FakeSlack {
  readonly botUserId: string;
  readonly botId: string;
  readonly teamId: string;
  readonly teamName: string;
  readonly appId: string;
  readonly calls: FakeSlackCall[] = [];
  readonly arrivals: string[] = [];
  readonly ephemerals: FakeSlackEphemeral[] = [];
  readonly files: FakeSlackFile[] = [];
  readonly shared: FakeSharedFiles;
  readonly views: FakeSlackViewRecord[] = [];
  readonly responses: FakeSlackResponse[] = [];
  readonly streams: FakeSlackStream[] = [];
  readonly socket: FakeSlackSocket;
  private streamingRefusal: string | undefined;

  private readonly server: http.Server;
  private readonly wss: WebSocketServer;
  private readonly wsClients = new Set<WebSocket>();
  private wsAccepted = 0;
  private readonly acks: FakeSlackAck[] = [];
  private readonly wsReceived: unknown[] = [];
  private readonly pendingAcks = new Map<string, PendingAck>();
  private readonly store: Array<FakeSlackMessage & { deleted: boolean }> = [];
  private readonly failures = new Map<string, FailureSlot[]>();
  private readonly channelErrors = new Map<string, string>();
  private readonly channels = new Map<string, FakeSlackChannel>();
  private readonly users = new Map<string, Record<string, unknown>>();
  private readonly currentViews = new Map<
    string,
    { view: Record<string, unknown>; hash: string; user_id?: string }
  >();
  private readonly homeViewIds = new Map<string, string>();
  private readonly waiters = new Set<{ check: () => void; cancel: (err: Error) => void }>();
  private readonly abort = new AbortController();
  private outageStatus: number | undefined;
  private readonly scopes: string[];
  private tsCounter = 0;
  private readonly tsStart: bigint;
  private idCounter = 0;
  private closing: Promise<void> | undefined;
  private readonly handlers: Record<string, Handler>;
  port = 0;

  constructor(opts: FakeSlackOptions) {
    this.botUserId = opts.botUserId ?? "UBOT0001";
    this.botId = opts.botId ?? "BBOT0001";
    this.teamId = opts.teamId ?? "T0001";
    this.teamName = opts.teamName ?? "Fake Team";
    this.appId = opts.appId ?? "A1";
    this.scopes = opts.scopes ?? manifestBotScopes(path.resolve("manifest.yml"));
    this.shared = new FakeSharedFiles(() => this.baseUrl, opts.botToken ?? "xoxb-test");
    this.tsStart = BigInt(opts.tsStartSeconds ?? 1_700_000_000);
    this.streamingRefusal = opts.streaming ? undefined : "feature_not_enabled";
    this.server = http.createServer((req, res) => {
      this.route(req, res).catch((err: unknown) => {
        if (!res.headersSent && !res.destroyed) {
          res.writeHead(500, { "content-type": "text/plain" });
          res.end(`fake slack: ${err instanceof Error ? err.message : String(err)}`);
        }
      });
    });
    this.server.keepAliveTimeout = 1000;
    this.wss = new WebSocketServer({ noServer: true });
    this.server.on("upgrade", (req, sock: Socket, head) => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      if (url.pathname !== "/socket" || this.closing) {
        sock.destroy();
        return;
      }
      this.wss.handleUpgrade(req, sock, head, (ws) => this.onWsConnection(ws));
    });
    this.handlers = this.buildHandlers();
    this.socket = {
      send: (type, payload, o) => this.socketSend(type, payload, o ?? {}),
      connected: () => this.openClients().length > 0,
      connectionCount: () => this.openClients().length,
      connectionsAccepted: () => this.wsAccepted,
      waitForConnection: (timeoutMs = 5000) =>
        this.waitFor(() => this.openClients().length > 0 || undefined, timeoutMs).then(() => undefined),
      disconnect: (reason = "refresh_requested") => {
        for (const ws of this.openClients()) {
          ws.send(JSON.stringify({ type: "disconnect", reason, debug_info: { host: "applink-fake" } }));
        }
      },
      dropConnections: () => {
        for (const ws of this.wsClients) ws.terminate();
      },
      acks: this.acks,
      received: this.wsReceived,
    };
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get apiUrl(): string {
    return `${this.baseUrl}/api/`;
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(0, "127.0.0.1", () => {
        this.server.off("error", reject);
        resolve();
      });
    });
    this.port = (this.server.address() as AddressInfo).port;
  }

  // ---------------------------------------------------------------- public API

  callsTo(method: string): FakeSlackCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  messages(channel?: string): FakeSlackMessage[] {
    return this.store
      .filter((m) => !m.deleted && (channel === undefined || m.channel === channel))
      .map((m) => this.publicMessage(m));
  }

  thread(channel: string, threadTs: string): FakeSlackMessage[] {
    return this.store
      .filter((m) => !m.deleted && m.channel === channel && (m.ts === threadTs || m.thread_ts === threadTs))
      .sort((a, b) => compareTs(a.ts, b.ts))
      .map((m) => this.publicMessage(m));
  }

  refuseStreaming(error: string | undefined): void {
    this.streamingRefusal = error;
  }

  expireStreams(): void {
    for (const st of this.streams) if (st.state === "open") st.state = "expired";
  }

  answers(): FakeSlackResponse[] {
    return this.responses.filter((r) => {
      const body = isRecord(r.body) ? r.body : {};
      return body.delete_original !== true && body.delete_original !== "true";
    });
  }

  shownResponses(): FakeSlackResponse[] {
    const shown: FakeSlackResponse[] = [];
    for (const r of this.responses) {
      const body = isRecord(r.body) ? r.body : {};
      const last = shown.map((x) => x.id).lastIndexOf(r.id);
      if (body.delete_original === true || body.delete_original === "true") {
        if (last >= 0) shown.splice(last, 1);
      } else if ((body.replace_original === true || body.replace_original === "true") && last >= 0) {
        shown[last] = r;
      } else shown.push(r);
    }
    return shown;
  }

  responseUrl(id: string): string {
    return `${this.baseUrl}/response/${encodeURIComponent(id)}`;
  }

  dmChannel(userId: string): string {
    return `D${userId.replace(/^[UW]/, "")}`;
  }

  setUser(userId: string, fields: Record<string, unknown>): void {
    this.users.set(userId, { ...(this.users.get(userId) ?? {}), ...fields });
  }

  setChannelError(channel: string, error: string | undefined): void {
    if (error === undefined) this.channelErrors.delete(channel);
    else this.channelErrors.set(channel, error);
  }

  setChannel(channel: string, fields: Partial<FakeSlackChannel>): void {
    this.channels.set(channel, { ...this.channelOf(channel), ...fields });
  }

  say(m: FakeSlackSaid): FakeSlackMessage {
    const msg: FakeSlackMessage & { deleted: boolean } = {
      channel: m.channel,
      ts: m.ts ?? this.nextTs(),
      thread_ts: m.thread_ts,
      text: m.text,
      blocks: undefined,
      attachments: undefined,
      metadata: undefined,
      user: m.user,
      bot_id: m.botId as string,
      username: m.username,
      updates: 0,
      edited: undefined,
      files: m.files as FakeSlackMessage["files"],
      reply_broadcast: false,
      deleted: false,
    };
    this.store.push(msg);
    this.notify();
    return msg;
  }

  private channelOf(channel: string): FakeSlackChannel {
    return this.channels.get(channel) ?? { isPrivate: false, botIsMember: true, members: [] };
  }

  failNext(method: string, failure: FakeSlackFailure, times = 1): void {
    const list = this.failures.get(method) ?? [];
    list.push({ failure, remaining: times });
    this.failures.set(method, list);
  }

  outage(on: boolean, status = 500): void {
    this.outageStatus = on ? status : undefined;
  }

  waitFor<T>(
    predicate: (calls: readonly FakeSlackCall[]) => T | undefined | null | false,
    timeoutMs = 5000,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const check = (): boolean => {
        let value: T | undefined | null | false;
        try {
          value = predicate(this.calls);
        } catch (err) {
          cleanup();
          reject(err instanceof Error ? err : new Error(String(err)));
          return true;
        }
        if (value) {
          cleanup();
          resolve(value);
          return true;
        }
        return false;
      };
      const timer = setTimeout(() => {
        cleanup();
        const recent = this.calls
          .slice(-10)
          .map((c) => `${c.method}${c.ok === false ? `(${c.error ?? c.status})` : ""}`)
          .join(", ");
        reject(new Error(`fakeSlack.waitFor timed out after ${timeoutMs} ms; last calls: [${recent}]`));
      }, timeoutMs);
      const waiter = {
        check: (): void => {
          check();
        },
        cancel: (err: Error): void => {
          cleanup();
          reject(err);
        },
      };
      const cleanup = (): void => {
        clearTimeout(timer);
        this.waiters.delete(waiter);
      };
      if (this.closing) {
        cleanup();
        reject(new Error("fakeSlack is closed"));
        return;
      }
      if (!check()) this.waiters.add(waiter);
    });
  }

  waitForCall(
    method: string,
    match?: (call: FakeSlackCall) => boolean,
    timeoutMs = 5000,
    fromIndex = 0,
  ): Promise<FakeSlackCall> {
    return this.waitFor(
      (calls) => calls.slice(fromIndex).find((c) => c.method === method && (match === undefined || match(c))),
      timeoutMs,
    );
  }

  close(): Promise<void> {
    if (this.closing) return this.closing;
    this.closing = (async () => {
      this.abort.abort();
      for (const w of [...this.waiters]) w.cancel(new Error("fakeSlack closed while waiting"));
      this.waiters.clear();
      for (const [id, pending] of this.pendingAcks) {
        clearTimeout(pending.timer);
        pending.reject(new Error(`fakeSlack closed before ack of envelope ${id}`));
      }
      this.pendingAcks.clear();
      // Close WebSockets with a handshake first (a client that is disconnecting gets its close frame
      // answered instead of an abnormal 1006 it would log as an error), then terminate stragglers.
      const open = [...this.wsClients];
      for (const ws of open) if (ws.readyState === WebSocket.OPEN) ws.close(1001, "fake slack closing");
      let graceTimer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(
          open.map((ws) =>
            ws.readyState === WebSocket.CLOSED
              ? undefined
              : new Promise<void>((r) => ws.once("close", () => r())),
          ),
        ),
        new Promise<void>((r) => {
          graceTimer = setTimeout(r, 500);
        }),
      ]);
      clearTimeout(graceTimer);
      for (const ws of this.wsClients) ws.terminate();
      await new Promise<void>((resolve) => this.wss.close(() => resolve()));
      this.server.closeAllConnections();
      await new Promise<void>((resolve) => this.server.close(() => resolve()));
    })();
    return this.closing;
  }

  // ---------------------------------------------------------------- internals

  private notify(): void {
    for (const w of [...this.waiters]) w.check();
  }

  private nextTs(): string {
    this.tsCounter += 1;
    const micros = BigInt(this.tsCounter) * 100n;
    const secs = this.tsStart + micros / 1_000_000n;
    const frac = (micros % 1_000_000n).toString().padStart(6, "0");
    return `${secs}.${frac}`;
  }

  private nextId(prefix: string): string {
    this.idCounter += 1;
    return `${prefix}${String(this.idCounter).padStart(8, "0")}`;
  }

  private publicMessage(m: FakeSlackMessage & { deleted: boolean }): FakeSlackMessage {
    const { deleted: _deleted, ...rest } = m;
    return { ...rest };
  }

  private takeFailure(method: string): FakeSlackFailure | undefined {
    const keys = method === "upload" || method === "response_url" ? [method] : [method, "*"];
    for (const key of keys) {
      const list = this.failures.get(key);
      const slot = list?.[0];
      if (list && slot) {
        slot.remaining -= 1;
        if (slot.remaining <= 0) list.shift();
        return slot.failure;
      }
    }
    return undefined;
  }

  private record(call: Omit<FakeSlackCall, "at"> & { at: number }): void {
    this.calls.push(call);
    this.notify();
  }

  private async route(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const at = Date.now();
    const raw = await readBody(req);
    if (url.pathname.startsWith("/api/")) {
      await this.handleApi(decodeURIComponent(url.pathname.slice("/api/".length)), req, res, raw, url, at);
    } else if (url.pathname.startsWith("/files-pri/") && req.method === "GET") {
      await this.shared.serve(url.pathname.slice("/files-pri/".length), req, res);
    } else if (url.pathname.startsWith("/upload/") && req.method === "POST") {
      await this.handleUpload(decodeURIComponent(url.pathname.slice("/upload/".length)), req, res, raw, at);
    } else if (url.pathname.startsWith("/response/") && req.method === "POST") {
      await this.handleResponseUrl(
        decodeURIComponent(url.pathname.slice("/response/".length)),
        req,
        res,
        raw,
        at,
      );
    } else {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found");
    }
  }

  /**
   * Applies an injected failure or outage. Returns "answered" when the response was written,
   * "drop" when the call must be performed and then the socket destroyed, "go" otherwise.
   */
  private async applyFailure(
    key: string,
    res: http.ServerResponse,
    base: { method: string; args: Record<string, unknown>; token: string | undefined; at: number },
  ): Promise<"answered" | "drop" | "go" | "closed"> {
    if (this.outageStatus !== undefined && key !== "response_url") {
      this.writeInjected(res, { status: this.outageStatus, retryAfter: 1 }, base);
      return "answered";
    }
    const failure = this.takeFailure(key);
    if (failure === undefined) return "go";
    const f = failure as LooseFailure;
    if (f.delayMs !== undefined && f.delayMs > 0) {
      try {
        await sleep(f.delayMs, undefined, { signal: this.abort.signal });
      } catch {
        res.destroy();
        return "closed";
      }
    }
    if (f.dropResponse) return "drop";
    if (f.status === undefined && f.error === undefined) return "go";
    this.writeInjected(res, f, base);
    return "answered";
  }

  private writeInjected(
    res: http.ServerResponse,
    f: LooseFailure,
    base: { method: string; args: Record<string, unknown>; token: string | undefined; at: number },
  ): void {
    const status = f.status ?? 200;
    if (status === 429) {
      const body = { ok: false, error: "ratelimited" };
      res.writeHead(429, {
        "content-type": "application/json; charset=utf-8",
        "retry-after": String(f.retryAfter ?? 1),
      });
      res.end(JSON.stringify(body));
      this.record({ ...base, status, ok: false, error: "ratelimited", dropped: false, injected: true });
    } else if (status !== 200) {
      res.writeHead(status, { "content-type": "text/plain; charset=utf-8" });
      res.end(`fake slack: injected HTTP ${status}`);
      this.record({ ...base, status, ok: undefined, error: undefined, dropped: false, injected: true });
    } else {
      const error = f.error ?? "fatal_error";
      res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
      res.end(JSON.stringify({ ok: false, error }));
      this.record({ ...base, status, ok: false, error, dropped: false, injected: true });
    }
  }

  private async handleApi(
    method: string,
    req: http.IncomingMessage,
    res: http.ServerResponse,
    raw: Buffer,
    url: URL,
    at: number,
  ): Promise<void> {
    let args: Record<string, unknown>;
    try {
      args = await parseArgs(req, raw, url);
    } catch {
      res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
      res.end(JSON.stringify({ ok: false, error: "invalid_form_data" }));
      this.record({
        method,
        args: {},
        token: undefined,
        at,
        status: 200,
        ok: false,
        error: "invalid_form_data",
        dropped: false,
        injected: false,
      });
      return;
    }
    const auth = req.headers.authorization;
    let token = auth?.startsWith("Bearer ") ? auth.slice("Bearer ".length) : undefined;
    if (typeof args.token === "string") {
      token = token ?? args.token;
      delete args.token;
    }
    const base = { method, args, token, at };
    this.arrivals.push(method);
    const outcome = await this.applyFailure(method, res, base);
    if (outcome === "answered" || outcome === "closed") return;
    const result = await this.perform(method, args, token);
    const body = result.body;
    const call: FakeSlackCall = {
      ...base,
      status: 200,
      ok: body.ok === true,
      error: typeof body.error === "string" ? body.error : undefined,
      dropped: outcome === "drop",
      injected: outcome === "drop",
    };
    if (outcome === "drop") {
      this.record(call);
      req.socket.destroy();
      return;
    }
    res.writeHead(200, {
      "content-type": "application/json; charset=utf-8",
      ...(token?.startsWith("xoxb-") ? { "x-oauth-scopes": this.scopes.join(",") } : {}),
    });
    res.end(JSON.stringify(body));
    this.record(call);
  }

  private async perform(
    method: string,
    args: Record<string, unknown>,
    token: string | undefined,
  ): Promise<ApiResult> {
    const handler = this.handlers[method];
    if (!handler) return fail("unknown_method");
    if (!token) return fail("not_authed");
    if (method === "apps.connections.open") {
      if (!token.startsWith("xapp-")) return fail("not_allowed_token_type");
    } else if (token.startsWith("xapp-")) {
      return fail("not_allowed_token_type");
    }
    const channel = str(args.channel) ?? str(args.channel_id);
    if (channel !== undefined && /^(chat|conversations|files)\./.test(method)) {
      const err = this.channelErrors.get(channel);
      if (err !== undefined) return fail(err);
    }
    return handler(args, token);
  }

  private async handleUpload(
    fileId: string,
    req: http.IncomingMessage,
    res: http.ServerResponse,
    raw: Buffer,
    at: number,
  ): Promise<void> {
    const base = {
      method: "upload",
      args: { file_id: fileId, bytes: raw.length } as Record<string, unknown>,
      token: undefined,
      at,
    };
    const outcome = await this.applyFailure("upload", res, base);
    if (outcome === "answered" || outcome === "closed") return;
    const file = this.files.find((f) => f.id === fileId);
    if (!file) {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("file not found");
      this.record({ ...base, status: 404, ok: undefined, error: undefined, dropped: false, injected: false });
      return;
    }
    let content = raw;
    const ct = (req.headers["content-type"] ?? "").toLowerCase();
    if (ct.startsWith("multipart/form-data")) {
      const form = await parseMultipart(raw, ct);
      for (const [, v] of form.entries()) {
        if (typeof v !== "string") {
          content = Buffer.from(await v.arrayBuffer());
          break;
        }
        content = Buffer.from(v, "utf8");
      }
    }
    file.content = content;
    file.uploaded = true;
    base.args.bytes = content.length;
    if (outcome === "drop") {
      this.record({ ...base, status: 200, ok: undefined, error: undefined, dropped: true, injected: true });
      req.socket.destroy();
      return;
    }
    res.writeHead(200, { "content-type": "text/plain" });
    res.end(`OK - ${content.length}`);
    this.record({ ...base, status: 200, ok: undefined, error: undefined, dropped: false, injected: false });
  }

  private async handleResponseUrl(
    id: string,
    req: http.IncomingMessage,
    res: http.ServerResponse,
    raw: Buffer,
    at: number,
  ): Promise<void> {
    const ct = (req.headers["content-type"] ?? "").toLowerCase();
    let body: unknown;
    const text = raw.toString("utf8");
    try {
      if (ct.startsWith("application/x-www-form-urlencoded")) {
        const parsed = querystring.parse(text);
        body = typeof parsed.payload === "string" ? JSON.parse(parsed.payload) : { ...parsed };
      } else {
        body = JSON.parse(text);
      }
    } catch {
      body = { text };
    }
    const args = isRecord(body) ? body : { body };
    const base = { method: "response_url", args: { id, ...args }, token: undefined, at };
    const outcome = await this.applyFailure("response_url", res, base);
    if (outcome === "answered" || outcome === "closed") return;
    this.responses.push({ id, body, at });
    if (outcome === "drop") {
      this.record({ ...base, status: 200, ok: true, error: undefined, dropped: true, injected: true });
      req.socket.destroy();
      return;
    }
    res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
    res.end(JSON.stringify({ ok: true }));
    this.record({ ...base, status: 200, ok: true, error: undefined, dropped: false, injected: false });
  }

  // ---------------------------------------------------------------- Socket Mode

  private openClients(): WebSocket[] {
    return [...this.wsClients].filter((ws) => ws.readyState === WebSocket.OPEN);
  }

  private onWsConnection(ws: WebSocket): void {
    if (this.closing) {
      ws.terminate();
      return;
    }
    this.wsClients.add(ws);
    this.wsAccepted += 1;
    ws.on("close", () => {
      this.wsClients.delete(ws);
      this.notify();
    });
    ws.on("error", () => {
      // a reset by the client is expected when it disconnects abruptly
    });
    ws.on("message", (data, isBinary) => {
      if (isBinary) return;
      let msg: unknown;
      try {
        msg = JSON.parse(Buffer.isBuffer(data) ? data.toString("utf8") : String(data));
      } catch {
        this.wsReceived.push(String(data));
        this.notify();
        return;
      }
      if (isRecord(msg) && typeof msg.envelope_id === "string") {
        const ack: FakeSlackAck = { envelope_id: msg.envelope_id };
        if ("payload" in msg) ack.payload = msg.payload;
        this.acks.push(ack);
        const pending = this.pendingAcks.get(msg.envelope_id);
        if (pending) {
          clearTimeout(pending.timer);
          this.pendingAcks.delete(msg.envelope_id);
          pending.resolve(ack);
        }
      } else {
        this.wsReceived.push(msg);
      }
      this.notify();
    });
    ws.send(
      JSON.stringify({
        type: "hello",
        num_connections: this.openClients().length,
        debug_info: { host: "applink-fake-1", build_number: 1, approximate_connection_time: 18060 },
        connection_info: { app_id: this.appId },
      }),
    );
    this.notify();
  }

  private socketSend(
    type: SocketEnvelopeType,
    payload: unknown,
    o: {
      acceptsResponsePayload?: boolean;
      timeoutMs?: number;
      retryAttempt?: number;
      retryReason?: string;
      envelopeId?: string;
    },
  ): Promise<FakeSlackAck> {
    const clients = this.openClients();
    const ws = clients[clients.length - 1];
    if (!ws) return Promise.reject(new Error("fakeSlack.socket.send: no open Socket Mode connection"));
    const envelopeId = o.envelopeId ?? randomUUID();
    const envelope: Record<string, unknown> = {
      envelope_id: envelopeId,
      payload,
      type,
      accepts_response_payload: o.acceptsResponsePayload ?? type !== "events_api",
    };
    if (type === "events_api") {
      envelope.retry_attempt = o.retryAttempt ?? 0;
      envelope.retry_reason = o.retryReason ?? "";
    }
    const timeoutMs = o.timeoutMs ?? 5000;
    return new Promise<FakeSlackAck>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pendingAcks.delete(envelopeId);
        reject(
          new Error(
            `fakeSlack.socket.send: no ack for ${type} envelope ${envelopeId} within ${timeoutMs} ms`,
          ),
        );
      }, timeoutMs);
      this.pendingAcks.set(envelopeId, { resolve, reject, timer });
      ws.send(JSON.stringify(envelope), (err) => {
        if (err) {
          clearTimeout(timer);
          this.pendingAcks.delete(envelopeId);
          reject(err);
        }
      });
    });
  }

  // ---------------------------------------------------------------- Web API methods

  private renderMessage(m: FakeSlackMessage, includeMetadata: boolean): Record<string, unknown> {
    const out: Record<string, unknown> = {
      type: "message",
      user: m.user,
      bot_id: m.bot_id,
      ...(m.bot_id ? { app_id: this.appId } : {}),
      ...(m.username ? { username: m.username, subtype: "bot_message" } : {}),
      text: m.text,
      ts: m.ts,
      team: this.teamId,
    };
    if (m.thread_ts !== undefined) out.thread_ts = m.thread_ts;
    if (m.blocks !== undefined) out.blocks = m.blocks;
    if (m.attachments !== undefined) out.attachments = m.attachments;
    if (m.edited !== undefined) out.edited = m.edited;
    if (m.files !== undefined) out.files = m.files;
    if (m.reply_broadcast) out.subtype = "thread_broadcast";
    if (includeMetadata && m.metadata !== undefined) out.metadata = m.metadata;
    const replies = this.store.filter(
      (r) => !r.deleted && r.channel === m.channel && r.thread_ts === m.ts && r.ts !== m.ts,
    );
    if (replies.length > 0) {
      out.thread_ts = m.ts;
      out.reply_count = replies.length;
      out.reply_users = [this.botUserId];
      out.reply_users_count = 1;
      out.latest_reply = replies[replies.length - 1]?.ts;
    }
    return out;
  }

  /** An append or a stop: only an open stream takes it. */
  private onStream(
    method: "chat.appendStream" | "chat.stopStream",
    args: Record<string, unknown>,
  ): ApiResult {
    const channel = str(args.channel);
    const ts = str(args.ts);
    const stream = this.streams.find((st) => st.channel === channel && st.ts === ts);
    const msg = this.findMessage(channel, ts);
    if (!stream || !msg) return fail("message_not_found");
    if (stream.state !== "open") return fail("message_not_in_streaming_state");
    const chunks = streamChunks(args);
    if (method === "chat.appendStream" && !chunks.length) return fail("no_text");
    stream.calls.push({ method, chunks, at: Date.now() });
    msg.text += markdownOf(chunks);
    if (method === "chat.stopStream") stream.state = "stopped";
    return ok({ channel, ts });
  }

  private findMessage(
    channel: string | undefined,
    ts: string | undefined,
  ): (FakeSlackMessage & { deleted: boolean }) | undefined {
    if (channel === undefined || ts === undefined) return undefined;
    return this.store.find((m) => !m.deleted && m.channel === channel && m.ts === ts);
  }

  private resolveChannel(channel: string): string {
    return /^[UW][A-Z0-9]+$/.test(channel) ? this.dmChannel(channel) : channel;
  }

  private validateContent(args: Record<string, unknown>, requireContent: boolean): ApiResult | undefined {
    const text = str(args.text);
    if (args.blocks !== undefined) {
      if (!Array.isArray(args.blocks)) return fail("invalid_blocks_format");
      const errors = validateBlocks(args.blocks, 50, "/blocks");
      if (errors.length > 0) return fail("invalid_blocks", errors);
    }
    if (args.attachments !== undefined && !Array.isArray(args.attachments))
      return fail("invalid_attachments");
    if (
      requireContent &&
      (text === undefined || text === "") &&
      args.blocks === undefined &&
      args.attachments === undefined
    ) {
      return fail("no_text");
    }
    if (text !== undefined && text.length > 40_000) return fail("msg_too_long");
    if (args.metadata !== undefined) {
      const md = args.metadata;
      if (!isRecord(md) || typeof md.event_type !== "string" || !isRecord(md.event_payload)) {
        return fail("invalid_metadata_format");
      }
    }
    return undefined;
  }

  private buildHandlers(): Record<string, Handler> {
    return {
      "api.test": (args) => ok({ args }),

      "auth.test": () =>
        ok({
          url: "https://fake.slack.test/",
          team: this.teamName,
          user: "codexpi",
          team_id: this.teamId,
          user_id: this.botUserId,
          bot_id: this.botId,
          is_enterprise_install: false,
        }),

      "apps.connections.open": () =>
        ok({ url: `ws://127.0.0.1:${this.port}/socket?ticket=${randomUUID()}&app_id=${this.appId}` }),

      "chat.postMessage": (args) => {
        const rawChannel = str(args.channel);
        if (rawChannel === undefined || rawChannel === "") return fail("channel_not_found");
        const invalid = this.validateContent(args, true);
        if (invalid) return invalid;
        const channel = this.resolveChannel(rawChannel);
        const threadTs = str(args.thread_ts);
        const msg: FakeSlackMessage & { deleted: boolean } = {
          channel,
          ts: this.nextTs(),
          thread_ts: threadTs === "" ? undefined : threadTs,
          text: str(args.text) ?? "",
          blocks: args.blocks as unknown[] | undefined,
          attachments: args.attachments as unknown[] | undefined,
          metadata: args.metadata as FakeSlackMessage["metadata"],
          user: this.botUserId,
          bot_id: this.botId,
          updates: 0,
          edited: undefined,
          files: undefined,
          reply_broadcast: bool(args.reply_broadcast),
          deleted: false,
        };
        this.store.push(msg);
        return ok({ channel, ts: msg.ts, message: this.renderMessage(msg, true) });
      },

      "chat.startStream": (args) => {
        if (this.streamingRefusal) return fail(this.streamingRefusal);
        const rawChannel = str(args.channel);
        if (rawChannel === undefined || rawChannel === "") return fail("channel_not_found");
        const channel = this.resolveChannel(rawChannel);
        const user = str(args.recipient_user_id);
        const team = str(args.recipient_team_id);
        // Outside a DM, Slack needs to know whom the stream is for.
        if (!channel.startsWith("D") && (!user || !team)) return fail("missing_recipient_user_id");
        const chunks = streamChunks(args);
        if (!chunks.length) return fail("no_text");
        const threadTs = str(args.thread_ts);
        const msg: FakeSlackMessage & { deleted: boolean } = {
          channel,
          ts: this.nextTs(),
          thread_ts: threadTs === "" ? undefined : threadTs,
          text: markdownOf(chunks),
          blocks: undefined,
          attachments: undefined,
          metadata: undefined,
          user: this.botUserId,
          bot_id: this.botId,
          updates: 0,
          edited: undefined,
          files: undefined,
          reply_broadcast: false,
          deleted: false,
        };
        this.store.push(msg);
        this.streams.push({
          channel,
          ts: msg.ts,
          thread_ts: msg.thread_ts,
          recipient_user_id: user,
          recipient_team_id: team,
          state: "open",
          calls: [{ method: "chat.startStream", chunks, at: Date.now() }],
        });
        return ok({ channel, ts: msg.ts });
      },

      "chat.appendStream": (args) => this.onStream("chat.appendStream", args),
      "chat.stopStream": (args) => this.onStream("chat.stopStream", args),

      "chat.update": (args) => {
        const channel = str(args.channel);
        const ts = str(args.ts);
        if (channel === undefined) return fail("channel_not_found");
        const msg = this.findMessage(channel, ts);
        if (!msg) return fail("message_not_found");
        const invalid = this.validateContent(args, false);
        if (invalid) return invalid;
        if (args.text !== undefined) msg.text = str(args.text) ?? "";
        if (args.blocks !== undefined) msg.blocks = args.blocks as unknown[];
        if (args.attachments !== undefined) msg.attachments = args.attachments as unknown[];
        if (args.metadata !== undefined) msg.metadata = args.metadata as FakeSlackMessage["metadata"];
        msg.updates += 1;
        msg.edited = { user: this.botUserId, ts: this.nextTs() };
        return ok({ channel, ts: msg.ts, text: msg.text, message: this.renderMessage(msg, true) });
      },

      "chat.delete": (args) => {
        const channel = str(args.channel);
        const msg = this.findMessage(channel, str(args.ts));
        if (!msg) return fail("message_not_found");
        msg.deleted = true;
        return ok({ channel, ts: msg.ts });
      },

      "chat.postEphemeral": (args) => {
        const rawChannel = str(args.channel);
        if (rawChannel === undefined || rawChannel === "") return fail("channel_not_found");
        const user = str(args.user);
        if (user === undefined || user === "") return fail("user_not_in_channel");
        const invalid = this.validateContent(args, true);
        if (invalid) return invalid;
        const message_ts = this.nextTs();
        this.ephemerals.push({
          channel: this.resolveChannel(rawChannel),
          user,
          text: str(args.text) ?? "",
          blocks: args.blocks as unknown[] | undefined,
          thread_ts: str(args.thread_ts),
          message_ts,
        });
        return ok({ message_ts });
      },

      "chat.getPermalink": (args) => {
        const channel = str(args.channel);
        const msg = this.findMessage(channel, str(args.message_ts));
        if (!msg || channel === undefined) return fail("message_not_found");
        return ok({
          channel,
          permalink: `https://fake.slack.test/archives/${channel}/p${msg.ts.replace(".", "")}`,
        });
      },

      "conversations.open": (args) => {
        const users = (str(args.users) ?? "")
          .split(",")
          .map((u) => u.trim())
          .filter(Boolean);
        if (users.length === 0) {
          const channel = str(args.channel);
          if (channel) return ok({ channel: { id: channel } });
          return fail("users_list_not_supplied");
        }
        const id =
          users.length === 1 && users[0] !== undefined
            ? this.dmChannel(users[0])
            : `G${users
                .map((u) => u.slice(1))
                .sort()
                .join("")}`.slice(0, 21);
        return ok({ no_op: false, already_open: false, channel: { id } });
      },

      "conversations.info": (args) => {
        const channel = str(args.channel);
        if (!channel) return fail("channel_not_found");
        const isIm = channel.startsWith("D");
        const known = this.channelOf(channel);
        return ok({
          channel: {
            id: channel,
            name: isIm ? undefined : channel.toLowerCase(),
            is_channel: !isIm && !known.isPrivate,
            is_group: !isIm && known.isPrivate,
            is_private: !isIm && known.isPrivate,
            is_im: isIm,
            is_member: isIm || known.botIsMember,
            is_archived: false,
            ...(known.topic !== undefined ? { topic: { value: known.topic, creator: "", last_set: 0 } } : {}),
          },
        });
      },

      "conversations.join": (args) => {
        const channel = str(args.channel);
        if (!channel) return fail("channel_not_found");
        const known = this.channelOf(channel);
        if (known.joinError) return fail(known.joinError);
        if (channel.startsWith("D") || known.isPrivate) return fail("method_not_supported_for_channel_type");
        this.channels.set(channel, { ...known, botIsMember: true });
        return ok({ channel: { id: channel, is_channel: true, is_member: true } });
      },

      "conversations.members": (args) => {
        const channel = str(args.channel);
        if (!channel) return fail("channel_not_found");
        const known = this.channelOf(channel);
        if (known.isPrivate && !known.botIsMember) return fail("channel_not_found");
        const members = known.botIsMember ? [...known.members, this.botUserId] : known.members;
        return ok({ members, response_metadata: { next_cursor: "" } });
      },

      "conversations.history": (args) => {
        const channel = str(args.channel);
        if (!channel) return fail("channel_not_found");
        const includeMetadata = bool(args.include_all_metadata);
        const inclusive = bool(args.inclusive);
        const oldest = str(args.oldest);
        const latest = str(args.latest);
        let list = this.store.filter(
          (m) =>
            !m.deleted &&
            m.channel === channel &&
            (m.thread_ts === undefined || m.thread_ts === m.ts || m.reply_broadcast),
        );
        list = list.filter((m) => {
          if (oldest !== undefined && oldest !== "" && oldest !== "0") {
            const c = compareTs(m.ts, oldest);
            if (c < 0 || (c === 0 && !inclusive)) return false;
          }
          if (latest !== undefined && latest !== "") {
            const c = compareTs(m.ts, latest);
            if (c > 0 || (c === 0 && !inclusive)) return false;
          }
          return true;
        });
        list.sort((a, b) => compareTs(b.ts, a.ts));
        return this.page(list, args, 100, (m) => this.renderMessage(m, includeMetadata));
      },

      "conversations.replies": (args) => {
        const channel = str(args.channel);
        const ts = str(args.ts);
        if (!channel) return fail("channel_not_found");
        if (!ts) return fail("invalid_arguments");
        // Like Slack, a private channel's messages only for a member.
        const known = this.channelOf(channel);
        if (known.isPrivate && !known.botIsMember) return fail("channel_not_found");
        const parent = this.findMessage(channel, ts);
        if (!parent) return fail("thread_not_found");
        const includeMetadata = bool(args.include_all_metadata);
        if (parent.thread_ts !== undefined && parent.thread_ts !== parent.ts) {
          // ts of a reply: Slack returns just that message
          return ok({ messages: [this.renderMessage(parent, includeMetadata)], has_more: false });
        }
        const inclusive = bool(args.inclusive);
        const oldest = str(args.oldest);
        const latest = str(args.latest);
        const replies = this.store
          .filter((m) => !m.deleted && m.channel === channel && m.thread_ts === ts && m.ts !== ts)
          .filter((m) => {
            if (oldest !== undefined && oldest !== "" && oldest !== "0") {
              const c = compareTs(m.ts, oldest);
              if (c < 0 || (c === 0 && !inclusive)) return false;
            }
            if (latest !== undefined && latest !== "") {
              const c = compareTs(m.ts, latest);
              if (c > 0 || (c === 0 && !inclusive)) return false;
            }
            return true;
          })
          .sort((a, b) => compareTs(a.ts, b.ts));
        // Like Slack, the parent always comes first, whatever `oldest` says.
        return this.page([parent, ...replies], args, 1000, (m) => this.renderMessage(m, includeMetadata));
      },

      "users.info": (args) => {
        const user = str(args.user);
        if (!user || !/^[UW][A-Z0-9]+$/.test(user)) return fail("user_not_found");
        const base: Record<string, unknown> = {
          id: user,
          team_id: this.teamId,
          name: user.toLowerCase(),
          deleted: false,
          real_name: `User ${user}`,
          tz: "America/Los_Angeles",
          tz_label: "Pacific Standard Time",
          tz_offset: -28800,
          is_admin: false,
          is_owner: false,
          is_bot: user === this.botUserId,
          is_app_user: false,
          updated: 1_700_000_000,
          profile: { real_name: `User ${user}`, display_name: user.toLowerCase(), team: this.teamId },
        };
        // As in Slack, the locale only comes with include_locale; a user given none (setUser) has
        // none, and the bot falls back to CODEXPI_LOCALE.
        const { locale, ...fields } = (this.users.get(user) ?? {}) as { locale?: unknown };
        const withLocale = args.include_locale === true || args.include_locale === "true";
        return ok({ user: { ...base, ...fields, ...(withLocale && locale ? { locale } : {}) } });
      },

      "views.publish": (args) => {
        const user = str(args.user_id);
        if (!user) return fail("invalid_arguments", ["[ERROR] missing required field: user_id"]);
        const errors = validateView(args.view);
        if (errors.length > 0) return fail("invalid_arguments", errors);
        const view = args.view as Record<string, unknown>;
        if (view.type !== "home")
          return fail("invalid_arguments", ["[ERROR] views.publish only accepts home views"]);
        const id = this.homeViewIds.get(user) ?? this.nextId("V");
        this.homeViewIds.set(user, id);
        return this.storeView("views.publish", id, view, user, undefined, str(args.hash));
      },

      "views.open": (args) => {
        const trigger = str(args.trigger_id);
        if (!trigger) return fail("invalid_arguments", ["[ERROR] missing required field: trigger_id"]);
        const errors = validateView(args.view);
        if (errors.length > 0) return fail("invalid_arguments", errors);
        return this.storeView(
          "views.open",
          this.nextId("V"),
          args.view as Record<string, unknown>,
          undefined,
          trigger,
          undefined,
        );
      },

      "views.push": (args) => {
        const trigger = str(args.trigger_id);
        if (!trigger) return fail("invalid_arguments", ["[ERROR] missing required field: trigger_id"]);
        const errors = validateView(args.view);
        if (errors.length > 0) return fail("invalid_arguments", errors);
        return this.storeView(
          "views.push",
          this.nextId("V"),
          args.view as Record<string, unknown>,
          undefined,
          trigger,
          undefined,
        );
      },

      "views.update": (args) => {
        const errors = validateView(args.view);
        if (errors.length > 0) return fail("invalid_arguments", errors);
        const view = args.view as Record<string, unknown>;
        let id = str(args.view_id);
        const externalId = str(args.external_id);
        if (!id && externalId) {
          for (const [vid, v] of this.currentViews) if (v.view.external_id === externalId) id = vid;
        }
        if (!id) return fail("not_found");
        const current = this.currentViews.get(id);
        if (!current) return fail("not_found");
        return this.storeView("views.update", id, view, current.user_id, undefined, str(args.hash));
      },

      "files.getUploadURLExternal": (args) => {
        const filename = str(args.filename);
        const length = int(args.length, -1);
        if (!filename) return fail("invalid_arguments", ["[ERROR] missing required field: filename"]);
        if (length < 0) return fail("invalid_arguments", ["[ERROR] missing required field: length"]);
        const id = this.nextId("F");
        this.files.push({
          id,
          filename,
          title: undefined,
          length,
          content: Buffer.alloc(0),
          uploaded: false,
          completed: false,
          channel: undefined,
          thread_ts: undefined,
          initial_comment: undefined,
          alt_text: str(args.alt_text),
          snippet_type: str(args.snippet_type),
        });
        return ok({ upload_url: `${this.baseUrl}/upload/${id}`, file_id: id });
      },

      "files.completeUploadExternal": (args) => {
        const list = args.files;
        if (!Array.isArray(list) || list.length === 0)
          return fail("invalid_arguments", ["[ERROR] missing required field: files"]);
        const found: FakeSlackFile[] = [];
        for (const entry of list) {
          const id = isRecord(entry) ? str(entry.id) : undefined;
          const file = this.files.find((f) => f.id === id);
          if (!file?.uploaded) return fail("file_not_found");
          if (isRecord(entry) && typeof entry.title === "string") file.title = entry.title;
          found.push(file);
        }
        const channelArg = str(args.channel_id) ?? str(args.channels);
        const channel = channelArg ? this.resolveChannel(channelArg) : undefined;
        const threadTs = str(args.thread_ts);
        const comment = str(args.initial_comment);
        for (const file of found) {
          file.completed = true;
          file.channel = channel;
          file.thread_ts = threadTs;
          file.initial_comment = comment;
        }
        if (channel !== undefined) {
          this.store.push({
            channel,
            ts: this.nextTs(),
            thread_ts: threadTs,
            text: comment ?? "",
            blocks: Array.isArray(args.blocks) ? args.blocks : undefined,
            attachments: undefined,
            metadata: undefined,
            user: this.botUserId,
            bot_id: this.botId,
            updates: 0,
            edited: undefined,
            files: found.map((f) => ({ id: f.id, name: f.filename, title: f.title ?? f.filename })),
            reply_broadcast: false,
            deleted: false,
          });
        }
        return ok({
          files: found.map((f) => ({
            id: f.id,
            name: f.filename,
            title: f.title ?? f.filename,
            size: f.content.length,
            mimetype: "text/plain",
            permalink: `https://fake.slack.test/files/${this.botUserId}/${f.id}/${f.filename}`,
          })),
        });
      },
    };
  }

  private page(
    list: Array<FakeSlackMessage & { deleted: boolean }>,
    args: Record<string, unknown>,
    defaultLimit: number,
    render: (m: FakeSlackMessage) => Record<string, unknown>,
  ): ApiResult {
    const limit = Math.max(1, Math.min(int(args.limit, defaultLimit) || defaultLimit, 1000));
    const cursor = str(args.cursor);
    const offset = cursor?.startsWith("off:") ? int(cursor.slice(4), 0) : 0;
    const slice = list.slice(offset, offset + limit);
    const hasMore = offset + limit < list.length;
    return ok({
      messages: slice.map(render),
      has_more: hasMore,
      response_metadata: { next_cursor: hasMore ? `off:${offset + limit}` : "" },
    });
  }

  private storeView(
    method: FakeSlackViewRecord["method"],
    id: string,
    view: Record<string, unknown>,
    user: string | undefined,
    trigger: string | undefined,
    hash: string | undefined,
  ): ApiResult {
    const current = this.currentViews.get(id);
    if (hash !== undefined && hash !== "" && current && current.hash !== hash) return fail("hash_conflict");
    const newHash = `${Date.now()}.${randomUUID().slice(0, 8)}`;
    this.currentViews.set(id, { view, hash: newHash, user_id: user });
    this.views.push({ method, view_id: id, user_id: user, trigger_id: trigger, view, hash: newHash });
    return ok({
      view: {
        id,
        team_id: this.teamId,
        type: view.type,
        blocks: view.blocks,
        private_metadata: view.private_metadata ?? "",
        callback_id: view.callback_id ?? "",
        state: { values: {} },
        hash: newHash,
        title: view.title,
        close: view.close ?? null,
        submit: view.submit ?? null,
        clear_on_close: bool(view.clear_on_close),
        notify_on_close: bool(view.notify_on_close),
        previous_view_id: null,
        root_view_id: id,
        app_id: this.appId,
        external_id: view.external_id ?? "",
        app_installed_team_id: this.teamId,
        bot_id: this.botId,
      },
    });
  }
}

/** Starts a fake Slack on 127.0.0.1 (port 0). Always `await fake.close()` in afterEach. */
/** A stream call's chunks: `chunks` as sent, then a `markdown_text` argument as one more. */
function streamChunks(args: Record<string, unknown>): Array<Record<string, unknown>> {
  const chunks = Array.isArray(args.chunks) ? args.chunks.filter(isRecord) : [];
  const text = str(args.markdown_text);
  return text ? [...chunks, { type: "markdown_text", text }] : chunks;
}

const markdownOf = (chunks: Array<Record<string, unknown>>): string =>
  chunks
    .filter((c) => c.type === "markdown_text")
    .map((c) => str(c.text) ?? "")
    .join("");

export async function startFakeSlack(opts: FakeSlackOptions = {}): Promise<FakeSlack> {
  const fake = new FakeSlackServer(opts);
  await fake.listen();
  return fake;
}
