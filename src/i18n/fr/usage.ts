import type { Message, Params } from "../message.js";

// Issue 21 : consommation (jetons, minutes d’agent, coût estimé) et budgets.

const periodFr = (p: Params) => (p.period === "monthly" ? "mensuel" : "journalier");
const subjectFr = (p: Params) => (p.scope === "user" ? "de la personne {name}" : "du projet {name}");

/** Messages français de la consommation et des budgets (issue 21). */
export const usage = {
  "reason.over_budget": (p: Params) =>
    `le budget ${periodFr(p)} ${subjectFr(p)} est atteint : {used} jetons utilisés sur {budget} ; il repart à zéro le {resets}. Un tour déjà lancé va jusqu’au bout ; une nouvelle demande attend la remise à zéro (ou qu’un admin relève le budget).`,
  "reason.budget_invalid":
    "un budget se donne en jetons, nombres entiers positifs : `--daily N` et/ou `--monthly N`",
  "reason.budget_not_found": "aucun budget pour {name}",
  "reason.usage_days_invalid": "`--days` attend un nombre de jours de 1 à 366",
  "command.usage.syntax": "/codex usage [<projet>] [--days N]",
  "command.usage.help": "Jetons, minutes d’agent et coût estimé par projet, par personne et par jour.",
  "command.budget.syntax":
    "/codex budget set project <projet>|user @quelqu’un [--daily N] [--monthly N] · budget list · budget clear project <projet>|user @quelqu’un",
  "command.budget.help": "Budgets en jetons par projet et par personne, par jour (UTC) et par mois.",
  "spend.title": (p: Params) =>
    p.project ? "Consommation de *{project}* sur {days} jour(s)" : "Consommation sur {days} jour(s)",
  "spend.none": "Aucun tour terminé sur cette période.",
  "spend.total": "*Total*",
  "spend.by_project": "*Par projet*",
  "spend.by_person": "*Par personne*",
  "spend.by_day": "*Par jour (UTC)*",
  "spend.line":
    "{key} : {tokens} jetons (entrée {input} dont {cached} en cache, sortie {output}) · {minutes} min d’agent · {turns} tour(s)",
  "spend.cost": " · ~{cost} {currency}",
  "budget.set": (p: Params) => `Budget ${p.scope === "user" ? "de {who}" : "du projet {who}"} : {limits}.`,
  "budget.cleared": (p: Params) => `Budget ${p.scope === "user" ? "de {who}" : "du projet {who}"} supprimé.`,
  "budget.limits": "{daily} par jour, {monthly} par mois",
  "budget.unlimited": "sans limite",
  "budget.tokens": "{n} jetons",
  "budget.list_title": "*Budgets* (jetons ; jours et mois UTC)",
  "budget.list_none": "Aucun budget. `/codex budget set project PROJET --daily N` en pose un.",
  "budget.line": (p: Params) =>
    `${p.scope === "user" ? "{who}" : "projet {who}"} : {limits} — utilisé aujourd’hui {today}, ce mois-ci {month}`,
  "notice.budget_reached": (p: Params) =>
    `:warning: Le budget ${periodFr(p)} ${p.scope === "user" ? "de {who}" : "du projet {who}"} est atteint : {used} jetons utilisés sur {budget}. Les nouvelles demandes sont refusées jusqu’au {resets} (un tour en cours va jusqu’au bout). \`/codex budget set\` le relève.`,
  "home.usage.title": "Consommation des 7 derniers jours",
  "home.usage.none": "Aucun tour terminé ces 7 derniers jours.",
  "cli.about.usage": "Consommation par projet, personne et jour (`--json` pour les chiffres bruts).",
  "cli.about.budget": "Budgets en jetons par projet et par personne (admins).",
  "cli.budget.none": "aucun budget",
} satisfies Record<string, Message>;
