import { createServer, type RequestListener, type Server } from "node:http";
import type { ListenOptions } from "node:net";
import { type App, HTTPModuleFunctions, type HTTPReceiver, type Logger, type Receiver } from "@slack/bolt";
import { checkSignedRequests, type RequestCheckOptions } from "./signatureCheck.js";

/**
 * HTTP mode's transport: Bolt's HTTPReceiver parses each request (and verifies its signature),
 * but the server is this one's, so that the signature and replay check (signatureCheck.ts) runs
 * before Bolt's request listener without replacing it. Bolt's own `start()` would serve its
 * listener directly.
 */
export class CheckedHttpReceiver implements Receiver {
  private readonly listener: RequestListener;
  private server: Server | null = null;

  constructor(
    private readonly inner: HTTPReceiver,
    checks: RequestCheckOptions,
    private readonly logger: Logger,
  ) {
    this.listener = checkSignedRequests(inner.requestListener, checks);
  }

  init(app: App): void {
    this.inner.init(app);
  }

  /** Listens as Bolt's HTTPReceiver would (its error handling included); resolves with the server. */
  start(listen: ListenOptions): Promise<Server> {
    if (this.server) return Promise.reject(new Error("the HTTP receiver is already started"));
    const server = createServer((request, response) => {
      try {
        this.listener(request, response);
      } catch (error) {
        HTTPModuleFunctions.defaultDispatchErrorHandler({
          error: error as Error,
          logger: this.logger,
          request,
          response,
        });
      }
    });
    this.server = server;
    server.on("close", () => {
      if (this.server === server) this.server = null;
    });
    return new Promise((resolve, reject) => {
      server.on("error", (err) => {
        server.close();
        reject(err);
      });
      server.listen(listen, () => resolve(server));
    });
  }

  stop(): Promise<void> {
    const server = this.server;
    if (!server) return Promise.reject(new Error("the HTTP receiver was not started"));
    return new Promise((resolve, reject) =>
      server.close((err) => {
        if (err) return reject(err);
        this.server = null;
        resolve();
      }),
    );
  }
}
