// The public face of src/metrics: Prometheus families and a registry per process (issue 21, item 4).
export { Counter, Gauge, Registry } from "./registry.js";
