// The chats of a token, most recent first: search, kind and filter, unread badges, takeover and
// blocked marks. Live events refresh it (DialogsTab invalidates ["chats", tokenId]).
import { useEffect, useState } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { ErrorLine } from "../../../components/ui";
import { Chips, Pager, useDebounced } from "./controls";
import { useWhen } from "./when";
import { CHAT_FILTERS, CHAT_KINDS, chatName, dialogsApi, type ChatFilter } from "./api";

const PER_PAGE = 50;

export function ChatList({ tokenId, active, onOpen }: { tokenId: number; active: string | null; onOpen: (chatId: string) => void }) {
  const { t } = useTranslation();
  const when = useWhen();
  const [search, setSearch] = useState("");
  const term = useDebounced(search.trim());
  const [kind, setKind] = useState("");
  const [filter, setFilter] = useState<ChatFilter>("all");
  const [page, setPage] = useState(1);
  useEffect(() => setPage(1), [term]);
  const list = useQuery({
    queryKey: ["chats", tokenId, term, kind, filter, page],
    queryFn: () => dialogsApi.chats(tokenId, { search: term, kind: kind || undefined, filter, page, perPage: PER_PAGE }),
    placeholderData: keepPreviousData,
  });
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / list.data.perPage)) : 1;
  return (
    <section className="card dlg-list" aria-labelledby="dlg-list-title">
      <h2 id="dlg-list-title" className="sr-only">{t("dialogs.chats")}</h2>
      <div className="dlg-filters">
        <label className="grow">
          <span className="sr-only">{t("dialogs.search")}</span>
          <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder={t("dialogs.searchHint")} />
        </label>
        <label>
          <span className="sr-only">{t("dialogs.kind")}</span>
          <select value={kind} onChange={(e) => { setKind(e.target.value); setPage(1); }} aria-label={t("dialogs.kind")}>
            <option value="">{t("dialogs.kinds.all")}</option>
            {CHAT_KINDS.map((k) => <option key={k} value={k}>{t(`dialogs.kinds.${k}`)}</option>)}
          </select>
        </label>
      </div>
      <Chips options={CHAT_FILTERS} value={filter} label={t("dialogs.filter")} labelKey="dialogs.filters" onChange={(f) => { setFilter(f); setPage(1); }} />
      <ErrorLine error={list.error} />
      {list.data?.total === 0 && <p className="muted small">{term || kind || filter !== "all" ? t("dialogs.noMatch") : t("dialogs.none")}</p>}
      <ul className="plain dlg-chats" data-testid="chat-list">
        {list.data?.items.map((c) => (
          <li key={c.chatId}>
            <button type="button" className={active === c.chatId ? "dlg-chat active" : "dlg-chat"} onClick={() => onOpen(c.chatId)} aria-current={active === c.chatId ? "true" : undefined} data-chat={c.chatId}>
              <span className="dlg-chat-top">
                <strong className="ellipsis">{chatName(c)}</strong>
                <span className="muted small dlg-time">{when(c.lastMessageAt)}</span>
              </span>
              <span className="dlg-chat-bottom">
                <span className="muted small ellipsis">{c.lastMessageText ?? ""}</span>
                {c.takeover && <span className="badge warn-badge" title={t("dialogs.takeoverOn")}>{t("dialogs.marks.takeover")}</span>}
                {c.blocked && <span className="badge danger-badge">{t("dialogs.marks.blocked")}</span>}
                {c.unread > 0 && <span className="badge accent" aria-label={t("dialogs.unread", { count: c.unread })} data-testid="unread">{c.unread}</span>}
              </span>
            </button>
          </li>
        ))}
      </ul>
      <Pager page={page} pages={pages} onPage={setPage} />
    </section>
  );
}
