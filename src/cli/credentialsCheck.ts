import { operatorCodexHome, resolveUpstream } from "../engine/api/runtime.js";
import type { Config } from "../config.js";
import { t } from "../i18n/index.js";
import { checkName, type Check } from "./slackChecks.js";

/**
 * Which credential the model gateway adds for every agent (an API key, a ChatGPT login refreshed
 * on the host, a provider's key), kept on the host: no jail holds it. A warning when none can be
 * found (the model check then says how to log in).
 */
export async function credentialsCheck(config: Config): Promise<Check> {
  const name = checkName(config.locale, "credentials");
  try {
    const upstream = resolveUpstream(operatorCodexHome(config.codexHome), process.env);
    return {
      name,
      ok: true,
      detail: t(config.locale, "cli.doctor.credentials_ok", {
        kind: t(config.locale, `cli.doctor.credential_kind.${upstream.kind}`),
        upstream: upstream.baseUrl,
      }),
    };
  } catch (err) {
    return {
      name,
      ok: true,
      warning: true,
      detail: t(config.locale, "cli.doctor.credentials_missing", { detail: (err as Error).message }),
    };
  }
}
