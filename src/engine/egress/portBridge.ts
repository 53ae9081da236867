import net from "node:net";
import type { Socket } from "node:net";

/**
 * A host service an operator lets every jail reach (an MCP server on the host's loopback, a port
 * of CODEXPI_NETNS_PORTS): a unix socket of the turn's, bound into the jail, whose connections
 * are piped to that port of the host's loopback. The jail has no route to the host otherwise.
 */
export interface PortBridge {
  close(): Promise<void>;
}

/** Starts a bridge from `socketPath` to 127.0.0.1:`port` on the host. */
export async function startPortBridge(socketPath: string, port: number): Promise<PortBridge> {
  const sockets = new Set<Socket>();
  const track = (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  };
  const server = net.createServer((client) => {
    const upstream = net.connect({ host: "127.0.0.1", port });
    track(client);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => resolve());
  });
  return {
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
