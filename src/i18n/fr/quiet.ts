/** Messages français des fils calmes et des échecs visibles (issue 20, points 5 et 6). */
export const quiet = {
  "progress.kind.reconnecting": "reconnexion au modèle",
  "progress.reconnecting": "reconnexion au modèle : {error}, tentative {n}",
  "conversation.state.stopping": "Arrêt en cours…",
  "cli.doctor.model_not_logged_in":
    "{model} : Codex n’est pas connecté (pas de {home}/auth.json ni de OPENAI_API_KEY). Correctif : `CODEX_HOME={home} {codex} login` (avec une clé d’API : `printenv OPENAI_API_KEY | CODEX_HOME={home} {codex} login --with-api-key`), puis relancer doctor",
  "cli.doctor.model_key_missing":
    "{model} : la variable {variable} que {config} désigne pour la clé du fournisseur n’est pas définie. Correction : la définir (et la nommer dans CODEXPI_AGENT_ENV), puis relancer doctor",
  "cli.doctor.model_unreachable":
    "{model} injoignable après {seconds} s : {why}. Correction : vérifier le base_url du fournisseur dans {config}, que le service tourne et que le réseau (ou le proxy) le laisse passer",
  "progress.stopped": "arrêté",
  "worker.model_unreachable": "Codex n’a pas pu joindre le modèle pendant {s} s : {detail}",
  "failure.next.model_unreachable":
    "À essayer : vérifier que le modèle répond (`codexpi doctor` sur l’hôte), puis renvoyer la demande.",
  "failure.next.watchdog":
    "À essayer : découper la demande en étapes plus courtes, ou demander à un admin d’allonger `CODEXPI_TURN_TIMEOUT` / `CODEXPI_IDLE_TIMEOUT`.",
  "failure.next.codex_failed":
    "À essayer : renvoyer la demande ; si l’erreur revient, `codexpi doctor` sur l’hôte dit si le modèle et la connexion vont bien.",
  "failure.next.interrupted": "À essayer : renvoyer la demande (le bot a pu redémarrer pendant le tour).",
  "failure.next.spawn_failed":
    "À essayer : un admin lance `codexpi doctor` sur l’hôte, qui dit ce qui manque.",
  "failure.next.thread_busy": "À essayer : attendre la fin du tour en cours, puis renvoyer.",
};
