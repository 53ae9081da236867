import type { Clock } from "../../engine/api/runtime.js";
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { HTTPModuleFunctions, verifySlackRequest } from "@slack/bolt";
import type { Logger } from "pino";
import { GroupCommit } from "../groupCommit.js";

// What Bolt's HTTP receiver does not check: a signed request replayed within its five minutes
// (one slash command, two conversations), and a timestamp in the future (Bolt refuses only the
// past). Both are refused here, the first thing the composed receiver does with an HTTP request
// (http.ts), before Bolt parses it and any layer or listener runs.

/** Bolt's window for a request's timestamp; a seen signature is kept this long plus a margin. */
export const SIGNATURE_WINDOW_MS = 5 * 60_000;
const KEEP_MS = SIGNATURE_WINDOW_MS + 2 * 60_000;
const PRUNE_EVERY_MS = 60_000;
const KEY_PREFIX = "sig:";

/** Where seen signatures are kept: the intake journal (store/intakeJournal.ts) in the bot. */
export interface SignatureStore {
  /** Records signed requests' keys in one commit; for each, false when it was seen before (a replay). */
  firstSignatures(keys: readonly string[], now: number): boolean[] | Promise<boolean[]>;
  /** Forgets the signatures seen before `before`. */
  forgetSignatures(before: number): void | Promise<void>;
}

/**
 * The signed requests already accepted, by `x-slack-request-timestamp` and `x-slack-signature`.
 * They live in the intake journal rather than in memory, so that a restart within the window does
 * not accept them again: on SQLite the bot's own file (intake/store.ts), not the main database,
 * whose write lock another process may hold for seconds (this check is on the ack path); on
 * PostgreSQL the shared journal (store/sharedIntake.ts), so that every instance refuses a replay
 * the first one accepted. With local files, a second instance refuses the replay when it consumes
 * the request (intake.ts).
 */
export class SeenRequests {
  private lastPrune = 0;
  /** The keys of a burst of requests are recorded in one commit, not one each. */
  private readonly commits: GroupCommit<string, boolean>;

  constructor(
    private readonly store: SignatureStore,
    private readonly clock: Clock,
  ) {
    this.commits = new GroupCommit(async (keys) => await store.firstSignatures(keys, clock.now()));
  }

  /** Records a request's key; false when it was recorded before (a replay). */
  async firstTime(timestamp: string, signature: string): Promise<boolean> {
    await this.pruneNow(this.clock.now());
    return await this.commits.add(`${KEY_PREFIX}${timestamp}:${signature}`);
  }

  /** Forgets keys whose requests Bolt would refuse as stale anyway (at most once a minute). */
  async pruneNow(now = this.clock.now()): Promise<void> {
    if (now - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    await this.store.forgetSignatures(now - KEEP_MS);
  }
}

/** Why a signed request is refused before Bolt sees it; null when it may go on. */
export type Refusal = "future" | "replay" | null;

/** What the check needs: the signing secret, the seen-requests store, a clock. */
export interface RequestCheckOptions {
  signingSecret: string;
  seen: SeenRequests;
  clock: Clock;
  logger: Logger;
  endpoints?: string[];
}

const header = (req: IncomingMessage, name: string): string | null => {
  const v = req.headers[name];
  return typeof v === "string" ? v : null;
};

/**
 * Checks one request to the events endpoint. The body is buffered here (Bolt reuses the buffer).
 * A future timestamp is refused at once; a replay only once the signature is known good, so that
 * forged requests can neither fill the store nor block a genuine request in advance. Anything
 * else Bolt verifies as usual (bad or stale signatures, `ssl_check`).
 */
async function refusalOf(req: IncomingMessage, opts: RequestCheckOptions): Promise<Refusal> {
  const buffered = await HTTPModuleFunctions.bufferIncomingMessage(req, HTTPModuleFunctions.defaultBodyLimit);
  const timestamp = header(req, "x-slack-request-timestamp");
  const signature = header(req, "x-slack-signature");
  if (!timestamp || !signature || !/^\d{1,12}$/.test(timestamp)) return null;
  if (Number(timestamp) * 1000 > opts.clock.now() + SIGNATURE_WINDOW_MS) return "future";
  try {
    verifySlackRequest({
      signingSecret: opts.signingSecret,
      body: buffered.rawBody.toString(),
      headers: { "x-slack-signature": signature, "x-slack-request-timestamp": Number(timestamp) },
    });
  } catch {
    return null; // Bolt answers 401 itself
  }
  return (await opts.seen.firstTime(timestamp, signature)) ? null : "replay";
}

/**
 * Bolt's HTTP request listener with the checks in front: requests to the events endpoint are
 * checked first and a refusal is a 401 without a body, like Bolt's own for a bad signature; other
 * paths (health) go straight through.
 */
export function checkSignedRequests(next: RequestListener, opts: RequestCheckOptions): RequestListener {
  const endpoints = opts.endpoints ?? ["/slack/events"];
  return (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (req.method?.toUpperCase() !== "POST" || !endpoints.includes(path)) return next(req, res);
    void (async () => {
      let refusal: Refusal;
      try {
        refusal = await refusalOf(req, opts);
      } catch (err) {
        // An unreadable or oversized body (Bolt would refuse it too), or the store failing.
        const status = HTTPModuleFunctions.isRawBodyError(err)
          ? (err as { statusCode?: number }).statusCode === 413
            ? 413
            : 400
          : 500;
        opts.logger.warn({ err, status }, "Slack request not checked");
        if (!res.headersSent) res.writeHead(status);
        res.end();
        return;
      }
      if (!refusal) return next(req, res);
      opts.logger.warn(
        { refusal, timestamp: header(req, "x-slack-request-timestamp") },
        "signed Slack request refused",
      );
      res.writeHead(401);
      res.end();
    })().catch((err: unknown) => opts.logger.error({ err }, "Slack request handling failed"));
  };
}
