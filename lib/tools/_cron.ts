/**
 * Five-field cron expressions in local time ("M H DoM Mon DoW"): numbers, `*`, lists `a,b`,
 * ranges `a-b` and steps `*\/n` or `a-b/n`; day of week 0-7 (0 and 7 are Sunday). As in cron,
 * when both day of month and day of week are restricted, a day matching either one matches.
 */
import { ToolError } from "../errors.ts";

/** A parsed expression: the allowed values of each field. */
export interface CronSpec {
  minutes: Set<number>;
  hours: Set<number>;
  days: Set<number>;
  months: Set<number>;
  weekdays: Set<number>;
  anyDay: boolean;
  anyWeekday: boolean;
}

const FIELDS = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day of month", min: 1, max: 31 },
  { name: "month", min: 1, max: 12 },
  { name: "day of week", min: 0, max: 7 },
] as const;

/** Parses `expr`; a malformed one is a ToolError naming the field and the fix. */
export function parseCron(expr: string): CronSpec {
  const parts = expr.trim().split(/\s+/);
  if (parts.length !== 5) {
    throw new ToolError(
      `"${expr}" is not a 5-field cron expression (it has ${parts.length} fields)`,
      'Write "minute hour day-of-month month day-of-week", e.g. "*/5 * * * *"',
    );
  }
  const sets = parts.map((part, i) => parseField(part, FIELDS[i]));
  const weekdays = new Set([...sets[4]].map((d) => d % 7));
  return {
    minutes: sets[0],
    hours: sets[1],
    days: sets[2],
    months: sets[3],
    weekdays,
    anyDay: parts[2] === "*",
    anyWeekday: parts[4] === "*",
  };
}

function parseField(part: string, field: typeof FIELDS[number]): Set<number> {
  const out = new Set<number>();
  for (const item of part.split(",")) {
    const m = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(item);
    const bad = () =>
      new ToolError(
        `Cron ${field.name} "${item}" is not valid`,
        `Use a number from ${field.min} to ${field.max}, a range a-b, a list a,b, * or a step */n`,
      );
    if (!m) throw bad();
    const from = m[1] === "*" ? field.min : Number(m[2]);
    const to = m[1] === "*" ? field.max : m[3] !== undefined ? Number(m[3]) : from;
    const step = m[4] !== undefined ? Number(m[4]) : 1;
    const stepped = m[4] !== undefined && m[1] !== "*" && m[3] === undefined ? field.max : to;
    if (from < field.min || stepped > field.max || from > stepped || step < 1) throw bad();
    for (let v = from; v <= stepped; v += step) out.add(v);
  }
  return out;
}

function dayMatches(spec: CronSpec, d: Date): boolean {
  const dom = spec.days.has(d.getDate());
  const dow = spec.weekdays.has(d.getDay());
  if (spec.anyDay && spec.anyWeekday) return true;
  if (spec.anyDay) return dow;
  if (spec.anyWeekday) return dom;
  return dom || dow;
}

/** The first matching minute after `after` (epoch ms), or undefined within five years. */
export function nextCronTime(spec: CronSpec, after: number): number | undefined {
  const d = new Date(after);
  d.setSeconds(0, 0);
  d.setMinutes(d.getMinutes() + 1);
  const limit = after + 5 * 366 * 86_400_000;
  while (d.getTime() <= limit) {
    if (!spec.months.has(d.getMonth() + 1) || !dayMatches(spec, d)) {
      d.setDate(d.getDate() + 1);
      d.setHours(0, 0, 0, 0);
      continue;
    }
    if (!spec.hours.has(d.getHours())) {
      d.setHours(d.getHours() + 1, 0, 0, 0);
      continue;
    }
    if (spec.minutes.has(d.getMinutes())) return d.getTime();
    d.setMinutes(d.getMinutes() + 1);
  }
  return undefined;
}
