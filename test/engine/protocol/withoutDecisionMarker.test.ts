import { describe, expect, it } from "vitest";
import { withoutDecisionMarker } from "../../../src/engine/protocol/markers.js";

const JSON_ = '{"question":"Quelle cible ?","options":[{"id":"a","label":"A"}]}';

describe("withoutDecisionMarker", () => {
  it("keeps the text before a valid decision marker and drops the marker", () => {
    expect(withoutDecisionMarker(`Je peux continuer.\nCODEXPI_DECISION ${JSON_}`)).toBe("Je peux continuer.");
    expect(withoutDecisionMarker(`Avant.\n\`CODEXPI_DECISION\` ${JSON_}`)).toBe("Avant.");
  });

  it("leaves a text with no valid marker unchanged: quoted in code, invalid JSON, or none", () => {
    const quoted = `Exemple :\n\`\`\`\nCODEXPI_DECISION ${JSON_}\n\`\`\``;
    expect(withoutDecisionMarker(quoted)).toBe(quoted);
    expect(withoutDecisionMarker('Texte\nCODEXPI_DECISION {"question":""}')).toBe(
      'Texte\nCODEXPI_DECISION {"question":""}',
    );
    expect(withoutDecisionMarker("Rien à décider.")).toBe("Rien à décider.");
  });
});
