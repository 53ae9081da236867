// The public face of engine/text: what other folders of the engine (and its API) use of it.

export { capText } from "./cap.js";
export { quote } from "./quote.js";
