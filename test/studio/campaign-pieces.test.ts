// The Campaigns tab's pure pieces (web/src/pages/project/campaigns): the users export read for the
// audience's choices and sample users, a sample user's values in the preview (escaped for the
// format, the user's own variables before the built-in names), the recipients CSV (quoted, formulas
// guarded), typed ids, the schedule time in UTC, failure reasons, and the button rows round trip.
import { describe, expect, test } from "bun:test";
import { draftsOf, rowsOf } from "../../web/src/pages/project/dialogs/MessageParts";
import { idsOf } from "../../web/src/pages/project/campaigns/AudienceStep";
import { isoToZoned, zonedToIso } from "../../web/src/pages/project/campaigns/bits";
import { parseCsv, peopleOf } from "../../web/src/pages/project/campaigns/people";
import { recipientsCsv } from "../../web/src/pages/project/campaigns/Recipients";
import { renderFor } from "../../web/src/pages/project/campaigns/render";

const HEAD = "id,first_name,last_name,username,language,premium,blocked,source,referrer_id,tags,first_seen_at,last_seen_at,messages_in,messages_out,city";

describe("the users export, read for the wizard", () => {
  test("quoted cells with commas, quotes and line breaks come back whole", () => {
    expect(parseCsv('a,"b,c","say ""hi""","two\r\nlines"\r\nx,y,,z\r\n')).toEqual([["a", "b,c", 'say "hi"', "two\r\nlines"], ["x", "y", "", "z"]]);
    expect(parseCsv("a,b\nc,d")).toEqual([["a", "b"], ["c", "d"]]);
  });

  test("languages, tags and sources that exist, sorted and once each; blocked users are no samples", () => {
    const csv = [
      HEAD,
      "1,Ann,,ann,en,0,0,ads,,vip;beta,,,1,1,Rome",
      "2,Bob,,,ru,0,1,'-promo,,vip,,,0,0,",
      '3,"Eve, the spy",,,en,1,0,,,"",,,2,2,',
      ",,,,xx,0,0,ghost,,ghost,,,0,0,",
    ].join("\r\n") + "\r\n";
    const p = peopleOf(csv);
    expect(p.languages).toEqual(["en", "ru"]);
    expect(p.tags).toEqual(["beta", "vip"]);
    // the export's formula guard (a leading ') is taken off again
    expect(p.sources).toEqual(["-promo", "ads"]);
    expect(p.users.map((u) => u.userId)).toEqual(["1", "3"]);
    expect(p.users[1]!.firstName).toBe("Eve, the spy");
  });

  test("an export without users offers nothing", () => {
    expect(peopleOf(HEAD + "\r\n")).toEqual({ languages: [], tags: [], sources: [], users: [] });
    expect(peopleOf("")).toEqual({ languages: [], tags: [], sources: [], users: [] });
  });
});

describe("the preview's values", () => {
  const ann = { userId: "7", firstName: "Ann", userName: "ann", variables: { city: "Rome", first_name: "Annie", score: 3, list: ["a", "b"] } };

  test("the user's own variables win over the built-in names; a missing one is empty", () => {
    expect(renderFor(ann, "Hi {first_name} from {city}! id {user_id}, @{username}, {score} {list} [{nope}]", "none")).toBe("Hi Annie from Rome! id 7, @ann, 3 a, b []");
    expect(renderFor({ userId: "8", firstName: "Bob" }, "Hi {first_name}", "none")).toBe("Hi Bob");
  });

  test("values are escaped for the text's format, so a name cannot add formatting", () => {
    const evil = { userId: "9", firstName: "<b>x</b> & *y*" };
    expect(renderFor(evil, "<i>{first_name}</i>", "html")).toBe("<i>&lt;b&gt;x&lt;/b&gt; &amp; *y*</i>");
    expect(renderFor(evil, "{first_name}", "markdown")).toBe("<b>x</b> & \\*y\\*");
  });

  test("without a sample user the text stays as written", () => {
    expect(renderFor(null, "Hi {first_name}", "none")).toBe("Hi {first_name}");
  });
});

describe("the recipients CSV", () => {
  test("a header, CRLF lines, quoted cells, formula cells guarded", () => {
    const csv = recipientsCsv([
      { userId: "1", status: "sent", error: null, sentAt: "2026-01-02T03:04:05.000Z" },
      { userId: "2", status: "failed", error: "Forbidden: bot was blocked, by the user", sentAt: null },
      { userId: "3", status: "failed", error: "=HYPERLINK(\"x\")", sentAt: null },
    ]);
    expect(csv.split("\r\n")).toEqual([
      "user_id,status,error,sent_at",
      "1,sent,,2026-01-02T03:04:05.000Z",
      '2,failed,"Forbidden: bot was blocked, by the user",',
      `3,failed,"'=HYPERLINK(""x"")",`,
      "",
    ]);
    // read back by the shared reader (src/lib/csv.ts), the guard comes off again: a round trip
    expect(parseCsv(csv)[3]).toEqual(["3", "failed", `=HYPERLINK("x")`, ""]);
  });
});

describe("small conversions", () => {
  test("typed ids: digits however separated, once each", () => {
    expect(idsOf("12, 34\n56 12;x #100")).toEqual(["12", "34", "56", "100"]);
    expect(idsOf("none")).toEqual([]);
  });

  test("a schedule time is read in UTC and refused when malformed", () => {
    expect(zonedToIso("2030-05-06T07:08")).toBe("2030-05-06T07:08:00.000Z");
    expect(isoToZoned("2030-05-06T07:08:00.000Z")).toBe("2030-05-06T07:08");
    for (const bad of ["", "2030-05-06", "2030-13-45T99:99", "tomorrow"]) expect(zonedToIso(bad)).toBeNull();
  });

  test("button rows and their drafts round trip", () => {
    const rows = [[{ text: "Site", url: "https://example.com" }, { text: "Go", goto: "n1" }], [{ text: "Again", goto: "n2" }]];
    expect(rowsOf(draftsOf(rows))).toEqual(rows);
    expect(draftsOf(undefined)).toEqual([]);
  });
});
