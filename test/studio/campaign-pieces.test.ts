// The Campaigns tab's pure pieces (web/src/pages/project/campaigns): the users' facets and sample
// users for the audience's choices, a sample user's values in the preview (escaped for the
// format, the user's own variables before the built-in names), the recipients CSV (quoted, formulas
// guarded), typed ids, the schedule time in UTC, failure reasons, and the button rows round trip.
import { describe, expect, test } from "bun:test";
import { draftsOf, rowsOf } from "../../web/src/pages/project/dialogs/MessageParts";
import { idsOf } from "../../web/src/pages/project/campaigns/AudienceStep";
import { isoToZoned, zonedToIso } from "../../web/src/pages/project/campaigns/bits";
import { peopleOf } from "../../web/src/pages/project/campaigns/people";
import { recipientsCsvUrl } from "../../web/src/pages/project/campaigns/api";
import { renderFor } from "../../web/src/pages/project/campaigns/render";

describe("the users' facets and sample users, for the wizard", () => {
  test("the server's values in its order; blocked users are no samples", () => {
    const facets = { users: 2, tags: [{ value: "vip", users: 2 }, { value: "beta", users: 1 }], languages: [{ value: "en", users: 2 }], sources: [] };
    const page = [
      { userId: "1", firstName: "Ann", lastName: "", userName: "ann", blocked: false, takeover: false, tags: [] },
      { userId: "2", firstName: "Bob", lastName: "", userName: "", blocked: true, takeover: false, tags: [] },
      { userId: "3", firstName: "Eve", lastName: "", userName: "", blocked: false, takeover: false, tags: [] },
    ];
    const p = peopleOf(facets, page);
    expect(p.tags.map((f) => f.value)).toEqual(["vip", "beta"]);
    expect(p.languages).toEqual([{ value: "en", users: 2 }]);
    expect(p.users.map((u) => u.userId)).toEqual(["1", "3"]);
    expect(peopleOf({ users: 0, tags: [], languages: [], sources: [] }, [])).toEqual({ languages: [], tags: [], sources: [], users: [] });
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
  test("is the server's export, with the list's filter", () => {
    expect(recipientsCsvUrl(7, 3)).toBe("/api/bot/tokens/7/campaigns/3/recipients/export");
    expect(recipientsCsvUrl(7, 3, "failed")).toBe("/api/bot/tokens/7/campaigns/3/recipients/export?status=failed");
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

  test("a schedule time on another zone's clock (the campaign's timeZone)", () => {
    expect(zonedToIso("2030-05-06T10:00", "Europe/Moscow")).toBe("2030-05-06T07:00:00.000Z");
    expect(isoToZoned("2030-05-06T07:00:00.000Z", "Europe/Moscow")).toBe("2030-05-06T10:00");
    // New York: -4 in summer, -5 in winter
    expect(zonedToIso("2030-07-01T10:00", "America/New_York")).toBe("2030-07-01T14:00:00.000Z");
    expect(zonedToIso("2030-01-15T10:00", "America/New_York")).toBe("2030-01-15T15:00:00.000Z");
  });

  test("button rows and their drafts round trip", () => {
    const rows = [[{ text: "Site", url: "https://example.com" }, { text: "Go", goto: "n1" }], [{ text: "Again", goto: "n2" }]];
    expect(rowsOf(draftsOf(rows))).toEqual(rows);
    expect(draftsOf(undefined)).toEqual([]);
  });
});
