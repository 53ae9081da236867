/** Messages français des options d’une demande (`model=`, `effort=`, `branch=`, issue 19). */
export const requestOptions = {
  "reason.request_option_empty": "l’option `{option}=` attend une valeur",
  "reason.request_option_repeated": "l’option `{option}=` est donnée deux fois",
  "reason.request_effort_invalid": "`effort={value}` n’existe pas : valeurs permises : {allowed}",
  "reason.request_model_none":
    "le projet {name} n’accepte pas `model={model}` : il tourne avec le modèle configuré seulement (un admin en permet d’autres : `/codex project set {name} --models a,b`)",
  "reason.request_model_not_allowed":
    "le modèle `{model}` n’est pas permis dans {name} : modèles permis : {allowed} (ou aucun `model=` pour le modèle configuré)",
  "reason.request_branch_direct":
    "le projet {name} travaille dans sa copie (mode direct) : `branch=` n’y a pas de sens, seul un projet en mode branch part d’une branche choisie",
  "reason.request_branch_missing":
    "la branche `{branch}` n’existe pas dans le dépôt de {name} : branches : {allowed}",
  "reason.project_models_invalid":
    "`{model}` n’est pas un nom de modèle (lettres, chiffres, points, tirets, soulignés, deux-points et barres obliques)",
  "conversation.option.model": "modèle `{value}`",
  "conversation.option.effort": "effort `{value}`",
  "conversation.option.branch": "base `{value}`",
  "projects.models": "modèles : {models}",
  "project.models_set": "Les demandes dans *{name}* peuvent choisir `model=` parmi : {models}.",
  "project.models_default": "Les demandes dans *{name}* tournent avec le modèle configuré seulement.",
  "cli.project.models_set": "{name} : modèles permis : {models}",
  "cli.project.models_default": "le modèle configuré seulement",
  "cli.project.models": "modèles {models}",
  "cli.error.models": "--models attend des noms séparés par des virgules, ou none",
};
