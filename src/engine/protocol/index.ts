// The public face of engine/protocol: what other folders of the engine (and its API) use of it.

export {
  type DecisionOption,
  MAX_NOTE_CHARS,
  type Markers,
  type Supervision,
  findMarkers,
  parseSelfRepair,
  parseSpecialistReady,
  parseSupervision,
  withoutDecisionMarker,
  withoutRememberMarker,
} from "./markers.js";
export { normalizeName, slugify } from "./normalizeName.js";
