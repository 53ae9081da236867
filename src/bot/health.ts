import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Health } from "../engine/api/health.js";

export { Health } from "../engine/api/health.js";

/** Handles GET /healthz and GET /metrics; returns false for any other request. */
export async function serveHealth(
  health: Health,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<boolean> {
  const url = (req.url ?? "").split("?")[0];
  if (req.method !== "GET" || (url !== "/healthz" && url !== "/metrics")) return false;
  if (url === "/healthz") {
    const report = await health.report();
    res.writeHead(report.ok ? 200 : 503, { "content-type": "application/json" });
    res.end(JSON.stringify(report));
  } else {
    res.writeHead(200, { "content-type": health.registry.contentType });
    res.end(await health.metrics());
  }
  return true;
}

/** A small server for the health endpoints (Socket Mode, or no Slack at all). */
export async function startHealthServer(
  health: Health,
  host: string,
  port: number,
): Promise<{ server: http.Server; port: number }> {
  const server = http.createServer((req, res) => {
    serveHealth(health, req, res)
      .then((handled) => {
        if (!handled) {
          res.writeHead(404, { "content-type": "text/plain" });
          res.end("not found\n");
        }
      })
      .catch(() => {
        res.writeHead(500);
        res.end();
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  return { server, port: (server.address() as AddressInfo).port };
}
