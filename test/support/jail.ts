import os from "node:os";
import path from "node:path";
import { probeJail } from "../../src/engine/isolation/probe.js";

/**
 * Whether jail tests can run here. Inside Codex's own sandbox (or a container without user
 * namespaces) no namespace can be made: those tests then skip with the probe's reason printed —
 * unless CODEXPI_REQUIRE_JAIL=1 (CI sets it), where a jail that does not work fails the run.
 */
export async function jailAvailable(): Promise<boolean> {
  const probe = await probeJail({
    jail: "bwrap",
    dataDir: path.join(os.tmpdir(), "codexpi-jail-probe-data"),
    locale: "en",
  });
  if (probe.ok) return true;
  if (process.env.CODEXPI_REQUIRE_JAIL === "1")
    throw new Error(`the jail does not work here and CODEXPI_REQUIRE_JAIL=1: ${probe.detail}`);
  process.stderr.write(`jail tests skipped: ${probe.mechanism}: ${probe.detail}\n`);
  return false;
}
