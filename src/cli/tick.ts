import { args, cliEngine, out } from "./context.js";

/** `codexpi tick`: one tick now, printed as JSON; answers standby while `serve` coordinates. */
export async function run(argv: string[]): Promise<number> {
  args(argv, {}, 0);
  const { db, engine } = await cliEngine();
  try {
    const result = await engine.tick();
    out(JSON.stringify(result));
    return 0;
  } finally {
    await engine.releaseLease();
    await db.destroy();
  }
}
