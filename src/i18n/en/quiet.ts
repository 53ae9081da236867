import type { quiet as fr } from "../fr/quiet.js";
import type { Message } from "../message.js";

/** English messages of quiet threads and visible failures (issue 20, items 5 and 6). */
export const quiet = {
  "progress.kind.reconnecting": "reconnecting to the model",
  "progress.reconnecting": "reconnecting to the model: {error}, attempt {n}",
  "conversation.state.stopping": "Stopping…",
  "cli.doctor.model_not_logged_in":
    "{model}: Codex is not logged in (no {home}/auth.json and no OPENAI_API_KEY). Fix: `CODEX_HOME={home} {codex} login` (with an API key: `printenv OPENAI_API_KEY | CODEX_HOME={home} {codex} login --with-api-key`), then run doctor again",
  "cli.doctor.model_key_missing":
    "{model}: the variable {variable} that {config} names for the provider's key is not set. Fix: set it (and name it in CODEXPI_AGENT_ENV), then run doctor again",
  "cli.doctor.model_unreachable":
    "{model} cannot be reached after {seconds} s: {why}. Fix: check the provider's base_url in {config}, that the service runs, and that the network (or proxy) lets it through",
  "progress.stopped": "stopped",
  "worker.model_unreachable": "Codex could not reach the model for {s} s: {detail}",
  "failure.next.model_unreachable":
    "Try next: check that the model answers (`codexpi doctor` on the host), then send the request again.",
  "failure.next.watchdog":
    "Try next: split the request into shorter steps, or ask an admin to raise `CODEXPI_TURN_TIMEOUT` / `CODEXPI_IDLE_TIMEOUT`.",
  "failure.next.codex_failed":
    "Try next: send the request again; if the error comes back, `codexpi doctor` on the host says whether the model and the connection are fine.",
  "failure.next.interrupted":
    "Try next: send the request again (the bot may have restarted during the turn).",
  "failure.next.spawn_failed":
    "Try next: an admin runs `codexpi doctor` on the host, which says what is missing.",
  "failure.next.thread_busy": "Try next: wait for the running turn to end, then send again.",
} satisfies Record<keyof typeof fr, Message>;
