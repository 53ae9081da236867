import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { execa } from "execa";
import { askPassEnvironment, installAskPass } from "../../src/engine/forge/askpass.js";
import { remoteTransport } from "../../src/engine/forge/remoteUrl.js";

// What the forge finding's tests need (issue 31, item 2): an attacker's server that records every
// credential it is sent (plain http, or TLS with a certificate of the attacker's own CA), the CA
// and certificate made with openssl, and a push "the old way" — git run in the repository holding
// the branch, its configuration in effect, with codexpi's askpass and overrides as before the fix —
// for the positive controls.

/** One request the attacker's server received. */
export interface CapturedRequest {
  method: string;
  url: string;
  authorization: string | null;
}

/** A server on `host:port` that asks for Basic credentials and records what it gets. */
export interface AttackerServer {
  received: CapturedRequest[];
  /** TCP connections accepted (a TLS handshake that failed still counts). */
  connections: number;
  close(): Promise<void>;
}

/** A CA and a certificate it signed for `localhost`, 127.0.0.1 and 127.0.0.2 (PEM files). */
export interface TestCertificates {
  caFile: string;
  key: string;
  cert: string;
}

/** Makes a CA and a server certificate signed by it, under `dir`, with the openssl CLI. */
export async function makeCertificates(dir: string, name: string): Promise<TestCertificates> {
  fs.mkdirSync(dir, { recursive: true });
  const f = (x: string) => path.join(dir, `${name}-${x}`);
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  await execa("openssl", [
    "req",
    "-x509",
    ...ec,
    "-keyout",
    f("ca.key"),
    "-out",
    f("ca.crt"),
    "-days",
    "2",
    "-subj",
    `/CN=${name} CA`,
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign",
  ]);
  await execa("openssl", [
    "req",
    ...ec,
    "-keyout",
    f("leaf.key"),
    "-out",
    f("leaf.csr"),
    "-subj",
    "/CN=localhost",
  ]);
  fs.writeFileSync(
    f("ext.cnf"),
    "subjectAltName=DNS:localhost,IP:127.0.0.1,IP:127.0.0.2\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n",
  );
  await execa("openssl", [
    "x509",
    "-req",
    "-in",
    f("leaf.csr"),
    "-CA",
    f("ca.crt"),
    "-CAkey",
    f("ca.key"),
    "-CAcreateserial",
    "-out",
    f("leaf.crt"),
    "-days",
    "2",
    "-extfile",
    f("ext.cnf"),
  ]);
  return {
    caFile: f("ca.crt"),
    key: fs.readFileSync(f("leaf.key"), "utf8"),
    cert: fs.readFileSync(f("leaf.crt"), "utf8"),
  };
}

/**
 * Starts the attacker's server on `host:port` (port 0: any), plain http or TLS: every request
 * without credentials gets a Basic challenge (what makes git ask its askpass program), every one
 * is recorded.
 */
export async function startAttacker(opts: {
  host: string;
  port: number;
  tls?: TestCertificates;
}): Promise<AttackerServer & { port: number }> {
  const received: CapturedRequest[] = [];
  const handler: http.RequestListener = (req, res) => {
    received.push({
      method: req.method ?? "",
      url: req.url ?? "",
      authorization: req.headers.authorization ?? null,
    });
    req.resume();
    res.writeHead(req.headers.authorization ? 403 : 401, { "WWW-Authenticate": 'Basic realm="git"' });
    res.end();
  };
  const server = opts.tls
    ? https.createServer({ key: opts.tls.key, cert: opts.tls.cert }, handler)
    : http.createServer(handler);
  const state = { connections: 0 };
  server.on("connection", () => {
    state.connections++;
  });
  server.on("tlsClientError", () => {});
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  return {
    received,
    get connections() {
      return state.connections;
    },
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Pushes `branch` of `repo` to `url` the way codexpi did before issue 31 item 2: `git push` run in
 * the repository holding the branch — its configuration in effect — with codexpi's askpass
 * program, the token in a file it reads, and the same hardening overrides (hooks, credential
 * helpers and transports disarmed, certificates checked). Jail off: the jail never changed which
 * configuration git read, and shared the host's network. Answers git's exit code and message.
 */
export async function pushTheOldWay(o: {
  repo: string;
  url: string;
  branch: string;
  token: string;
  username: string;
  dataDir: string;
}): Promise<{ exitCode: number; stderr: string }> {
  const transport = remoteTransport(o.url);
  if (!transport || (transport.kind !== "http" && transport.kind !== "https"))
    throw new Error(`not an http(s) URL: ${o.url}`);
  const program = installAskPass(o.dataDir);
  const secretDir = fs.mkdtempSync(path.join(o.dataDir, "old-push-"));
  const secret = path.join(secretDir, "secret");
  fs.writeFileSync(secret, o.token, { mode: 0o600 });
  const ref = `refs/heads/${o.branch}`;
  const overrides = [
    "core.hooksPath=/dev/null",
    "core.fsmonitor=false",
    "credential.helper=",
    "core.sshCommand=false",
    "protocol.allow=never",
    "protocol.file.allow=always",
    `protocol.${transport.kind}.allow=always`,
    "http.sslVerify=true",
    `core.askPass=${program}`,
  ];
  try {
    const r = await execa(
      "git",
      [
        "--no-pager",
        ...overrides.flatMap((kv) => ["-c", kv]),
        "push",
        "--no-verify",
        "--porcelain",
        "--",
        o.url,
        `${ref}:${ref}`,
      ],
      {
        cwd: o.repo,
        env: {
          PATH: "/usr/local/bin:/usr/bin:/bin",
          HOME: "/tmp",
          LANG: "C",
          GIT_CONFIG_NOSYSTEM: "1",
          GIT_CONFIG_GLOBAL: "/dev/null",
          GIT_TERMINAL_PROMPT: "0",
          GIT_ASKPASS: program,
          ...askPassEnvironment(transport, o.username),
          CODEXPI_ASKPASS_SECRET: secret,
        },
        extendEnv: false,
        reject: false,
        stdin: "ignore",
        timeout: 30_000,
      },
    );
    return { exitCode: r.exitCode ?? -1, stderr: r.stderr };
  } finally {
    fs.rmSync(secretDir, { recursive: true, force: true });
  }
}

/** Basic credentials as git sends them. */
export const basic = (user: string, token: string): string =>
  `Basic ${Buffer.from(`${user}:${token}`).toString("base64")}`;
