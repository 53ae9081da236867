import type { TestProject } from "vitest/node";
import type { Kysely } from "kysely";
import pg from "pg";
import { migrate, openDatabase } from "../../src/engine/database.js";
import { PG_TEMPLATE_DATABASE, withDatabase } from "./testDatabase.js";
import { startPostgres } from "./postgresServer.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** Superuser URL of the suite's PostgreSQL (its `postgres` database). */
    pgAdminUrl: string;
  }
}

/** What both postgres projects' setups share: one server, started by the first (see below). */
interface Shared {
  ready: Promise<string>;
  users: number;
  stop: () => Promise<void>;
}
const SHARED = Symbol.for("codexpi.testPostgres");
const registry = globalThis as unknown as Record<symbol, Shared | undefined>;

/**
 * The postgres projects' global setup: one server for the whole run, and a template database
 * migrated once, from which every test's database is copied (CREATE DATABASE … TEMPLATE). Both
 * projects (postgres, postgres-apart: vitest.config.ts) call it; the second gets the first's
 * server (kept on globalThis: vitest may load this file once per project), and the last teardown
 * stops it. A second server took 1.5 s of the run's start.
 */
export default async function setup(project: TestProject) {
  let shared = registry[SHARED];
  if (!shared) {
    let stop: () => Promise<void> = async () => undefined;
    const ready = start().then((server) => {
      stop = () => server.stop();
      return server.adminUrl;
    });
    shared = { ready, users: 0, stop: () => stop() };
    registry[SHARED] = shared;
  }
  const current = shared;
  current.users++;
  project.provide("pgAdminUrl", await current.ready);
  return async () => {
    if (--current.users > 0) return;
    registry[SHARED] = undefined;
    await current.stop();
  };
}

async function start() {
  const started = Date.now();
  const server = await startPostgres();
  const admin = new pg.Client({ connectionString: server.adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${PG_TEMPLATE_DATABASE}`);
  } finally {
    await admin.end();
  }
  const db = openDatabase({ dialect: "postgres", url: withDatabase(server.adminUrl, PG_TEMPLATE_DATABASE) });
  try {
    await migrate(db as unknown as Kysely<unknown>);
  } finally {
    await db.destroy();
  }
  process.stdout.write(`PostgreSQL for the tests: ready and migrated in ${Date.now() - started} ms\n`);
  return server;
}
