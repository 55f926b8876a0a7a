// What the wizard offers from a token's users: the languages, tags and sources that exist, with how
// many reachable users carry each (the server's users/facets: one grouped read, no user rows), and
// sample users for the preview (the first page of the users list, blocked users left out).
import { useQuery } from "@tanstack/react-query";
import { get } from "../../../api/client";
import type { Answer } from "../../../api/types";

export type Facets = Answer<"/api/bot/tokens/{tokenId}/users/facets">;
export type Facet = Facets["tags"][number];
type UserPage = Answer<"/api/bot/tokens/{tokenId}/users">;

export interface SampleUser {
  userId: string;
  firstName: string;
  userName: string;
}

export interface People {
  languages: Facet[];
  tags: Facet[];
  sources: Facet[];
  users: SampleUser[];
}

/** The users list's largest page: enough people to pick a sample from. */
const SAMPLE_PAGE = 50;

export function peopleOf(facets: Facets, page: UserPage["items"]): People {
  const users = page.filter((u) => !u.blocked).map((u) => ({ userId: u.userId, firstName: u.firstName, userName: u.userName }));
  return { languages: facets.languages, tags: facets.tags, sources: facets.sources, users };
}

export function usePeople(tokenId: number) {
  return useQuery({
    queryKey: ["campaign-people", tokenId],
    queryFn: async () => {
      const [facets, page] = await Promise.all([
        get<Facets>(`/api/bot/tokens/${tokenId}/users/facets`),
        get<UserPage>(`/api/bot/tokens/${tokenId}/users`, { query: { limit: SAMPLE_PAGE } }),
      ]);
      return peopleOf(facets, page.items);
    },
    staleTime: 30_000,
  });
}
