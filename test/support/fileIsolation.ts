import { afterAll, beforeAll } from "vitest";
import { clearRegisteredSecrets } from "../../src/redaction.js";

// Test files share their worker's module cache (vitest's `isolate: false`: loading the app's
// modules once per worker rather than once per file is what made the suite wait). What a file
// could leave behind for the next one in that worker is put back here: the process environment,
// and the redactor's registered secrets (the one module-level registry in src/).
let environment: NodeJS.ProcessEnv = {};

beforeAll(() => {
  environment = { ...process.env };
  clearRegisteredSecrets();
});

afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in environment)) delete process.env[name];
  Object.assign(process.env, environment);
  clearRegisteredSecrets();
});
