// Users of a project's bots (their figures are on the Analytics tab): the list with search, filters
// (docs/dialogs.md "People of a bot"), sorting, paging and CSV export, and a user's card. ?token=&user= in the address hold the token and the open card.
import "./dialogs/dialogs.css";
import { useEffect, useState } from "react";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { errorText, get, put } from "../../api/client";
import type { BotUserPage } from "../../api/types";
import { downloadCsv, ErrorLine } from "../../components/ui";
import { registerAudienceStrings } from "./dialogs/i18n";
import { Chips, TokenPicker, useDebounced, useTokenChoice } from "./dialogs/controls";
import { UserCard } from "./users/UserCard";

registerAudienceStrings();

const FILTERS = ["all", "active", "inactive", "blocked"] as const;
const SORTS = ["lastSeen", "registered", "messages", "name"] as const;

type Page = BotUserPage;

const PAGE = 20;

export function UsersTab({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  const { tokens, items, tokenId, params, setParams } = useTokenChoice(projectId);
  if (tokens.isPending) return <p>{t("common.loading")}</p>;
  if (tokens.isError) return <ErrorLine error={tokens.error} />;
  if (tokenId === null) return <p className="muted">{t("users.noBots")}</p>;
  return (
    <div className="stack">
      <UserDatabaseNotice projectId={projectId} />
      <TokenPicker items={items} tokenId={tokenId} onPick={(id) => setParams({ token: String(id) })} />
      <TokenUsers
        key={tokenId}
        projectId={projectId}
        tokenId={tokenId}
        open={params.get("user")}
        onOpen={(user) =>
          setParams((p) => {
            const q = new URLSearchParams(p);
            q.set("token", String(tokenId));
            if (user) q.set("user", user);
            else q.delete("user");
            return q;
          })
        }
      />
    </div>
  );
}

/**
 * The list is the bots' user database (docs/dialogs.md): a project that keeps none (set through the
 * API or an import) adds nobody to it, with no reason given, and its campaigns reach only those listed.
 */
function UserDatabaseNotice({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  // the project page has read the project already (the same query key): no request of its own
  const project = useQuery({ queryKey: ["projects", projectId], queryFn: () => get<{ userDatabaseEnabled: number }>(`/api/projects/${projectId}`) });
  const turnOn = useMutation({
    mutationFn: () => put(`/api/projects/${projectId}`, { userDatabaseEnabled: 1 }),
    onSuccess: () => client.invalidateQueries({ queryKey: ["projects", projectId] }),
  });
  if (turnOn.isSuccess) return <p className="notice" role="status">{t("users.databaseRestart")}</p>;
  if (project.data?.userDatabaseEnabled !== 0) return null;
  return (
    <div className="notice stack" role="status">
      <p>{t("users.databaseOff")}</p>
      <div><button type="button" className="btn" disabled={turnOn.isPending} onClick={() => turnOn.mutate()}>{t("users.databaseOn")}</button></div>
      <ErrorLine error={turnOn.error} />
    </div>
  );
}

// The open card lives in the address (?user=), as the Dialogs tab's chat does: a reload, a shared
// link and the browser's Back keep it.
function TokenUsers({ projectId, tokenId, open, onOpen }: { projectId: number; tokenId: number; open: string | null; onOpen: (user: string | null) => void }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState("");
  const term = useDebounced(search.trim());
  const [offset, setOffset] = useState(0);
  const [filter, setFilter] = useState<(typeof FILTERS)[number]>("all");
  const [sort, setSort] = useState<(typeof SORTS)[number]>("lastSeen");
  const [typed, setTyped] = useState({ language: "", tag: "", source: "" });
  const facets = useDebounced(typed);
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);
  const query = { search: term, filter: filter === "all" ? undefined : filter, sort, language: facets.language.trim(), tag: facets.tag.trim(), source: facets.source.trim() };
  const exportCsv = async () => {
    setExporting(true);
    setExportError(null);
    try {
      const csv = await get<string>(`/api/bot/tokens/${tokenId}/users/export`, { query: { ...query, sort: undefined } });
      downloadCsv(`users-${tokenId}.csv`, csv);
    } catch (e) {
      setExportError(errorText(e));
    } finally {
      setExporting(false);
    }
  };
  // a new search or filter starts at the first page
  useEffect(() => setOffset(0), [term, facets]);
  const page = useQuery({
    queryKey: ["bot-users", tokenId, query, offset],
    queryFn: () => get<Page>(`/api/bot/tokens/${tokenId}/users`, { query: { limit: PAGE, offset, ...query } }),
    placeholderData: keepPreviousData,
    refetchInterval: 5000,
  });
  return (
    <>
      <div className="users-layout">
        <section className="card stack" aria-labelledby="users-list-title">
          <h2 id="users-list-title">{t("users.title")}</h2>
          <label>
            <span className="sr-only">{t("users.search")}</span>
            <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder={t("users.search")} />
          </label>
          <Chips options={FILTERS} value={filter} label={t("people.filter")} labelKey="people.filters" onChange={(f) => { setFilter(f); setOffset(0); }} />
          <div className="people-filters">
            {(["language", "tag", "source"] as const).map((k) => (
              <label key={k} className="grow">
                <span className="small">{t(k === "language" ? "people.userLanguage" : `people.${k}`)}</span>
                <input value={typed[k]} maxLength={64} onChange={(e) => setTyped({ ...typed, [k]: e.target.value })} placeholder={k === "language" ? "en, ru…" : ""} />
              </label>
            ))}
            <label>
              <span className="small">{t("people.sort")}</span>
              <select value={sort} onChange={(e) => { setSort(e.target.value as (typeof SORTS)[number]); setOffset(0); }}>
                {SORTS.map((x) => <option key={x} value={x}>{t(`people.sorts.${x}`)}</option>)}
              </select>
            </label>
            <button type="button" className="btn" disabled={exporting} onClick={() => void exportCsv()}>{exporting ? t("people.exporting") : t("people.export")}</button>
          </div>
          <ErrorLine error={exportError} />
          <ErrorLine error={page.error} />
          {page.data?.count === 0 && <p className="muted">{term || filter !== "all" || query.language || query.tag || query.source ? t("users.noMatch") : t("users.none")}</p>}
          <ul className="plain user-list" data-testid="user-list">
            {page.data?.items.map((u) => (
              <li key={u.userId}>
                <button type="button" className={open === u.userId ? "list-btn active" : "list-btn"} onClick={() => onOpen(u.userId)}>
                  <strong>{[u.firstName, u.lastName].filter(Boolean).join(" ") || `#${u.userId}`}</strong> {u.userName && <span className="muted">@{u.userName}</span>} <span className="muted small">{u.userId}</span>
                  {u.blocked && <> <span className="badge danger-badge">{t("people.blocked")}</span></>}
                  {u.takeover && <> <span className="badge warn-badge">{t("people.takeover")}</span></>}
                  {u.tags.length > 0 && <> <span className="muted small" aria-label={t("people.tags")}>{u.tags.map((tag) => `#${tag}`).join(" ")}</span></>}
                </button>
              </li>
            ))}
          </ul>
          {page.data && page.data.count > 0 && (
            <div className="row between">
              <button type="button" className="btn small-btn" disabled={page.data.prevOffset === null} onClick={() => setOffset(page.data!.prevOffset ?? 0)}>{t("common.prev")}</button>
              <span className="muted small">{t("users.range", { from: page.data.fromItem, to: page.data.toItem, count: page.data.count })}</span>
              <button type="button" className="btn small-btn" disabled={page.data.nextOffset === null} onClick={() => setOffset(page.data!.nextOffset ?? 0)}>{t("common.next")}</button>
            </div>
          )}
        </section>
        {open && <UserCard key={open} projectId={projectId} tokenId={tokenId} userId={open} onClose={() => onOpen(null)} onDeleted={() => { onOpen(null); void page.refetch(); }} />}
      </div>
    </>
  );
}
