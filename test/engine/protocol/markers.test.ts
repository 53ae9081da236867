import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  MARKER_KEYWORDS,
  MAX_DECISION_OPTIONS,
  findMarkers,
  parseDecisionRequest,
  parseSelfRepair,
  parseSpecialistCall,
  parseSpecialistReady,
  parseSupervision,
  withoutRememberMarker,
} from "../../../src/engine/protocol/markers.js";

function options(count: number): { id: string; label: string }[] {
  return Array.from({ length: count }, (_, i) => ({ id: `o${i}`, label: `Option ${i}` }));
}

function decisionMarker(payload: Record<string, unknown>): string {
  return `CODEXPI_DECISION ${JSON.stringify(payload)}`;
}

describe("supervision marker", () => {
  it("S-PRO-01: parses the seed's verdict after a report", () => {
    const verdict = parseSupervision(
      'Rapport\nCODEXPI_SUPERVISION {"decision":"correct","feedback":"Rejouer les tests"}',
    );
    expect(verdict).toEqual({ decision: "correct", feedback: "Rejouer les tests" });
  });

  it("S-PRO-01: accepts approve and block", () => {
    expect(parseSupervision('CODEXPI_SUPERVISION {"decision":"approve","feedback":"Plan valide"}')).toEqual({
      decision: "approve",
      feedback: "Plan valide",
    });
    expect(
      parseSupervision('CODEXPI_SUPERVISION {"decision":"block","feedback":"Canal manquant"}')?.decision,
    ).toBe("block");
  });

  it("S-PRO-01: text without the marker is no verdict", () => {
    expect(parseSupervision("approuvé sans marqueur")).toBeNull();
  });

  it("S-PRO-01: an unknown decision, a missing feedback or a non-string feedback is no verdict", () => {
    expect(parseSupervision('CODEXPI_SUPERVISION {"decision":"approved","feedback":"ok"}')).toBeNull();
    expect(parseSupervision('CODEXPI_SUPERVISION {"decision":"approve"}')).toBeNull();
    expect(parseSupervision('CODEXPI_SUPERVISION {"decision":"approve","feedback":42}')).toBeNull();
  });

  it("S-PRO-01: the keyword without a JSON object, or with broken JSON, is no verdict", () => {
    expect(parseSupervision("CODEXPI_SUPERVISION approve")).toBeNull();
    expect(parseSupervision('CODEXPI_SUPERVISION {"decision":"approve","feedback":"ok"')).toBeNull();
    expect(parseSupervision('CODEXPI_SUPERVISION ["approve"]')).toBeNull();
  });

  it("S-PRO-01: the keyword must stand alone, not inside a longer identifier", () => {
    expect(parseSupervision('MY_CODEXPI_SUPERVISION {"decision":"approve","feedback":"ok"}')).toBeNull();
    expect(parseSupervision('CODEXPI_SUPERVISION_V2 {"decision":"approve","feedback":"ok"}')).toBeNull();
  });

  it("S-PRO-01: the last valid marker wins", () => {
    const text = [
      'Brouillon : CODEXPI_SUPERVISION {"decision":"approve","feedback":"Premier avis"}',
      'Finalement : CODEXPI_SUPERVISION {"decision":"correct","feedback":"Ajouter la mesure"}',
    ].join("\n");
    expect(parseSupervision(text)).toEqual({ decision: "correct", feedback: "Ajouter la mesure" });
  });

  it("S-PRO-01: a later invalid marker does not hide an earlier valid one", () => {
    const text = [
      'CODEXPI_SUPERVISION {"decision":"block","feedback":"Secret requis"}',
      'CODEXPI_SUPERVISION {"decision":"ignore","feedback":"?"}',
      "CODEXPI_SUPERVISION {not json}",
    ].join("\n");
    expect(parseSupervision(text)).toEqual({ decision: "block", feedback: "Secret requis" });
  });

  it("S-PRO-01: invalid JSON followed by a valid marker yields the valid one", () => {
    const text =
      'CODEXPI_SUPERVISION {decision: approve}\nCODEXPI_SUPERVISION {"decision":"approve","feedback":"Ordre validé"}';
    expect(parseSupervision(text)).toEqual({ decision: "approve", feedback: "Ordre validé" });
  });

  // Was "reads a marker inside a markdown code fence": a keyword inside a fence is now quoted text
  // (security finding 9, DESIGN "Markers"); the fenced JSON after an outside keyword still counts.
  it("S-PRO-01: a verdict written inside a markdown code fence is quoted text, not a verdict", () => {
    const text = [
      "Synthèse de revue.",
      "```json",
      "CODEXPI_SUPERVISION {",
      '  "decision": "correct",',
      '  "feedback": "Rejouer les tests"',
      "}",
      "```",
    ].join("\n");
    expect(parseSupervision(text)).toBeNull();
    // Positive control: the same verdict spanning lines, outside the fence, counts.
    expect(parseSupervision(text.replace("```json\n", "").replace(/\n```$/, ""))).toEqual({
      decision: "correct",
      feedback: "Rejouer les tests",
    });
  });

  it("S-PRO-01: reads JSON fenced after the keyword, or after an inline-code keyword", () => {
    const fenced = 'CODEXPI_SUPERVISION\n```json\n{"decision":"approve","feedback":"ok"}\n```';
    expect(parseSupervision(fenced)).toEqual({ decision: "approve", feedback: "ok" });
    const inline = '`CODEXPI_SUPERVISION` {"decision":"block","feedback":"non"}';
    expect(parseSupervision(inline)).toEqual({ decision: "block", feedback: "non" });
  });

  it("S-PRO-01: braces and quotes inside JSON strings do not end the object", () => {
    const text =
      'CODEXPI_SUPERVISION {"decision":"correct","feedback":"Fermer l\'accolade } puis {\\"x\\": 1} et \\\\"}';
    expect(parseSupervision(text)).toEqual({
      decision: "correct",
      feedback: 'Fermer l\'accolade } puis {"x": 1} et \\',
    });
  });

  it("S-PRO-01: trims the feedback and ignores extra fields", () => {
    const verdict = parseSupervision(
      'CODEXPI_SUPERVISION {"decision":"approve","feedback":"  Plan valide \\n","extra":{"a":{}}}',
    );
    expect(verdict).toEqual({ decision: "approve", feedback: "Plan valide" });
  });
});

describe("self-repair marker", () => {
  it("S-PRO-02: parses the seed's verdict with its prompt addendum", () => {
    const verdict = parseSelfRepair(
      'Rapport\nCODEXPI_SELF_REPAIR {"decision":"fixed","feedback":"Plan corrigé",' +
        '"prompt_addendum":"Accepter une maintenance bornée."}',
    );
    expect(verdict).toEqual({
      decision: "fixed",
      feedback: "Plan corrigé",
      prompt_addendum: "Accepter une maintenance bornée.",
    });
  });

  it("S-PRO-02: parses needs_user with an empty addendum", () => {
    const verdict = parseSelfRepair(
      'CODEXPI_SELF_REPAIR {"decision":"needs_user","feedback":"Un secret externe doit être fourni","prompt_addendum":""}',
    );
    expect(verdict).toEqual({
      decision: "needs_user",
      feedback: "Un secret externe doit être fourni",
      prompt_addendum: "",
    });
  });

  it("S-PRO-02: any other decision is no verdict", () => {
    expect(parseSelfRepair('CODEXPI_SELF_REPAIR {"decision":"ignore"}')).toBeNull();
    expect(
      parseSelfRepair('CODEXPI_SELF_REPAIR {"decision":"ignore","feedback":"x","prompt_addendum":""}'),
    ).toBeNull();
  });

  it("S-PRO-02: a missing feedback or addendum is no verdict", () => {
    expect(parseSelfRepair('CODEXPI_SELF_REPAIR {"decision":"fixed","prompt_addendum":""}')).toBeNull();
    expect(parseSelfRepair('CODEXPI_SELF_REPAIR {"decision":"fixed","feedback":"ok"}')).toBeNull();
  });

  it("S-PRO-02: a supervision marker is not a self-repair verdict", () => {
    expect(parseSelfRepair('CODEXPI_SUPERVISION {"decision":"approve","feedback":"ok"}')).toBeNull();
  });
});

describe("decision marker", () => {
  const seed =
    'CODEXPI_DECISION {"title":"Déploiement","question":"Quelle cible ?","options":[' +
    '{"id":"staging","label":"Staging"},{"id":"production","label":"Production"}],' +
    '"allow_multiple":false,"allow_custom":true}';

  it("S-PRO-03: parses the seed's decision", () => {
    expect(parseDecisionRequest(seed)).toEqual({
      title: "Déploiement",
      question: "Quelle cible ?",
      options: [
        { id: "staging", label: "Staging" },
        { id: "production", label: "Production" },
      ],
      allow_multiple: false,
      allow_custom: true,
    });
  });

  it("S-PRO-03: an empty options list is no decision", () => {
    expect(parseDecisionRequest('CODEXPI_DECISION {"question":"Sans choix","options":[]}')).toBeNull();
  });

  it("S-PRO-03: the title defaults to the question and the flags to false", () => {
    const decision = parseDecisionRequest(
      'CODEXPI_DECISION {"question":" Quelle option ? ","options":[{"id":"a","label":"A"}]}',
    );
    expect(decision).toEqual({
      title: "Quelle option ?",
      question: "Quelle option ?",
      options: [{ id: "a", label: "A" }],
      allow_multiple: false,
      allow_custom: false,
    });
    expect(
      parseDecisionRequest(decisionMarker({ title: "  ", question: "Q ?", options: options(1) }))?.title,
    ).toBe("Q ?");
  });

  it(`S-PRO-03: a decision needs a question and 1 to ${MAX_DECISION_OPTIONS} options`, () => {
    expect(
      parseDecisionRequest(decisionMarker({ question: "Q ?", options: options(25) }))?.options,
    ).toHaveLength(25);
    expect(parseDecisionRequest(decisionMarker({ question: "Q ?", options: options(26) }))).toBeNull();
    expect(parseDecisionRequest(decisionMarker({ options: options(2) }))).toBeNull();
    expect(parseDecisionRequest(decisionMarker({ question: "   ", options: options(2) }))).toBeNull();
    expect(parseDecisionRequest(decisionMarker({ question: "Q ?" }))).toBeNull();
  });

  it("S-PRO-03: option ids must be unique and non-empty, labels non-empty", () => {
    const duplicate = [
      { id: "a", label: "A" },
      { id: "a", label: "Autre A" },
    ];
    expect(parseDecisionRequest(decisionMarker({ question: "Q ?", options: duplicate }))).toBeNull();
    expect(
      parseDecisionRequest(decisionMarker({ question: "Q ?", options: [{ id: " ", label: "A" }] })),
    ).toBeNull();
    expect(
      parseDecisionRequest(decisionMarker({ question: "Q ?", options: [{ id: "a", label: "" }] })),
    ).toBeNull();
    expect(parseDecisionRequest(decisionMarker({ question: "Q ?", options: [{ id: "a" }] }))).toBeNull();
  });

  it("S-PRO-03: ids differing only by surrounding spaces are duplicates", () => {
    const options = [
      { id: "a", label: "A" },
      { id: " a ", label: "B" },
    ];
    expect(parseDecisionRequest(decisionMarker({ question: "Q ?", options }))).toBeNull();
  });

  it("S-PRO-03: non-boolean flags or a non-string title are no decision", () => {
    expect(
      parseDecisionRequest(decisionMarker({ question: "Q ?", options: options(2), allow_multiple: "yes" })),
    ).toBeNull();
    expect(
      parseDecisionRequest(decisionMarker({ question: "Q ?", options: options(2), title: 3 })),
    ).toBeNull();
  });

  it("S-PRO-03: the last valid decision wins over a later invalid one", () => {
    const text = `${seed}\nCorrection : CODEXPI_DECISION {"question":"Sans choix","options":[]}`;
    expect(parseDecisionRequest(text)?.title).toBe("Déploiement");
  });
});

describe("specialist call marker", () => {
  it("S-PRO-04: parses to exactly capability, task and context", () => {
    const call = parseSpecialistCall(
      'CODEXPI_SPECIALIST_CALL {"capability":"design.interface","task":"Auditer les écrans mobiles", "context":"PWA"}',
    );
    expect(call).toEqual({
      capability: "design.interface",
      task: "Auditer les écrans mobiles",
      context: "PWA",
    });
  });

  it("S-PRO-04: drops extra fields", () => {
    const call = parseSpecialistCall(
      'CODEXPI_SPECIALIST_CALL {"capability":"design.logo","task":"Produire le symbole","context":"UI","priority":9}',
    );
    expect(call).toEqual({ capability: "design.logo", task: "Produire le symbole", context: "UI" });
  });

  it("S-PRO-04: context defaults to the empty string; capability and task are required", () => {
    expect(parseSpecialistCall('CODEXPI_SPECIALIST_CALL {"capability":"design.ux","task":"Revoir"}')).toEqual(
      {
        capability: "design.ux",
        task: "Revoir",
        context: "",
      },
    );
    expect(parseSpecialistCall('CODEXPI_SPECIALIST_CALL {"task":"Revoir","context":""}')).toBeNull();
    expect(parseSpecialistCall('CODEXPI_SPECIALIST_CALL {"capability":"design.ux","task":"  "}')).toBeNull();
    expect(
      parseSpecialistCall(
        'CODEXPI_SPECIALIST_CALL {"capability":"design.ux","task":"Revoir","context":null}',
      ),
    ).toBeNull();
  });
});

describe("specialist ready marker", () => {
  it("S-PRO-05: parses the seed's readiness report", () => {
    expect(
      parseSpecialistReady('CODEXPI_SPECIALIST_READY {"summary":"Prêt","capabilities":["design.ux"]}'),
    ).toEqual({
      summary: "Prêt",
      capabilities: ["design.ux"],
    });
  });

  it("S-PRO-05: capabilities must be a list of non-empty strings", () => {
    expect(parseSpecialistReady('CODEXPI_SPECIALIST_READY {"summary":"Prêt"}')).toBeNull();
    expect(
      parseSpecialistReady('CODEXPI_SPECIALIST_READY {"summary":"Prêt","capabilities":"design.ux"}'),
    ).toBeNull();
    expect(
      parseSpecialistReady('CODEXPI_SPECIALIST_READY {"summary":"Prêt","capabilities":["design.ux",""]}'),
    ).toBeNull();
    expect(parseSpecialistReady('CODEXPI_SPECIALIST_READY {"capabilities":["design.ux"]}')).toBeNull();
  });

  it("S-PRO-05: repeated capabilities are kept once", () => {
    const ready = parseSpecialistReady(
      'CODEXPI_SPECIALIST_READY {"summary":"Prêt","capabilities":["a"," a","b"]}',
    );
    expect(ready?.capabilities).toEqual(["a", "b"]);
  });
});

describe("findMarkers", () => {
  it("S-PRO-03: reports each kind's marker from one message, null for the absent ones", () => {
    const text = [
      "J'ai besoin d'un avis et d'un spécialiste.",
      'CODEXPI_DECISION {"question":"Quelle direction ?","options":[{"id":"calme","label":"Calme"}]}',
      'CODEXPI_SPECIALIST_CALL {"capability":"design.interface","task":"Maquette","context":"PWA mobile"}',
    ].join("\n");
    const markers = findMarkers(text);
    expect(markers.decision?.options).toEqual([{ id: "calme", label: "Calme" }]);
    expect(markers.specialistCall).toEqual({
      capability: "design.interface",
      task: "Maquette",
      context: "PWA mobile",
    });
    expect(markers.supervision).toBeNull();
    expect(markers.selfRepair).toBeNull();
    expect(markers.specialistReady).toBeNull();
  });

  it("S-PRO-01: a plain message has no markers at all", () => {
    expect(Object.values(findMarkers("Maquette prête dans output/mobile-interface.svg"))).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it("S-PRO-01 to S-PRO-05: every marker keyword is listed once", () => {
    expect([...MARKER_KEYWORDS].sort()).toEqual([
      "CODEXPI_DECISION",
      "CODEXPI_REMEMBER",
      "CODEXPI_SELF_REPAIR",
      "CODEXPI_SPECIALIST_CALL",
      "CODEXPI_SPECIALIST_READY",
      "CODEXPI_SUPERVISION",
    ]);
  });
});

describe("markers in code and quotes (security finding 9)", () => {
  const payload = '{"question":"Quelle cible ?","options":[{"id":"staging","label":"Staging"}]}';
  const marker = `CODEXPI_DECISION ${payload}`;
  const expected = {
    title: "Quelle cible ?",
    question: "Quelle cible ?",
    options: [{ id: "staging", label: "Staging" }],
    allow_multiple: false,
    allow_custom: false,
  };

  it("a marker quoted in a ``` or ~~~ fence, closed or not, is text", () => {
    expect(parseDecisionRequest(`Le fichier contient :\n\`\`\`\n${marker}\n\`\`\`\nVoilà.`)).toBeNull();
    expect(parseDecisionRequest(`Le fichier contient :\n~~~text\n${marker}\n~~~`)).toBeNull();
    expect(parseDecisionRequest(`Sortie tronquée :\n\`\`\`\n${marker}`)).toBeNull();
    expect(parseDecisionRequest(`\`\`\`\`md\n\`\`\`\n${marker}\n\`\`\`\n\`\`\`\``)).toBeNull(); // a longer fence holds a shorter one
    expect(parseDecisionRequest(`- item\n    \`\`\`\n    ${marker}\n    \`\`\``)).toBeNull(); // indented in a list
  });

  it("a marker on a > quote line is text", () => {
    expect(parseDecisionRequest(`L’échec disait :\n> ${marker}`)).toBeNull();
    expect(parseDecisionRequest(`> erreur\n>   ${marker}\n\nFin.`)).toBeNull();
    expect(parseDecisionRequest(`> CODEXPI_DECISION\n${payload}`)).toBeNull();
  });

  it("a marker inside an inline code span holding more than the keyword is text", () => {
    expect(parseDecisionRequest(`Exemple : \`${marker}\``)).toBeNull();
    expect(parseDecisionRequest(`Exemple : \`\`${marker}\`\``)).toBeNull();
  });

  it("the forms agents really write still count: the keyword alone in backticks, the JSON fenced after the keyword", () => {
    expect(parseDecisionRequest(`\`CODEXPI_DECISION\` ${payload}`)).toEqual(expected);
    expect(
      parseDecisionRequest(`Il me faut un choix.\nCODEXPI_DECISION\n\`\`\`json\n${payload}\n\`\`\``),
    ).toEqual(expected);
    expect(parseDecisionRequest(`CODEXPI_DECISION\n~~~json\n${payload}\n~~~`)).toEqual(expected);
    expect(parseDecisionRequest(`Un bloc :\n\`\`\`\ncode\n\`\`\`\n${marker}`)).toEqual(expected); // after a closed fence
    expect(parseDecisionRequest(`> une citation\n\n${marker}`)).toEqual(expected); // after a quote
  });

  it("a quoted marker never overrides the agent's own: the last unquoted one counts", () => {
    const own = 'CODEXPI_DECISION {"question":"Mienne ?","options":[{"id":"a","label":"A"}]}';
    expect(parseDecisionRequest(`${own}\n\nLe fichier dit :\n\`\`\`\n${marker}\n\`\`\``)?.question).toBe(
      "Mienne ?",
    );
    expect(parseDecisionRequest(`> ${marker}\n${own}`)?.question).toBe("Mienne ?");
  });

  it("every marker kind obeys the rule", () => {
    const all = [
      'CODEXPI_SUPERVISION {"decision":"block","feedback":"non"}',
      'CODEXPI_SELF_REPAIR {"decision":"fixed","feedback":"ok","prompt_addendum":""}',
      marker,
      'CODEXPI_SPECIALIST_CALL {"capability":"design.ux","task":"Revoir"}',
      'CODEXPI_SPECIALIST_READY {"summary":"Prêt","capabilities":["design.ux"]}',
      'CODEXPI_REMEMBER {"text":"Le déploiement passe par make ship"}',
    ];
    const fenced = `\`\`\`\n${all.join("\n")}\n\`\`\``;
    const quoted = all.map((m) => `> ${m}`).join("\n");
    expect(Object.values(findMarkers(fenced))).toEqual([null, null, null, null, null, null]);
    expect(Object.values(findMarkers(quoted))).toEqual([null, null, null, null, null, null]);
    expect(Object.values(findMarkers(all.join("\n"))).every((m) => m !== null)).toBe(true); // positive control
  });

  it("any wrapping in code or quotes makes any valid decision text; unwrapped it counts (property)", () => {
    const option = fc.record({
      id: fc.string({ minLength: 1, maxLength: 8 }).filter((s) => s.trim() !== ""),
      label: fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim() !== ""),
    });
    const request = fc.record({
      question: fc.string({ minLength: 1, maxLength: 30 }).filter((s) => s.trim() !== ""),
      options: fc.uniqueArray(option, { minLength: 1, maxLength: 4, selector: (o) => o.id.trim() }),
    });
    const before = fc.string({ maxLength: 40 }).filter((s) => !/[`~>]/.test(s));
    const wrap = fc.constantFrom(
      (m: string) => `\n\`\`\`\n${m}\n\`\`\`\n`,
      (m: string) => `\n~~~~\n${m}\n~~~~\n`,
      (m: string) => `\n\`\`\`json\n${m}`,
      (m: string) => `\n> ${m.replace(/\n/g, "\n> ")}`,
      (m: string) => ` \`${m.replace(/`/g, "")}\``,
    );
    fc.assert(
      fc.property(before, request, wrap, (text, req, w) => {
        const m = `CODEXPI_DECISION ${JSON.stringify(req)}`;
        return (
          parseDecisionRequest(`${text}${w(m)}`) === null && parseDecisionRequest(`${text}\n${m}`) !== null
        );
      }),
      { numRuns: 300 },
    );
  });
});

describe("withoutRememberMarker (S-MEM-02)", () => {
  it("S-MEM-02: the answer people read loses its note proposal's marker, wrapped in code or not; a quoted or invalid one stays", () => {
    expect(withoutRememberMarker('Noted.\nCODEXPI_REMEMBER {"text": "Alice owns the API"}')).toBe("Noted.");
    expect(withoutRememberMarker('Noted.\n`CODEXPI_REMEMBER` {"text": "x"}\nBye.')).toBe("Noted.\n\nBye.");
    expect(withoutRememberMarker('Noted.\nCODEXPI_REMEMBER\n```json\n{"text": "x"}\n```')).toBe("Noted.");
    const quoted = '> CODEXPI_REMEMBER {"text": "x"}';
    expect(withoutRememberMarker(quoted)).toBe(quoted);
    const empty = 'CODEXPI_REMEMBER {"text": ""}';
    expect(withoutRememberMarker(empty)).toBe(empty);
  });
});
