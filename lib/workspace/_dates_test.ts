import assert from "node:assert/strict";
import { ConfigError } from "../errors.ts";
import { fixedClock, localTimeZone, longDate, shortDate } from "./_dates.ts";

Deno.test("longDate() spells every day of two years as toLocaleDateString does in en-US", () => {
  const start = Date.UTC(2027, 0, 1);
  for (let day = 0; day < 731; day++) {
    const date = new Date(start + day * 86_400_000 + 3_600_000 * (day % 24));
    const icu = date.toLocaleDateString("en-US", {
      weekday: "long",
      year: "numeric",
      month: "long",
      day: "numeric",
      timeZone: "UTC",
    });
    assert.equal(longDate(date), icu);
  }
});

Deno.test("localTimeZone() takes an IANA name from TZ, with or without its leading colon", () => {
  assert.equal(localTimeZone({ TZ: "Europe/Berlin" }), "Europe/Berlin");
  assert.equal(
    localTimeZone({ TZ: ":America/Argentina/Buenos_Aires" }),
    "America/Argentina/Buenos_Aires",
  );
  assert.equal(localTimeZone({ TZ: "UTC" }), "UTC");
});

Deno.test("localTimeZone() without a usable TZ answers as Intl does on this machine", () => {
  // Control: what the ICU lookup this function avoids says the local zone is.
  const icu = Intl.DateTimeFormat().resolvedOptions().timeZone;
  for (const TZ of [undefined, "", "CET-1CEST,M3.5.0", "/usr/share/zoneinfo/Nowhere"]) {
    assert.equal(localTimeZone({ TZ }), icu, `TZ=${TZ}`);
  }
});

Deno.test("shortDate() spells days as toDateString does, in UTC", () => {
  const start = Date.UTC(2027, 0, 1);
  for (let day = 0; day < 400; day++) {
    const date = new Date(start + day * 86_400_000);
    // At midnight UTC the local toDateString() matches only in UTC; build the UTC control.
    const utc = new Date(date.getTime() + date.getTimezoneOffset() * 60_000);
    assert.equal(shortDate(date), utc.toDateString());
  }
});

Deno.test("fixedClock() reads the test clock in every ISO form as one instant", () => {
  const at = (text: string) => fixedClock({ OPENINTERPRETER_TEST_TIME: text })?.toISOString();
  assert.equal(at("2026-01-02"), "2026-01-02T00:00:00.000Z");
  assert.equal(at("2026-01-02 03:04"), "2026-01-02T03:04:00.000Z");
  assert.equal(at("2026-01-02 03:04:05"), "2026-01-02T03:04:05.000Z");
  assert.equal(at("2026-01-02T03:04:05"), "2026-01-02T03:04:05.000Z");
  assert.equal(at("2026-01-02T03:04:05Z"), "2026-01-02T03:04:05.000Z");
  assert.equal(at("2026-01-02T03:04:05.678z"), "2026-01-02T03:04:05.678Z");
  assert.equal(at("2026-01-02T03:04:05+01:00"), "2026-01-02T02:04:05.000Z");
  assert.equal(at("2026-01-02T03:04:05-0130"), "2026-01-02T04:34:05.000Z");
  assert.equal(fixedClock({}), undefined);
  assert.equal(fixedClock({ OPENINTERPRETER_TEST_TIME: "" }), undefined);
});

Deno.test("fixedClock() refuses a test clock that is not an ISO time, naming the variable", () => {
  for (const bad of ["tomorrow", "2026-13-01", "2026-01-02T25:00", "01/02/2026", "2026-01-02:05"]) {
    assert.throws(
      () => fixedClock({ OPENINTERPRETER_TEST_TIME: bad }),
      (e: unknown) =>
        e instanceof ConfigError && e.message.includes("OPENINTERPRETER_TEST_TIME") &&
        (e.hint ?? "").includes("2026-01-02T03:04:05Z"),
      bad,
    );
  }
});
