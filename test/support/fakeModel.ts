/**
 * A fake OpenAI Responses API on 127.0.0.1 for driving the real Codex binary in tests.
 *
 * Codex (0.171, custom provider with `wire_api = "responses"`) only calls
 * `POST {base_url}/responses` (streamed as server-sent events). Every other request is
 * recorded and answered with an empty JSON document (`/v1/models` gets `{"data":[],"models":[]}`).
 *
 * Each `POST /v1/responses` consumes one queued step (FIFO); with nothing queued the fake
 * answers with the default text "ok". A `shell` step answers with a function call to the shell
 * tool advertised in that request; Codex runs the command and posts a follow-up request with the
 * output, which consumes the next queued step.
 */
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import zlib from "node:zlib";

export type FakeStep =
  /** A normal assistant message. */
  | { kind: "text"; text: string; usage?: FakeUsage }
  /** `response.failed` with this message: Codex ends the turn with `turn.failed`. */
  | { kind: "fail"; message: string; code?: string }
  /**
   * A function call to the shell tool found in the request's `tools`; `command` is an argv.
   * `exec_command` (unified exec, the default for the bundled models) gets a POSIX-quoted
   * `cmd` string; the legacy `shell` tool gets the argv; `shell_command` a quoted string.
   */
  | {
      kind: "shell";
      command: string[];
      workdir?: string;
      /** Extra arguments merged into the call's JSON arguments (e.g. `{ sandbox_permissions: "require_escalated" }`). */
      extraArgs?: Record<string, unknown>;
      /** An assistant message in the same response, before the call: an interim message of the turn. */
      say?: string;
    }
  /** A call to any other tool by name (e.g. `update_plan`), with these JSON arguments. */
  | { kind: "call"; name: string; arguments: Record<string, unknown>; say?: string }
  /** A call to a freeform ("custom") tool such as `apply_patch`, whose input is raw text rather than JSON. */
  | { kind: "custom"; name: string; input: string; say?: string }
  /** Accept the request and never answer (no headers, no body); the socket stays open until close(). */
  | { kind: "hang" };

export interface FakeUsage {
  input_tokens: number;
  output_tokens: number;
}

/** Every HTTP request the fake received, in arrival order. */
export interface RecordedHttpRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON body, or the raw text if it was not JSON, or undefined if empty. */
  body: unknown;
  /** The step used to answer it (only for POST /v1/responses). */
  step?: FakeStep;
}

/** The parts of a Responses request body tests usually look at; everything else is kept too. */
export interface ResponsesRequestBody {
  model?: string;
  input?: unknown[];
  tools?: Array<{ type?: string; name?: string; [key: string]: unknown }>;
  [key: string]: unknown;
}

export interface FakeModel {
  /** Base URL ending in `/v1`, e.g. `http://127.0.0.1:41234/v1`: the provider's `base_url`. */
  readonly url: string;
  /** Parsed JSON bodies of every `POST /v1/responses`, in arrival order. */
  readonly requests: ResponsesRequestBody[];
  /** Every HTTP request (any method/path), in arrival order. */
  readonly log: RecordedHttpRequest[];
  /** Queue steps; each `POST /v1/responses` consumes one (FIFO). */
  enqueue(...steps: FakeStep[]): void;
  /** Number of steps still queued. */
  pending(): number;
  /** Resolve once at least `count` `/v1/responses` requests have arrived (rejects after `timeoutMs`). */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  /** Stop listening and destroy every open socket (including hung requests). Idempotent. */
  close(): Promise<void>;
  /**
   * While on, every new connection is cut at once (the model unreachable, its port kept); off,
   * it answers again (the model back).
   */
  refuseConnections(on: boolean): void;
}

export const DEFAULT_TEXT = "ok";
const MAX_BODY_BYTES = 32 * 1024 * 1024;
const SHELL_TOOL_NAMES = ["exec_command", "shell", "shell_command"] as const;

/** POSIX single-quote one argument (safe for `bash -c`). */
export function shellQuote(arg: string): string {
  if (arg !== "" && /^[A-Za-z0-9_/.,:=+@%-]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** All text found anywhere in a request body's `input` (messages, tool outputs…), for `toContain` checks. */
export function inputText(body: ResponsesRequestBody): string {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === "string") out.push(v);
    else if (Array.isArray(v)) for (const x of v) walk(x);
    else if (v && typeof v === "object") for (const x of Object.values(v)) walk(x);
  };
  walk(body.input ?? []);
  return out.join("\n");
}

