import net from "node:net";
import type { Socket } from "node:net";
import { listenLocal } from "../system/index.js";

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
  const upstreams = new Set<Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect({ host: "127.0.0.1", port });
    upstreams.add(upstream);
    upstream.on("close", () => upstreams.delete(upstream));
    client.pipe(upstream);
    upstream.pipe(client);
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
  });
  const listening = await listenLocal(server, socketPath);
  return {
    async close() {
      for (const s of upstreams) s.destroy();
      await listening.close();
    },
  };
}
