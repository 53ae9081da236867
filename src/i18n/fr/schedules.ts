import type { Message, Params } from "../message.js";

const periodFr = (p: Params) => (p.period === "monthly" ? "mensuel" : "journalier");
const whoseFr = (p: Params) => (p.scope === "user" ? "de la personne {name}" : "du projet {name}");

/** Messages français des planifications et du journal d’audit (issue 21). */
export const schedules = {
  "cli.schedule.catch_up_invalid": "--catch-up vaut once ou skip (reçu : {value})",
  "cli.schedule.unknown_command": "commande schedule inconnue : {name} (add, list, pause, resume ou remove)",
  "command.schedule.syntax":
    '/codex schedule add <projet> "<cron>" [--tz Europe/Paris] [--channel #c] [--catch-up once|skip] <consigne> | list [projet] | pause|resume|remove <id>',
  "command.schedule.help":
    "Lance une consigne selon un cron, en votre nom : chaque déclenchement ouvre une conversation dans le canal.",
  "command.audit.syntax": "/codex audit [projet] [--user @x] [--since 2026-12-01|7d] [--page N]",
  "command.audit.help": "Qui a changé quoi à travers codexpi, du plus ancien au plus récent.",
  "reason.schedule_not_found": "aucune planification {id} visible pour vous",
  "reason.schedule_not_yours":
    "seuls son auteur, le propriétaire de son projet et les admins modifient la planification {id}",
  "reason.schedule_cron_invalid": "`{cron}` n’est pas une expression cron à cinq champs ({detail})",
  "reason.schedule_cron_never": "`{cron}` ne se déclenche jamais",
  "reason.schedule_tz_invalid": "`{tz}` n’est pas un fuseau horaire (par ex. Europe/Paris)",
  "reason.schedule_channel_not_member":
    "une planification ne publie que dans un canal dont son créateur est membre, et son créateur n’est pas membre de celui-ci",
  "reason.audit_since_invalid": "`{since}` n’est ni une date (2026-12-01) ni une durée (7d, 12h)",
  "schedule.added":
    "Planification `{id}` ajoutée dans *{project}* : `{cron}` ({tz}), prochain déclenchement {next} ; ses conversations s’ouvrent dans {channel}, en votre nom.",
  "schedule.paused": "Planification `{id}` en pause.",
  "schedule.resumed": "Planification `{id}` reprise : prochain déclenchement {next}.",
  "schedule.removed": "Planification `{id}` supprimée.",
  "schedule.list.title": "*Planifications*",
  "schedule.list.empty": "Aucune planification.",
  "schedule.list.line":
    "`{id}` *{project}* `{cron}` ({tz}) — {state} — prochain {next} — par {creator} dans {channel} : {prompt}",
  "schedule.state.active": "active",
  "schedule.state.paused": "en pause",
  "schedule.state.access_lost": "en pause (son auteur a perdu le projet)",
  "schedule.channel_none": "aucun canal",
  "schedule.skipped": "⏭ La planification `{id}` ({project}, `{cron}`) saute ce déclenchement : {why}",
  "schedule.skipped_over_budget": (p: Params) =>
    `⏭ La planification \`{id}\` ({project}, \`{cron}\`) saute ce déclenchement : le budget ${periodFr(p)} ${whoseFr(p)} est atteint ({used} jetons utilisés sur {budget}) ; il repart à zéro le {resets}. La planification reste active : elle se déclenchera de nouveau à son heure dès que le budget le permettra (après la remise à zéro, ou quand un admin le relèvera).`,
  "schedule.paused_dm":
    "⏸ Votre planification `{id}` dans *{project}* (`{cron}`) est en pause : vous ne pouvez plus solliciter ce projet. Quand vous le pourrez de nouveau : `/codex schedule resume {id}`.",
  "audit.title": "*Audit* — page {page}/{pages}, {total} événement(s)",
  "audit.empty": "Aucun événement d’audit ne correspond.",
  "audit.next": "Page suivante : ajoutez `--page {n}`.",
  "cli.about.schedule":
    "Gère les planifications : des consignes lancées selon un cron au nom de leur auteur (ici : l’opérateur).",
  "cli.about.audit": "Affiche le journal d’audit (vue admin), ou l’exporte en lignes JSON avec --json.",
  "cli.schedule.added":
    "planification {id} ajoutée dans {project} : {cron} ({tz}), prochain déclenchement {next}",
  "cli.schedule.done": "planification {id} : {state}",
  "cli.schedule.none": "aucune planification",
} satisfies Record<string, Message>;
