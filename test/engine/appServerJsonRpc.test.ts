import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { CONNECTION_CLOSED, RpcError, rpcConnection } from "../../src/engine/codex/appServer/jsonRpc.js";

type Requests = { "math/add": [{ a: number; b: number }, { sum: number }] };

/** A connection whose other side the test plays: `server.in` is what we wrote, `server.out` what we read. */
function pair(onRequest: (method: string, params: unknown) => Promise<unknown> = async () => null) {
  const toUs = new PassThrough();
  const fromUs = new PassThrough();
  const notifications: Array<[string, unknown]> = [];
  const written: unknown[] = [];
  let buffered = "";
  fromUs.on("data", (chunk: Buffer) => {
    buffered += chunk.toString("utf8");
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    for (const l of lines) written.push(JSON.parse(l));
  });
  const rpc = rpcConnection<Requests>(toUs, fromUs, {
    onNotification: (m, p) => notifications.push([m, p]),
    onRequest,
  });
  const say = (m: object | string) => toUs.write(`${typeof m === "string" ? m : JSON.stringify(m)}\n`);
  return { rpc, say, written, notifications, close: () => toUs.end() };
}

const tick = () => new Promise((r) => setTimeout(r, 10));

describe("JSON-RPC over stdio, as Codex's app-server speaks it", () => {
  it("a request is one line without a `jsonrpc` field; its answer, matched by id, settles it; stray lines are ignored", async () => {
    const { rpc, say, written, notifications } = pair();
    const answer = rpc.request("math/add", { a: 1, b: 2 });
    await tick();
    expect(written).toEqual([{ id: 1, method: "math/add", params: { a: 1, b: 2 } }]);
    say("2026-12-01T00:00:00Z WARN some log line");
    say("{not json");
    say({ method: "thing/happened", params: { n: 1 } });
    say({ id: 1, result: { sum: 3 } });
    expect(await answer).toEqual({ sum: 3 });
    expect(notifications).toEqual([["thing/happened", { n: 1 }]]);
  });

  it("an error answer rejects with its code; the end of the other side's output rejects what still waits", async () => {
    const { rpc, say, close } = pair();
    const failing = rpc.request("math/add", { a: 0, b: 0 });
    const waiting = rpc.request("math/add", { a: 1, b: 1 });
    await tick();
    say({ id: 1, error: { code: -32602, message: "bad params" } });
    await expect(failing).rejects.toMatchObject({ code: -32602, message: "bad params" });
    close();
    await expect(waiting).rejects.toMatchObject({ code: CONNECTION_CLOSED });
    await rpc.closed;
    await expect(rpc.request("math/add", { a: 2, b: 2 })).rejects.toBeInstanceOf(RpcError);
  });

  it("the other side's requests get our handler's result, or its RpcError, under their own id", async () => {
    const { say, written } = pair(async (method, params) => {
      if (method === "ask/ok") return { echo: params };
      throw new RpcError(-32601, "no such method");
    });
    say({ id: 7, method: "ask/ok", params: { x: 1 } });
    say({ id: "s-8", method: "ask/unknown", params: {} });
    await tick();
    expect(written).toEqual([
      { id: 7, result: { echo: { x: 1 } } },
      { id: "s-8", error: { code: -32601, message: "no such method" } },
    ]);
  });
});
