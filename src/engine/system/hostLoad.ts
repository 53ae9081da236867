import fs from "node:fs";
import os from "node:os";

/** Readings of the host, as percentages; a port so tests can inject fixed values. */
export interface HostLoad {
  /** 1-minute load average relative to the number of cores, in percent. */
  loadPercent(): number;
  /** Memory in use (total minus available), in percent. */
  memoryPercent(): number;
  /** Local hour of day (0-23), for the background window. */
  localHour(now: number): number;
}

// os.cpus() reads and parses every core's details: the count does not change, read it once.
const cores = Math.max(1, os.availableParallelism?.() ?? os.cpus().length);

/** Reads the real host. MemAvailable, not MemFree: page cache is reclaimable and not "used". */
export const systemHostLoad: HostLoad = {
  loadPercent: () => ((os.loadavg()[0] ?? 0) / cores) * 100,
  memoryPercent: () => {
    const total = os.totalmem();
    const available = memAvailable() ?? os.freemem();
    return total > 0 ? ((total - available) / total) * 100 : 0;
  },
  localHour: (now) => new Date(now).getHours(),
};

function memAvailable(): number | undefined {
  try {
    const m = /^MemAvailable:\s+(\d+) kB/m.exec(fs.readFileSync("/proc/meminfo", "utf8"));
    return m?.[1] ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Fixed readings for tests. */
export function fixedHostLoad(load = 0, memory = 0, hour = 12): HostLoad {
  return { loadPercent: () => load, memoryPercent: () => memory, localHour: () => hour };
}
