import { EngineError } from "../errors.js";
import type { Project } from "../schema.js";
import { allowedModels, type RequestOptions } from "./requestOptions.js";

// DESIGN "Settings resolve narrowest first": a request's own options, then the settings of the
// place it was written in (a Slack channel's, which the front end keeps and passes), then the
// project's defaults, always within what the project allows. The engine never knows what the
// place is: only that its settings are for one project.

/** The longest standing instructions a place may give (they reach every turn of its conversations). */
export const MAX_PLACE_INSTRUCTIONS = 2000;

/** A place's settings for the requests written there, for one project (null fields: not set). */
export interface PlaceSettings {
  /** The project they are for: a request in another project ignores them. */
  projectId: string;
  model: string | null;
  effort: string | null;
  instructions: string | null;
}

/** What a conversation starts with: its options, and its standing instructions (null: none). */
export interface ResolvedSettings {
  options: RequestOptions;
  instructions: string | null;
}

const EFFORTS: readonly string[] = ["low", "medium", "high"];

/**
 * The request's options over the place's settings, for `project`. A place's model the project no
 * longer allows is refused, naming the place's setting (the person did not write it), unless the
 * request names its own model: silently running another model would surprise the channel.
 */
export function resolveSettings(
  project: Pick<Project, "id" | "name" | "allowed_models">,
  requested: RequestOptions,
  place: PlaceSettings | null | undefined,
): ResolvedSettings {
  if (!place || place.projectId !== project.id) return { options: requested, instructions: null };
  const model = requested.model ?? place.model;
  if (requested.model === null && place.model !== null && !allowedModels(project).includes(place.model))
    throw new EngineError("invalid", "channel_model_not_allowed", {
      model: place.model,
      name: project.name,
      allowed: allowedModels(project).join(", "),
    });
  const placeEffort = place.effort !== null && EFFORTS.includes(place.effort) ? place.effort : null;
  const effort = (requested.effort ?? placeEffort) as RequestOptions["effort"];
  const instructions = place.instructions?.trim().slice(0, MAX_PLACE_INSTRUCTIONS) || null;
  return { options: { ...requested, model, effort }, instructions };
}
