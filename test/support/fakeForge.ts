import http from "node:http";
import type { AddressInfo } from "node:net";

/** One request a fake forge received, as it came (headers lower-case, body parsed when JSON). */
export interface ForgeRequest {
  method: string;
  /** The raw path and query, percent-encoding kept (GitLab's `:id` is checked encoded). */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
  /** The answer's status. */
  status: number;
}

/** An answer of a route: status and JSON body (or `text`, plain, for logs), and extra headers (a redirect's `location`). */
export interface Answer {
  status: number;
  body: unknown;
  text?: string;
  headers?: Record<string, string>;
}

/** A small HTTP server on 127.0.0.1 that records every request and answers through `route`. */
export async function forgeServer(
  route: (req: Omit<ForgeRequest, "status">) => Answer,
): Promise<{ port: number; received: ForgeRequest[]; close: () => Promise<void> }> {
  const received: ForgeRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown = text;
      if (text && String(req.headers["content-type"] ?? "").startsWith("application/json"))
        try {
          body = JSON.parse(text);
        } catch {
          body = { unparsable: text };
        }
      const seen = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body };
      const answer = route(seen);
      received.push({ ...seen, status: answer.status });
      const type =
        answer.text !== undefined ? "text/plain; charset=utf-8" : "application/json; charset=utf-8";
      res.writeHead(answer.status, { "content-type": type, ...answer.headers });
      res.end(answer.text !== undefined ? answer.text : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Whether `body` is an object whose `required` fields are strings and `optional` ones strings if present. */
export function stringFields(body: unknown, required: string[], optional: string[]): string[] {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return ["body"];
  const b = body as Record<string, unknown>;
  return [
    ...required.filter((k) => typeof b[k] !== "string" || (b[k] as string).length === 0),
    ...optional.filter((k) => k in b && typeof b[k] !== "string"),
  ];
}
