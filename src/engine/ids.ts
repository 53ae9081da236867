import { randomUUID } from "node:crypto";

/** A new opaque id for a row. */
export const newId = (): string => randomUUID();
