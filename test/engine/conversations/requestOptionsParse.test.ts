import { describe, expect, it } from "vitest";
import { parseRequestOptions } from "../../../src/engine/conversations/requestOptions.js";

// S-OPT-01: the words after the project name, read as options while they are `model=`, `effort=`
// or `branch=`; the rest is the prompt, untouched.

const none = { model: null, effort: null, branch: null };

describe("parseRequestOptions (S-OPT-01)", () => {
  const accepted: Array<
    [string, { model: string | null; effort: string | null; branch: string | null }, string]
  > = [
    ["fix the build", none, "fix the build"],
    ["model=gpt-5.6-terra fix it", { ...none, model: "gpt-5.6-terra" }, "fix it"],
    [
      "model=gpt-5.5 effort=high branch=feature do X",
      { model: "gpt-5.5", effort: "high", branch: "feature" },
      "do X",
    ],
    [
      "  branch=release/2.0   effort=low  go\nnow",
      { ...none, effort: "low", branch: "release/2.0" },
      "go\nnow",
    ],
    // Another key is the prompt's own text, and so is everything after it.
    ["a=b model=gpt-5.5 do X", none, "a=b model=gpt-5.5 do X"],
    ["effort=medium x=1 effort=high", { ...none, effort: "medium" }, "x=1 effort=high"],
    // Keys are lower-case words: `Model=` is text.
    ["Model=gpt-5.5 do X", none, "Model=gpt-5.5 do X"],
    // Options in the middle of a prompt are text.
    ["set effort=high in the config", none, "set effort=high in the config"],
    ["effort=high", { ...none, effort: "high" }, ""],
  ];
  it.each(accepted)("%j → options and prompt", (text, options, prompt) => {
    expect(parseRequestOptions(text)).toEqual({ ok: true, options, prompt });
  });

  const refused: Array<[string, { option: string; value: string; why: string; allowed: readonly string[] }]> =
    [
      [
        "effort=extreme do X",
        { option: "effort", value: "extreme", why: "not_allowed", allowed: ["low", "medium", "high"] },
      ],
      [
        "effort=HIGH do X",
        { option: "effort", value: "HIGH", why: "not_allowed", allowed: ["low", "medium", "high"] },
      ],
      ["model= do X", { option: "model", value: "", why: "empty", allowed: [] }],
      ["branch= do X", { option: "branch", value: "", why: "empty", allowed: [] }],
      ["model=a model=b do X", { option: "model", value: "b", why: "repeated", allowed: [] }],
    ];
  it.each(refused)("%j → refused", (text, refusal) => {
    expect(parseRequestOptions(text)).toEqual({ ok: false, refusal });
  });
});
