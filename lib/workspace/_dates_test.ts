import assert from "node:assert/strict";
import { localTimeZone, longDate } from "./_dates.ts";

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
