import { describe, expect, it } from "vitest";
import {
  actionsAt,
  allows,
  allowsMove,
  guardFor,
  sourcesOf,
  terminalStatuses,
} from "../../src/engine/stateMachine.js";

type S = "A" | "B" | "C";
const TABLE = { A: ["B", "C"], B: ["C"], C: [] } as const;
const ACTIONS = { go: ["A", "B"], stop: ["B"] } as const;

describe("state machine helpers", () => {
  it("reads a table both ways: where a status may go, and where a status may be entered from", () => {
    expect(allowsMove<S>(TABLE, "A", "B")).toBe(true);
    expect(allowsMove<S>(TABLE, "B", "A")).toBe(false);
    expect(sourcesOf<S>(TABLE, "C")).toEqual(["A", "B"]);
    expect(sourcesOf<S>(TABLE, "A")).toEqual([]);
    expect(terminalStatuses<S>(TABLE)).toEqual(["C"]);
  });

  it("guards a move on the table's from-states, or on the caller's narrower list, and refuses a list the table does not allow", () => {
    expect(guardFor<S>("x", TABLE, "C")).toEqual(["A", "B"]);
    expect(guardFor<S>("x", TABLE, "C", ["B"])).toEqual(["B"]); // control: a legal narrower list passes
    expect(() => guardFor<S>("x", TABLE, "A", ["C"])).toThrow("x: C → A is not a transition");
  });

  it("answers which actions a status allows", () => {
    expect(actionsAt<S, "go" | "stop">(ACTIONS, "B")).toEqual(["go", "stop"]);
    expect(actionsAt<S, "go" | "stop">(ACTIONS, "C")).toEqual([]);
    expect(allows<S, "go" | "stop">(ACTIONS, "A", "go")).toBe(true);
    expect(allows<S, "go" | "stop">(ACTIONS, "A", "stop")).toBe(false);
  });
});
