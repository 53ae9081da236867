import type { Server } from "node:net";
import type { AddressInfo, Socket } from "node:net";

/** A started local server: its port (0 on a unix socket) and a close that cuts open connections. */
export interface LocalServer {
  port: number;
  close(): Promise<void>;
}

/**
 * Listens on a unix socket (a turn's, bound into its jail) or an ephemeral port of 127.0.0.1,
 * keeping track of the connections so that closing the server also ends them (a turn's services
 * must not outlive it through a connection kept open).
 */
export async function listenLocal(server: Server, socketPath?: string): Promise<LocalServer> {
  const sockets = new Set<Socket>();
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    if (socketPath) server.listen(socketPath, () => resolve());
    else server.listen(0, "127.0.0.1", () => resolve());
  });
  return {
    port: socketPath ? 0 : (server.address() as AddressInfo).port,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
