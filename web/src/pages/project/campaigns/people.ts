// What the wizard offers from a token's users: the languages, tags and sources that exist (so an
// audience names real values) and sample users for the preview. Read from the users CSV export
// (docs/api.md, "bot users"), the one call that carries every user's language, source and tags.
import { useQuery } from "@tanstack/react-query";
import { get } from "../../../api/client";
import { parseCsv as parseRecords } from "../../../../../src/lib/csv";

export interface SampleUser {
  userId: string;
  firstName: string;
  userName: string;
}

export interface People {
  languages: string[];
  tags: string[];
  sources: string[];
  users: SampleUser[];
}

const SAMPLE_MAX = 200;

/**
 * RFC 4180 rows, empty cells as "": the reader the Tables import uses (src/lib/csv.ts), which also
 * takes off the leading ' the export puts before a cell a spreadsheet would run as a formula.
 */
export const parseCsv = (text: string): string[][] => parseRecords(text).map((r) => r.map((c) => c ?? ""));

export function peopleOf(csv: string): People {
  const [head, ...rows] = parseCsv(csv);
  const col = (name: string) => head?.indexOf(name) ?? -1;
  const [id, first, user, lang, blocked, source, tags] = ["id", "first_name", "username", "language", "blocked", "source", "tags"].map(col);
  const languages = new Set<string>();
  const tagSet = new Set<string>();
  const sources = new Set<string>();
  const users: SampleUser[] = [];
  for (const r of rows) {
    const at = (i: number | undefined) => (i !== undefined && i >= 0 ? (r[i] ?? "").trim() : "");
    if (!at(id)) continue;
    if (at(lang)) languages.add(at(lang));
    if (at(source)) sources.add(at(source));
    for (const tag of at(tags).split(";")) if (tag.trim()) tagSet.add(tag.trim());
    if (users.length < SAMPLE_MAX && !/^(true|1|yes)$/i.test(at(blocked))) users.push({ userId: at(id), firstName: at(first), userName: at(user) });
  }
  const sorted = (s: Set<string>) => [...s].sort((a, b) => a.localeCompare(b));
  return { languages: sorted(languages), tags: sorted(tagSet), sources: sorted(sources), users };
}

export function usePeople(tokenId: number) {
  return useQuery({
    queryKey: ["campaign-people", tokenId],
    queryFn: async () => peopleOf(await get<string>(`/api/bot/tokens/${tokenId}/users/export`)),
    staleTime: 30_000,
  });
}
