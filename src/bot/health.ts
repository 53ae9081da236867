import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Health } from "../engine/api/health.js";
import { clearance, type HealthAccess } from "./healthAccess.js";

export { Health } from "../engine/api/health.js";

/**
 * Handles GET /healthz and GET /metrics as `access` allows (healthAccess.ts); returns false for
 * any other request. Without clearance /healthz is liveness only (`{"ok":…}` and its status):
 * versions, the lease holder and the failing checks tell an outsider too much.
 */
export async function serveHealth(
  health: Health,
  access: HealthAccess,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<boolean> {
  const url = (req.url ?? "").split("?")[0];
  if (req.method !== "GET" || (url !== "/healthz" && url !== "/metrics")) return false;
  const cleared = clearance(access, req);
  if (cleared === "refused") {
    refuse(res, 401, "wrong or unknown credentials: send Authorization: Bearer <CODEXPI_METRICS_TOKEN>", {
      error: "invalid_token",
    });
  } else if (url === "/healthz") {
    const report = await health.report();
    res.writeHead(report.ok ? 200 : 503, { "content-type": "application/json" });
    res.end(JSON.stringify(cleared === "detail" ? report : { ok: report.ok }));
  } else if (cleared === "detail") {
    res.writeHead(200, { "content-type": health.registry.contentType });
    res.end(await health.metrics());
  } else {
    refuseMetrics(access, res);
  }
  return true;
}

/** /metrics asked for without credentials where they are needed: where to go instead. */
function refuseMetrics(access: HealthAccess, res: http.ServerResponse): void {
  const instead = access.instead ? `; or ${access.instead}` : "";
  if (access.tokenDigest)
    refuse(res, 401, `/metrics needs Authorization: Bearer <CODEXPI_METRICS_TOKEN>${instead}`);
  // No token could open it: not served on this listener at all.
  else refuse(res, 404, `/metrics is not served on this listener without CODEXPI_METRICS_TOKEN${instead}`);
}

/** A refusal; a 401 names the scheme (RFC 6750), with `invalid_token` when a wrong one was sent. */
function refuse(
  res: http.ServerResponse,
  status: 401 | 404,
  text: string,
  opts: { error?: string } = {},
): void {
  const challenge = `Bearer realm="codexpi"${opts.error ? `, error="${opts.error}"` : ""}`;
  res.writeHead(status, {
    "content-type": "text/plain; charset=utf-8",
    ...(status === 401 ? { "www-authenticate": challenge } : {}),
  });
  res.end(`${text}\n`);
}

/** A small server for the health endpoints (Socket Mode's, the metrics listener, or no Slack at all). */
export async function startHealthServer(
  health: Health,
  access: HealthAccess,
  host: string,
  port: number,
): Promise<{ server: http.Server; port: number }> {
  const server = http.createServer((req, res) => {
    serveHealth(health, access, req, res)
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
