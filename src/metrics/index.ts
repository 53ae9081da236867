// The public face of src/metrics: Prometheus families and a registry per process (issue 21, item
// 4), from prom-client. Each process (and each test's engine) builds its own Registry, never
// prom-client's global one, so two engines in one test worker never collide.
export { Counter, Gauge, Registry } from "prom-client";
