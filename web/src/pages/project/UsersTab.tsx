// Users of a project's bots: stats (total, active 24 h / 7 d, new today), new users per day as a
// chart, the list with search and paging, and a user's card.
import { useEffect, useState } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { get } from "../../api/client";
import type { TokenItem } from "../../api/types";
import { ErrorLine } from "../../components/ui";
import { UserCard } from "./users/UserCard";
import { DailyChart } from "./users/DailyChart";

interface Stats {
  total_users: number;
  active_24h: number;
  active_7d: number;
  new_today: number;
}
interface Page {
  items: { userId: string; firstName: string; userName: string }[];
  count: number;
  nextOffset: number | null;
  prevOffset: number | null;
  fromItem: number;
  toItem: number;
}

const PAGE = 20;

export function UsersTab({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  const tokens = useQuery({ queryKey: ["tokens", projectId], queryFn: () => get<{ items: TokenItem[] }>(`/api/bot/projects/${projectId}/tokens`) });
  const [chosen, setChosen] = useState<number | null>(null);
  const tokenId = chosen ?? tokens.data?.items[0]?.id ?? null;
  if (tokens.isPending) return <p>{t("common.loading")}</p>;
  if (tokens.isError) return <ErrorLine error={tokens.error} />;
  if (tokenId === null) return <p className="muted">{t("users.noBots")}</p>;
  return (
    <div className="stack">
      {tokens.data.items.length > 1 && (
        <label className="compact-label">
          {t("logs.bot")}
          <select value={tokenId} onChange={(e) => setChosen(Number(e.target.value))}>
            {tokens.data.items.map((tk) => <option key={tk.id} value={tk.id}>{tk.name}</option>)}
          </select>
        </label>
      )}
      <TokenUsers key={tokenId} tokenId={tokenId} />
    </div>
  );
}

function TokenUsers({ tokenId }: { tokenId: number }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState("");
  const [term, setTerm] = useState("");
  const [offset, setOffset] = useState(0);
  const [open, setOpen] = useState<string | null>(null);
  useEffect(() => {
    const timer = setTimeout(() => {
      setTerm(search.trim());
      setOffset(0);
    }, 250);
    return () => clearTimeout(timer);
  }, [search]);
  const stats = useQuery({ queryKey: ["stats", tokenId], queryFn: () => get<Stats>(`/api/bot/tokens/${tokenId}/stats`), refetchInterval: 5000 });
  const page = useQuery({
    queryKey: ["bot-users", tokenId, term, offset],
    queryFn: () => get<Page>(`/api/bot/tokens/${tokenId}/users`, { query: { limit: PAGE, offset, search: term } }),
    placeholderData: keepPreviousData,
    refetchInterval: 5000,
  });
  const s = stats.data;
  return (
    <>
      <ul className="stats" aria-label={t("users.stats")}>
        {(
          [
            ["total", s?.total_users],
            ["active24h", s?.active_24h],
            ["active7d", s?.active_7d],
            ["newToday", s?.new_today],
          ] as const
        ).map(([k, v]) => (
          <li key={k} className="card stat" data-testid={`stat-${k}`}>
            <span className="stat-value">{v ?? "—"}</span>
            <span className="muted small">{t(`users.${k}`)}</span>
          </li>
        ))}
      </ul>
      <ErrorLine error={stats.error} />
      <DailyChart tokenId={tokenId} />
      <div className="users-layout">
        <section className="card stack" aria-labelledby="users-list-title">
          <h2 id="users-list-title">{t("users.title")}</h2>
          <label>
            <span className="sr-only">{t("users.search")}</span>
            <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder={t("users.search")} />
          </label>
          <ErrorLine error={page.error} />
          {page.data?.count === 0 && <p className="muted">{term ? t("users.noMatch") : t("users.none")}</p>}
          <ul className="plain user-list" data-testid="user-list">
            {page.data?.items.map((u) => (
              <li key={u.userId}>
                <button type="button" className={open === u.userId ? "list-btn active" : "list-btn"} onClick={() => setOpen(u.userId)}>
                  <strong>{u.firstName || `#${u.userId}`}</strong> {u.userName && <span className="muted">@{u.userName}</span>} <span className="muted small">{u.userId}</span>
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
        {open && <UserCard tokenId={tokenId} userId={open} onClose={() => setOpen(null)} />}
      </div>
    </>
  );
}
