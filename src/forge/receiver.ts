import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import type { EngineApi } from "../engine/api/index.js";
import type { Clock } from "../engine/api/runtime.js";
import { repositoryOf } from "./payloads.js";
import type { ForgeDeliveries } from "./store/deliveries.js";
import type { ForgeName } from "./store/schema.js";

// The webhook endpoints, on Slack's HTTP listener (HTTP mode): `POST /forge/github` and
// `POST /forge/gitlab`. A delivery is answered 2xx only once it is journaled (durable, keyed by
// its delivery id: a redelivery is recognised); a missing or wrong signature is a 401 and nothing
// is stored. The repository the payload names only chooses whose secret to check it against.

/** The paths the forge front end answers on Slack's listener. */
export const FORGE_PATHS: Readonly<Record<string, ForgeName>> = {
  "/forge/github": "github",
  "/forge/gitlab": "gitlab",
};

const MAX_BODY = 5 * 1024 * 1024;

/** What the receiver needs: the engine (which projects, genuine or not), the journal, a clock. */
export interface ReceiverDeps {
  api: Pick<EngineApi, "forge">;
  deliveries: ForgeDeliveries;
  clock: Clock;
  logger: Logger;
  /** Called once a new delivery is journaled (the processor takes it at once). */
  journaled(): void;
}

const header = (req: IncomingMessage, name: string): string => {
  const v = req.headers[name];
  return typeof v === "string" ? v : "";
};

/** The headers each forge sends: its event, the delivery's identity, the signature or token. */
function deliveryHeaders(forge: ForgeName, req: IncomingMessage) {
  return forge === "github"
    ? {
        event: header(req, "x-github-event"),
        id: header(req, "x-github-delivery"),
        proof: header(req, "x-hub-signature-256"),
      }
    : {
        event: header(req, "x-gitlab-event"),
        id: header(req, "x-gitlab-event-uuid") || header(req, "idempotency-key"),
        proof: header(req, "x-gitlab-token"),
      };
}

function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on("end", () => resolve(size > MAX_BODY ? null : Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** The payload: JSON, or GitHub's form encoding (`payload=<json>`); null when unreadable. */
function parsePayload(req: IncomingMessage, raw: Buffer): unknown {
  try {
    const text = raw.toString("utf8");
    if (header(req, "content-type").startsWith("application/x-www-form-urlencoded"))
      return JSON.parse(new URLSearchParams(text).get("payload") ?? "");
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function answer(res: ServerResponse, status: number, body?: object): void {
  if (res.headersSent) return;
  res.writeHead(status, body ? { "content-type": "application/json" } : {});
  res.end(body ? JSON.stringify(body) : undefined);
}

/** The project a delivery is genuinely for (its secret verifies the proof), or null. */
async function genuineProject(
  deps: ReceiverDeps,
  forge: ForgeName,
  raw: Buffer,
  payload: unknown,
  proof: string,
) {
  const repo = repositoryOf(forge, payload);
  if (!repo || !proof) return null;
  for (const project of await deps.api.forge.projectsOfRepo(forge, repo))
    if (await deps.api.forge.verify(project.id, forge, raw, proof)) return project;
  return null;
}

async function receive(deps: ReceiverDeps, forge: ForgeName, req: IncomingMessage, res: ServerResponse) {
  const raw = await readBody(req);
  if (!raw) return answer(res, 413);
  const { event, id, proof } = deliveryHeaders(forge, req);
  const payload = parsePayload(req, raw);
  const project = payload === null ? null : await genuineProject(deps, forge, raw, payload, proof);
  if (!project) {
    deps.logger.warn({ forge, event, delivery: id }, "forge delivery refused: no valid signature");
    return answer(res, 401);
  }
  if (!event || !id || id.length > 200) return answer(res, 400);
  const fresh = await deps.deliveries.journal(
    { forge, delivery_id: id, event, project_id: project.id, body: raw.toString("utf8") },
    deps.clock.now(),
  );
  deps.logger.info({ forge, event, delivery: id, project: project.name, fresh }, "forge delivery journaled");
  answer(res, fresh ? 202 : 200, { ok: true, duplicate: !fresh });
  if (fresh) deps.journaled();
}

/**
 * The HTTP handler of the webhook endpoints: 405 for anything but POST, 413 over 5 MiB, 401
 * without a valid signature, 400 without an event or delivery id, 500 when the journal fails (the
 * forge delivers again), 202 once journaled (200 for a redelivery).
 */
export function forgeRequestListener(deps: ReceiverDeps) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const forge = FORGE_PATHS[new URL(req.url ?? "/", "http://localhost").pathname];
    if (!forge || req.method?.toUpperCase() !== "POST") {
      answer(res, forge ? 405 : 404);
      return;
    }
    receive(deps, forge, req, res).catch((err: unknown) => {
      deps.logger.error({ err, forge }, "forge delivery not journaled");
      answer(res, 500);
    });
  };
}
