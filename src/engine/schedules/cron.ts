// A small five-field cron (minute hour day-of-month month day-of-week) evaluated in a time zone
// through Intl, so that "0 9 * * 1-5" in Europe/Paris means 9:00 on the Paris clock whatever the
// server's zone. node-cron (the tick) exposes no parser nor next-run computation of its own, and
// no other cron package is installed: this one is small, pure and tested (test/engine/schedules).

/** A parsed cron expression: the allowed values of each field. */
export interface CronSpec {
  minutes: ReadonlySet<number>;
  hours: ReadonlySet<number>;
  days: ReadonlySet<number>;
  months: ReadonlySet<number>;
  weekdays: ReadonlySet<number>;
  /** Whether day-of-month / day-of-week were restricted (both restricted: either matches, as in Vixie cron). */
  daysRestricted: boolean;
  weekdaysRestricted: boolean;
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const WEEKDAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];
const ALIASES: Record<string, string> = {
  "@hourly": "0 * * * *",
  "@daily": "0 0 * * *",
  "@midnight": "0 0 * * *",
  "@weekly": "0 0 * * 0",
  "@monthly": "0 0 1 * *",
  "@yearly": "0 0 1 1 *",
  "@annually": "0 0 1 1 *",
};

interface FieldRule {
  min: number;
  max: number;
  names?: string[];
  /** The first name's value (months start at 1, weekdays at 0). */
  nameBase?: number;
}

const FIELDS: FieldRule[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTHS, nameBase: 1 },
  // 7 is Sunday too, folded into 0 below.
  { min: 0, max: 7, names: WEEKDAYS, nameBase: 0 },
];

/** Why an expression was refused (a catalog reason: `schedule_cron_invalid`). */
export class CronError extends Error {
  override name = "CronError";
}

function fieldValue(token: string, rule: FieldRule): number {
  const named = rule.names?.indexOf(token.toLowerCase()) ?? -1;
  const n = named >= 0 ? named + (rule.nameBase ?? 0) : /^\d+$/.test(token) ? Number(token) : Number.NaN;
  if (!Number.isInteger(n) || n < rule.min || n > rule.max) throw new CronError(`"${token}" is out of range`);
  return n;
}

function parseField(text: string, rule: FieldRule): Set<number> {
  const out = new Set<number>();
  for (const part of text.split(",")) {
    const m = /^(\*|[^-/]+(?:-[^-/]+)?)(?:\/(\d+))?$/.exec(part);
    if (!m) throw new CronError(`"${part}" is not a cron field`);
    const [, range, stepText] = m;
    const step = stepText === undefined ? 1 : Number(stepText);
    if (step < 1) throw new CronError(`"${part}": a step must be at least 1`);
    let lo: number;
    let hi: number;
    if (range === "*") [lo, hi] = [rule.min, rule.max];
    else {
      const [a, b] = (range as string).split("-");
      lo = fieldValue(a as string, rule);
      // `5/15` means from 5 to the end, every 15.
      hi = b !== undefined ? fieldValue(b, rule) : stepText !== undefined ? rule.max : lo;
    }
    if (lo > hi) throw new CronError(`"${part}": the range runs backwards`);
    for (let v = lo; v <= hi; v += step) out.add(v);
  }
  return out;
}

/** Parses five fields (or an @alias); throws CronError with what is wrong. */
export function parseCron(expression: string): CronSpec {
  const text = ALIASES[expression.trim().toLowerCase()] ?? expression.trim();
  const parts = text.split(/\s+/);
  if (parts.length !== 5) throw new CronError(`expected 5 fields, got ${parts.length}`);
  const [minutes, hours, days, months, weekdays] = parts.map((p, i) => parseField(p, FIELDS[i] as FieldRule));
  const dow = weekdays as Set<number>;
  if (dow.has(7)) {
    dow.delete(7);
    dow.add(0);
  }
  return {
    minutes: minutes as Set<number>,
    hours: hours as Set<number>,
    days: days as Set<number>,
    months: months as Set<number>,
    weekdays: dow,
    daysRestricted: (parts[2] as string) !== "*",
    weekdaysRestricted: (parts[4] as string) !== "*",
  };
}

/** Whether `tz` is an IANA time zone this Node knows. */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

interface WallClock {
  month: number;
  day: number;
  weekday: number;
  hour: number;
  minute: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function wallClock(at: number, tz: string): WallClock {
  let f = formats.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: tz,
      hourCycle: "h23",
      month: "numeric",
      day: "numeric",
      weekday: "short",
      hour: "numeric",
      minute: "numeric",
    });
    formats.set(tz, f);
  }
  const parts = Object.fromEntries(f.formatToParts(new Date(at)).map((p) => [p.type, p.value]));
  return {
    month: Number(parts.month),
    day: Number(parts.day),
    weekday: WEEKDAYS.indexOf(String(parts.weekday).toLowerCase().slice(0, 3)),
    hour: Number(parts.hour) % 24,
    minute: Number(parts.minute),
  };
}

function dayMatches(spec: CronSpec, w: WallClock): boolean {
  const dom = spec.days.has(w.day);
  const dow = spec.weekdays.has(w.weekday);
  if (spec.daysRestricted && spec.weekdaysRestricted) return dom || dow;
  return dom && dow;
}

const MINUTE = 60_000;
/** How far ahead a next firing is looked for (an impossible date, 30 February, has none). */
const HORIZON_MS = 5 * 366 * 24 * 3600_000;

/**
 * The first minute strictly after `after` (epoch ms) whose wall clock in `tz` matches, or null
 * within five years. A wall time a DST change skips does not occur that day. Jumps skip whole
 * days and hours that cannot match, an hour short (so that a DST change never jumps past one).
 */
export function nextFire(spec: CronSpec, tz: string, after: number): number | null {
  let t = Math.floor(after / MINUTE) * MINUTE + MINUTE;
  const end = after + HORIZON_MS;
  while (t <= end) {
    const w = wallClock(t, tz);
    if (!spec.months.has(w.month) || !dayMatches(spec, w)) {
      const left = 24 * 60 - (w.hour * 60 + w.minute);
      // An hour short of midnight (a DST change later today must not carry us past tomorrow's
      // first hour), then the rest.
      t += (left > 60 ? left - 60 : left) * MINUTE;
    } else if (!spec.hours.has(w.hour)) t += Math.max(1, 60 - w.minute) * MINUTE;
    else if (!spec.minutes.has(w.minute)) t += MINUTE;
    else return t;
  }
  return null;
}