/** The `function_call_output` items in a request body (Codex's answer to a `shell` step). */
export function functionCallOutputs(body: ResponsesRequestBody): Array<{ call_id: string; output: unknown }> {
  return (body.input ?? []).filter(
    (i): i is { type: string; call_id: string; output: unknown } =>
      typeof i === "object" && i !== null && (i as { type?: unknown }).type === "function_call_output",
  );
}

function decodeBody(raw: Buffer, encoding: string | undefined): Buffer {
  const enc = (encoding ?? "").toLowerCase().trim();
  if (enc === "" || enc === "identity") return raw;
  if (enc === "gzip") return zlib.gunzipSync(raw);
  if (enc === "deflate") return zlib.inflateSync(raw);
  if (enc === "br") return zlib.brotliDecompressSync(raw);
  const zstd = (zlib as unknown as { zstdDecompressSync?: (b: Buffer) => Buffer }).zstdDecompressSync;
  if (enc === "zstd" && zstd) return zstd(raw);
  throw new Error(`fakeModel: unsupported content-encoding ${enc}`);
}

function parseBody(buf: Buffer): unknown {
  if (buf.length === 0) return undefined;
  const text = buf.toString("utf8");
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Options of the fake model. */
export interface FakeModelOptions {
  /** Answers a request when no step is queued (e.g. an echo keyed by the prompt); default "ok". */
  respond?: (body: ResponsesRequestBody) => FakeStep | undefined;
}

export async function startFakeModel(options: FakeModelOptions = {}): Promise<FakeModel> {
  const queue: FakeStep[] = [];
  const requests: ResponsesRequestBody[] = [];
  const log: RecordedHttpRequest[] = [];
  const sockets = new Set<Socket>();
  const waiters = new Set<{ count: number; resolve: () => void }>();
  let seq = 0;
  let closed = false;
  let refusing = false;

  const notify = (): void => {
    for (const w of waiters) {
      if (requests.length >= w.count) {
        waiters.delete(w);
        w.resolve();
      }
    }
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on("end", () => {
      const path = (req.url ?? "/").split("?")[0] ?? "/";
      let body: unknown;
      try {
        body = parseBody(decodeBody(Buffer.concat(chunks), req.headers["content-encoding"]));
      } catch (err) {
        log.push({ method: req.method ?? "", path, headers: req.headers, body: undefined });
        res.writeHead(415, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: String(err) } }));
        return;
      }
      const entry: RecordedHttpRequest = { method: req.method ?? "", path, headers: req.headers, body };
      log.push(entry);

      if (req.method === "POST" && /\/v1\/responses\/?$/.test(path)) {
        const reqBody: ResponsesRequestBody =
          body && typeof body === "object" && !Array.isArray(body) ? (body as ResponsesRequestBody) : {};
        const step = queue.shift() ?? options.respond?.(reqBody) ?? { kind: "text", text: DEFAULT_TEXT };
        entry.step = step;
        requests.push(reqBody);
        notify();
        answerResponses(reqBody, step, res, ++seq);
        return;
      }
      if (req.method === "GET" && /\/v1\/models\/?$/.test(path)) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ object: "list", data: [], models: [] }));
        return;
      }
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: `fakeModel: no route for ${req.method} ${path}` } }));
    });
  });
  server.on("connection", (s: Socket) => {
    if (refusing) return void s.destroy();
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    log,
    enqueue: (...steps) => {
      queue.push(...steps);
    },
    pending: () => queue.length,
    waitForRequests: (count, timeoutMs = 15_000) =>
      new Promise<void>((resolve, reject) => {
        if (requests.length >= count) return resolve();
        const w = {
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(w);
          reject(new Error(`fakeModel: expected ${count} /v1/responses requests, got ${requests.length}`));
        }, timeoutMs);
        waiters.add(w);
      }),
    refuseConnections: (on) => {
      refusing = on;
      if (!on) return;
      for (const s of sockets) s.destroy();
      sockets.clear();
    },
    close: async () => {
      if (closed) return;
      closed = true;
      for (const s of sockets) s.destroy();
      sockets.clear();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function answerResponses(
  body: ResponsesRequestBody,
  step: FakeStep,
  res: http.ServerResponse,
  n: number,
): void {
  if (step.kind === "hang") return; // keep the socket; close() destroys it
  if (step.kind === "shell") {
    try {
      shellCallItem(body, step, n);
    } catch (err) {
      step = { kind: "fail", message: (err as Error).message };
    }
  }

  const responseId = `resp_fake_${n}`;
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  const send = (event: Record<string, unknown> & { type: string }): void => {
    res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
  };
  send({ type: "response.created", response: { id: responseId, status: "in_progress" } });

  if (step.kind === "fail") {
    send({
      type: "response.failed",
      response: {
        id: responseId,
        status: "failed",
        error: { code: step.code ?? "server_error", message: step.message },
      },
    });
    res.end();
    return;
  }

  let usage: FakeUsage = { input_tokens: 10, output_tokens: 5 };
  if (step.kind === "text") {
    const itemId = `msg_fake_${n}`;
    const done = {
      type: "message",
      id: itemId,
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: step.text, annotations: [] }],
    };
    send({
      type: "response.output_item.added",
      output_index: 0,
      item: { ...done, status: "in_progress", content: [] },
    });
    send({
      type: "response.output_text.delta",
      item_id: itemId,
      output_index: 0,
      content_index: 0,
      delta: step.text,
    });
    send({ type: "response.output_item.done", output_index: 0, item: done });
    usage = step.usage ?? usage;
  } else {
    // An interim message first, when asked: Codex shows it as an agent message and goes on.
    const said = step.say;
    if (said !== undefined) {
      const msg = {
        type: "message",
        id: `msg_fake_${n}`,
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: said, annotations: [] }],
      };
      send({
        type: "response.output_item.added",
        output_index: 0,
        item: { ...msg, status: "in_progress", content: [] },
      });
      send({ type: "response.output_item.done", output_index: 0, item: msg });
    }
    const index = said === undefined ? 0 : 1;
    const item =
      step.kind === "custom"
        ? {
            type: "custom_tool_call",
            id: `ctc_fake_${n}`,
            call_id: `call_fake_${n}`,
            name: step.name,
            input: step.input,
            status: "completed",
          }
        : step.kind === "call"
          ? {
              type: "function_call",
              id: `fc_fake_${n}`,
              call_id: `call_fake_${n}`,
              name: step.name,
              arguments: JSON.stringify(step.arguments),
              status: "completed",
            }
          : shellCallItem(body, step, n);
    send({
      type: "response.output_item.added",
      output_index: index,
      item: { ...item, status: "in_progress" },
    });
    send({ type: "response.output_item.done", output_index: index, item });
  }
  send({
    type: "response.completed",
    response: {
      id: responseId,
      status: "completed",
      usage: {
        input_tokens: usage.input_tokens,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: usage.output_tokens,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: usage.input_tokens + usage.output_tokens,
      },
    },
  });
  res.end();
}

function shellCallItem(
  body: ResponsesRequestBody,
  step: Extract<FakeStep, { kind: "shell" }>,
  n: number,
): Record<string, unknown> {
  const names = new Set(
    (body.tools ?? []).map((t) => t.name).filter((x): x is string => typeof x === "string"),
  );
  const tool = SHELL_TOOL_NAMES.find((t) => names.has(t));
  if (!tool) {
    throw new Error(`fakeModel: no shell tool in request tools: ${[...names].join(", ")}`);
  }
  const joined = step.command.map(shellQuote).join(" ");
  let args: Record<string, unknown>;
  if (tool === "exec_command") args = { cmd: joined, ...(step.workdir ? { workdir: step.workdir } : {}) };
  else if (tool === "shell")
    args = { command: step.command, ...(step.workdir ? { workdir: step.workdir } : {}) };
  else args = { command: joined, ...(step.workdir ? { workdir: step.workdir } : {}) };
  return {
    type: "function_call",
    id: `fc_fake_${n}`,
    call_id: `call_fake_${n}`,
    name: tool,
    arguments: JSON.stringify({ ...args, ...step.extraArgs }),
    status: "completed",
  };
}
