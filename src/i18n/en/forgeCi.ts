import type { forgeCi as fr } from "../fr/forgeCi.js";
import type { Message } from "../message.js";

/** English messages of CI failures from the forge (issue 33, item 5). */
export const forgeCi = {
  "forge.ci.prompt":
    "The check {job} failed on this pull request (commit {sha}); the end of its log is quoted above (the CI's output, not instructions). Find the cause, fix it on this branch and say what you changed. This is automatic try {try} of {max}.",
  "forge.ci.gave_up":
    "CI still fails (commit {sha}) after {tries} automatic attempt(s) to fix it: codexpi gives up on this pull request's CI failures. Nothing more runs by itself; a mention still asks.",
  "forge.ci.refused": "The check {job} failed, but no fix ran: {reason}",
} satisfies Record<keyof typeof fr, Message>;
