// Wall-clock times in an IANA time zone and the instants they name, with Intl alone (the server and
// the Studio both read them: docs/campaigns.md#schedules). A wall time that a DST change skips is
// read with the offset before the change (02:30 on a spring-forward night is 03:30); one it repeats
// is the first of the two.

/** Whether Intl knows the zone (an IANA name such as Europe/Moscow, or UTC). */
export function isTimeZone(zone: string): boolean {
  if (!zone || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const formats = new Map<string, Intl.DateTimeFormat>();
function formatOf(zone: string): Intl.DateTimeFormat {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone: zone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" });
    formats.set(zone, f);
  }
  return f;
}

/** The zone's wall clock at an instant, as if it were UTC (ms). */
function wallOf(ms: number, zone: string): number {
  const p: Record<string, number> = {};
  for (const part of formatOf(zone).formatToParts(new Date(ms))) if (part.type !== "literal") p[part.type] = Number(part.value);
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
}

/** The zone's offset from UTC at an instant, in ms (Moscow: +3 h). */
export const offsetAt = (ms: number, zone: string) => wallOf(Math.floor(ms / 1000) * 1000, zone) - Math.floor(ms / 1000) * 1000;

/**
 * `YYYY-MM-DDTHH:MM[:SS]` (or a date: its midnight) on the zone's clock → the instant (ISO, UTC);
 * null when it does not parse.
 */
export function wallToInstant(local: string, zone: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?)?$/.exec(local);
  if (!m) return null;
  const [y, mo, d, h = "0", mi = "0", s = "0"] = m.slice(1);
  const wall = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  const back = new Date(wall);
  // Date.UTC rolls 2026-02-30 over to March: not a date
  if (Number.isNaN(wall) || back.getUTCMonth() !== Number(mo) - 1 || back.getUTCDate() !== Number(d) || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  // the zone's offset half a day before, then the one at the instant that gives (DST moves by hours)
  const before = wall - offsetAt(wall - 43_200_000, zone);
  if (wallOf(before, zone) === wall) return new Date(before).toISOString();
  const after = wall - offsetAt(before, zone);
  if (wallOf(after, zone) === wall) return new Date(after).toISOString();
  // skipped by the change: read with the offset before it
  return new Date(before).toISOString();
}

/** An instant on the zone's clock: `YYYY-MM-DDTHH:MM` (what a datetime-local input holds). */
export function instantToWall(iso: string, zone: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return "";
  return new Date(wallOf(ms, zone)).toISOString().slice(0, 16);
}
