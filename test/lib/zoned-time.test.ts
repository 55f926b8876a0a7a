// Wall-clock times in a time zone and their instants (src/lib/zoned-time.ts): what a campaign's
// schedule is typed and shown in (docs/campaigns.md#schedules), across DST changes both ways.
import { describe, expect, test } from "bun:test";
import { instantToWall, isTimeZone, offsetAt, wallToInstant } from "../../src/lib/zoned-time";

describe("zoned wall times", () => {
  test("a fixed-offset zone and UTC", () => {
    expect(wallToInstant("2026-12-01T10:00", "Europe/Moscow")).toBe("2026-12-01T07:00:00.000Z");
    expect(instantToWall("2026-12-01T07:00:00.000Z", "Europe/Moscow")).toBe("2026-12-01T10:00");
    expect(wallToInstant("2026-12-01T10:00", "UTC")).toBe("2026-12-01T10:00:00.000Z");
    expect(wallToInstant("2026-12-01", "Asia/Tokyo")).toBe("2026-11-30T15:00:00.000Z");
    expect(offsetAt(Date.parse("2026-06-01T00:00:00Z"), "Asia/Kolkata")).toBe(5.5 * 3_600_000);
  });

  test("a DST zone on both sides of a change: each side its own offset", () => {
    // New York: EST (-5) in January, EDT (-4) in July
    expect(wallToInstant("2026-01-15T10:00", "America/New_York")).toBe("2026-01-15T15:00:00.000Z");
    expect(wallToInstant("2026-07-15T10:00", "America/New_York")).toBe("2026-07-15T14:00:00.000Z");
    // Berlin springs forward at 02:00 on 2026-03-29: just before and just after the change
    expect(wallToInstant("2026-03-29T01:30", "Europe/Berlin")).toBe("2026-03-29T00:30:00.000Z");
    expect(wallToInstant("2026-03-29T03:30", "Europe/Berlin")).toBe("2026-03-29T01:30:00.000Z");
    // a wall time the change skips reads with the offset before it (02:30 CET = 03:30 CEST)
    expect(wallToInstant("2026-03-29T02:30", "Europe/Berlin")).toBe("2026-03-29T01:30:00.000Z");
    expect(instantToWall("2026-03-29T01:30:00.000Z", "Europe/Berlin")).toBe("2026-03-29T03:30");
    // Berlin falls back at 03:00 on 2026-10-25: 02:30 happens twice, the first is taken
    expect(wallToInstant("2026-10-25T02:30", "Europe/Berlin")).toBe("2026-10-25T00:30:00.000Z");
    expect(wallToInstant("2026-10-25T03:30", "Europe/Berlin")).toBe("2026-10-25T02:30:00.000Z");
    // round trips across the year
    for (const wall of ["2026-01-01T00:00", "2026-03-28T23:59", "2026-03-29T04:00", "2026-10-24T12:00", "2026-10-25T04:00", "2026-12-31T23:59"])
      expect(instantToWall(wallToInstant(wall, "Europe/Berlin")!, "Europe/Berlin")).toBe(wall);
  });

  test("bad input", () => {
    expect(isTimeZone("Europe/Moscow")).toBe(true);
    expect(isTimeZone("UTC")).toBe(true);
    for (const bad of ["", "Mars/Olympus", "Europe/Moscow; DROP", "x".repeat(65)]) expect(isTimeZone(bad)).toBe(false);
    for (const bad of ["2026-02-30T10:00", "2026-13-01T00:00", "2026-01-01T24:00", "tomorrow", "2026-01-01T10:00Z"]) expect(wallToInstant(bad, "UTC")).toBeNull();
    expect(instantToWall("nope", "UTC")).toBe("");
  });
});
