/** Messages français de la première heure : `serve` sans Slack, le fichier .env, l’état du modèle (issue 20). */
export const firstHour = {
  "cli.serve.no_slack":
    "codexpi serve refuse de démarrer sans Slack : {missing} non défini(s). Suis README.md#quick-start (jetons Slack dans .env), ou lance « codexpi serve --headless » (CODEXPI_HEADLESS=1) pour n’utiliser que la ligne de commande.",
  "cli.serve.slack_missing_mode": "SLACK_APP_TOKEN (Socket Mode) ou SLACK_SIGNING_SECRET (HTTP)",
  "cli.env_file.unreadable":
    "impossible de lire le fichier d’environnement {file} : {reason}. Correctif : corrige-le, ou CODEXPI_ENV_FILE=none pour ne lire aucun fichier.",
};
