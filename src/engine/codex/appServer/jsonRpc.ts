import readline from "node:readline";
import type { Readable, Writable } from "node:stream";

/** An error answer of the other side (or ours to a request we do not serve). */
export class RpcError extends Error {
  override name = "RpcError";
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** JSON-RPC's "method not found": our answer to a server request codexpi does not serve. */
export const METHOD_NOT_FOUND = -32601;

/** Our code for "the other side is gone": every request still waiting is rejected with it. */
export const CONNECTION_CLOSED = -32000;

/** What the other side may send us unprompted. */
export interface RpcHandlers {
  onNotification(method: string, params: unknown): void;
  /** Answers a request of the other side: its result, or a thrown RpcError. */
  onRequest(method: string, params: unknown): Promise<unknown>;
}

/** One connection; `Requests` maps each method we call to its [params, result]. */
export interface RpcConnection<Requests extends { [M in keyof Requests]: [unknown, unknown] }> {
  request<M extends keyof Requests & string>(method: M, params: Requests[M][0]): Promise<Requests[M][1]>;
  notify(method: string, params?: unknown): void;
  /** Settles when the other side's output ends; every request still waiting is then rejected. */
  readonly closed: Promise<void>;
  /** Ends our output (the other side's stdin). */
  end(): void;
}

type Incoming = {
  id?: number | string | null;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code?: number; message?: string };
};

/**
 * JSON-RPC over a pair of streams as Codex's app-server speaks it: one JSON object per line,
 * `{id, method, params}` / `{id, result | error}` / `{method, params}`, no `jsonrpc` field.
 * A malformed line is ignored, as in the exec runner's JSONL: a stray log line is not fatal.
 */
export function rpcConnection<Requests extends { [M in keyof Requests]: [unknown, unknown] }>(
  input: Readable,
  output: Writable,
  handlers: RpcHandlers,
): RpcConnection<Requests> {
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let nextId = 1;
  let open = true;
  // A dead app-server must not crash the worker with EPIPE: its end is seen on `input`.
  output.on("error", () => undefined);
  const send = (message: object) => {
    if (open && output.writable) output.write(`${JSON.stringify(message)}\n`);
  };

  const answer = (id: number | string, method: string, params: unknown) => {
    handlers.onRequest(method, params).then(
      (result) => send({ id, result }),
      (err: unknown) =>
        send({
          id,
          error:
            err instanceof RpcError
              ? { code: err.code, message: err.message }
              : { code: -32603, message: "internal error" },
        }),
    );
  };

  const closed = (async () => {
    const lines = readline.createInterface({ input, crlfDelay: Infinity });
    for await (const line of lines) {
      const message = parse(line);
      if (!message) continue;
      if (typeof message.method === "string") {
        if (message.id === undefined || message.id === null)
          handlers.onNotification(message.method, message.params);
        else answer(message.id, message.method, message.params);
      } else if (typeof message.id === "number") {
        const w = waiting.get(message.id);
        waiting.delete(message.id);
        if (!w) continue;
        if (message.error)
          w.reject(new RpcError(message.error.code ?? -32603, message.error.message ?? "error"));
        else w.resolve(message.result);
      }
    }
  })().finally(() => {
    open = false;
    for (const w of waiting.values())
      w.reject(new RpcError(CONNECTION_CLOSED, "the app-server closed its output"));
    waiting.clear();
  });

  return {
    request(method, params) {
      if (!open) return Promise.reject(new RpcError(CONNECTION_CLOSED, "the app-server closed its output"));
      const id = nextId++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
        send({ id, method, params });
      });
    },
    notify(method, params) {
      send(params === undefined ? { method } : { method, params });
    },
    closed,
    end() {
      output.end();
    },
  };
}

function parse(line: string): Incoming | null {
  const trimmed = line.trim();
  if (!trimmed.startsWith("{")) return null;
  try {
    const value: unknown = JSON.parse(trimmed);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Incoming) : null;
  } catch {
    return null;
  }
}
