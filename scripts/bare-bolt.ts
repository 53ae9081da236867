// The baseline of bench-ack: a Bolt app in HTTP mode whose /codex listener only acks.
//   node dist/scripts/bare-bolt.js <port> <signing-secret>
import { App, HTTPReceiver, LogLevel } from "@slack/bolt";

const [port, secret] = process.argv.slice(2);
const receiver = new HTTPReceiver({
  signingSecret: secret as string,
  endpoints: "/slack/events",
  logLevel: LogLevel.ERROR,
});
const app = new App({
  token: "xoxb-bare",
  receiver,
  botId: "BBARE",
  botUserId: "UBARE",
  tokenVerificationEnabled: false,
  logLevel: LogLevel.ERROR,
});
app.command("/codex", async ({ ack }) => {
  await ack();
});
await receiver.start({ port: Number(port), host: "127.0.0.1" });
process.stdout.write("ready\n");
process.on("SIGTERM", () => void receiver.stop().then(() => process.exit(0)));
