/**
 * The date texts of the prompt variables without ICU: `Intl` and `toLocale*String` load time-zone
 * and locale data on first use (20-30 ms at start-up), so the zone is read from `TZ` or the
 * `/etc/localtime` link first, and long dates are spelled out here in English.
 */
import { ConfigError } from "../errors.ts";

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** An IANA zone name as `TZ` or a zoneinfo path spells it (`Europe/Berlin`, `UTC`). */
const ZONE_NAME = /^(?:[A-Za-z][A-Za-z0-9_+-]*)(?:\/[A-Za-z0-9_+-]+)*$/;

/**
 * The fixed clock `OPENINTERPRETER_TEST_TIME` holds, in any ISO form: a date (`2026-01-02`,
 * midnight UTC), a date and time with a space or `T` (`2026-01-02 03:04[:05[.678]]`, UTC), or
 * either with a zone (`…Z`, `…+05:30`). Every date and time prompt variable is read from it.
 * Undefined when unset; an error naming the variable when it is set but not such a time.
 */
export function fixedClock(env: Record<string, string | undefined>): Date | undefined {
  const text = env.OPENINTERPRETER_TEST_TIME?.trim();
  if (!text) return undefined;
  const m = text.match(ISO_TIME);
  const zone = m?.[4]?.toUpperCase().replace(/^([+-]\d{2})(\d{2})$/, "$1:$2") ?? "Z";
  const date = m ? new Date(`${m[1]}T${m[2] ?? "00:00"}${m[3] ?? ""}${zone}`) : undefined;
  if (!date || Number.isNaN(date.getTime())) {
    throw new ConfigError(`OPENINTERPRETER_TEST_TIME="${text}" is not an ISO date or time`, {
      hint: "Use a form such as 2026-01-02, 2026-01-02 03:04:05, 2026-01-02T03:04:05Z or " +
        "2026-01-02T03:04:05+01:00, or unset it to use the real clock",
    });
  }
  return date;
}

/** Date, then optionally time (`T` or a space), seconds and fraction, and a zone. */
const ISO_TIME =
  /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2})(:\d{2}(?:\.\d{1,9})?)?)?([Zz]|[+-]\d{2}:?\d{2})?$/;

/** `date` as `Tuesday, December 1, 2026`, in UTC. */
export function longDate(date: Date): string {
  return `${WEEKDAYS[date.getUTCDay()]}, ${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ` +
    `${date.getUTCFullYear()}`;
}

/** `date` as `Tue Dec 01 2026` (JavaScript's `toDateString()` form), in UTC. */
export function shortDate(date: Date): string {
  const day = String(date.getUTCDate()).padStart(2, "0");
  return `${WEEKDAYS[date.getUTCDay()].slice(0, 3)} ${MONTHS[date.getUTCMonth()].slice(0, 3)} ` +
    `${day} ${date.getUTCFullYear()}`;
}

/**
 * The local time zone's IANA name: `TZ` when it holds one, else the zone `/etc/localtime` links
 * to (Linux and macOS), else what `Intl` resolves (Windows, or a copied zone file).
 */
export function localTimeZone(env: Record<string, string | undefined>): string {
  const tz = env.TZ?.replace(/^:/, "");
  if (tz !== undefined && ZONE_NAME.test(tz) && !tz.startsWith("/")) return tz;
  const linked = zoneOfLink();
  if (linked === undefined) return Intl.DateTimeFormat().resolvedOptions().timeZone;
  // The names Intl gives as "UTC" (its canonical name for them).
  return /^(Etc\/)?(UTC|UCT|Universal|Zulu|GMT0?|Greenwich)$/.test(linked) ? "UTC" : linked;
}

function zoneOfLink(): string | undefined {
  if (Deno.build.os === "windows") return undefined;
  try {
    const target = Deno.readLinkSync("/etc/localtime");
    const zone = target.match(/zoneinfo\/(.+)$/)?.[1];
    return zone && ZONE_NAME.test(zone) && !zone.startsWith("posix/") ? zone : undefined;
  } catch {
    return undefined;
  }
}
