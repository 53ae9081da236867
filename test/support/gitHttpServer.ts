import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";

// A real git smart-HTTP server on 127.0.0.1 for push tests: `git http-backend` (git's own CGI)
// behind a Node server that demands HTTP Basic authentication with one user and token, and records
// what each request carried. A request without the right credentials gets 401 with a Basic
// challenge (what makes git ask its askpass program).

/** One request the server received. */
export interface GitHttpRequest {
  method: string;
  url: string;
  /** The Authorization header as received (null when absent). */
  authorization: string | null;
  status: number;
}

export interface GitHttpServer {
  /** `http://127.0.0.1:<port>`; a repository `<root>/x.git` is `<url>/x.git`. */
  url: string;
  received: GitHttpRequest[];
  close(): Promise<void>;
}

/** Splits a CGI answer's header block from its body; answers the status and headers. */
function cgiHeaders(block: string): { status: number; headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  let status = 200;
  for (const line of block.split(/\r?\n/)) {
    const i = line.indexOf(":");
    if (i < 0) continue;
    const name = line.slice(0, i).trim();
    const value = line.slice(i + 1).trim();
    if (name.toLowerCase() === "status") status = Number.parseInt(value, 10);
    else headers[name] = value;
  }
  return { status, headers };
}

function backend(
  root: string,
  user: string,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  done: (status: number) => void,
) {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  const child = spawn("git", ["http-backend"], {
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: "1",
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      REQUEST_METHOD: req.method ?? "GET",
      CONTENT_TYPE: req.headers["content-type"] ?? "",
      ...(req.headers["content-length"] ? { CONTENT_LENGTH: req.headers["content-length"] } : {}),
      ...(req.headers["content-encoding"] ? { HTTP_CONTENT_ENCODING: req.headers["content-encoding"] } : {}),
      // An authenticated user: git http-backend then serves receive-pack (push).
      REMOTE_USER: user,
      REMOTE_ADDR: "127.0.0.1",
    },
    stdio: ["pipe", "pipe", "ignore"],
  });
  req.pipe(child.stdin);
  let head = Buffer.alloc(0);
  let started = false;
  child.stdout.on("data", (chunk: Buffer) => {
    if (started) return void res.write(chunk);
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf("\r\n\r\n");
    if (end < 0) return;
    const { status, headers } = cgiHeaders(head.subarray(0, end).toString("latin1"));
    res.writeHead(status, headers);
    res.write(head.subarray(end + 4));
    started = true;
    done(status);
  });
  child.on("close", () => res.end());
}

/** Starts the server over the bare repositories under `root`, accepting `user`:`token` only. */
export async function startGitHttpServer(opts: {
  root: string;
  user: string;
  token: string;
}): Promise<GitHttpServer> {
  const expected = `Basic ${Buffer.from(`${opts.user}:${opts.token}`).toString("base64")}`;
  const received: GitHttpRequest[] = [];
  const server = http.createServer((req, res) => {
    const seen: GitHttpRequest = {
      method: req.method ?? "",
      url: req.url ?? "",
      authorization: req.headers.authorization ?? null,
      status: 0,
    };
    received.push(seen);
    if (req.headers.authorization !== expected) {
      seen.status = 401;
      res.writeHead(401, { "WWW-Authenticate": 'Basic realm="git"' });
      res.end();
      req.resume();
      return;
    }
    backend(opts.root, opts.user, req, res, (status) => {
      seen.status = status;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
