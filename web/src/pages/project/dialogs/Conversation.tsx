// One chat: its head (name, takeover), the messages (older pages on request, new ones live) and
// the composer. Opening the chat, and every new message while it is open, marks it read.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { errorText } from "../../../api/client";
import { ConfirmDialog, ErrorLine } from "../../../components/ui";
import { byTime, chatName, dialogsApi, type ChatMessage } from "./api";
import { Bubble } from "./Bubble";
import { Composer } from "./Composer";
import { Takeover } from "./Takeover";

interface Props {
  projectId: number;
  tokenId: number;
  chatId: string;
  onBack: () => void;
}

export function Conversation({ projectId, tokenId, chatId, onBack }: Props) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const key = ["chat-messages", tokenId, chatId];
  const latest = useQuery({ queryKey: key, queryFn: () => dialogsApi.messages(tokenId, chatId) });
  // The chat's own row (name, takeover, blocked): the list answers an exact id search.
  const chat = useQuery({
    queryKey: ["chats", tokenId, "one", chatId],
    queryFn: async () => (await dialogsApi.chats(tokenId, { search: chatId, perPage: 200 })).items.find((c) => c.chatId === chatId) ?? null,
  });
  const [older, setOlder] = useState<ChatMessage[]>([]);
  const [olderMore, setOlderMore] = useState<boolean | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<ChatMessage | null>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const lastSeen = useRef<number | null>(null);

  const messages = useMemo(() => {
    const byId = new Map<number, ChatMessage>();
    for (const m of older) byId.set(m.id, m);
    for (const m of latest.data?.items ?? []) byId.set(m.id, m);
    return [...byId.values()].sort(byTime);
  }, [older, latest.data]);
  const hasMore = olderMore ?? latest.data?.hasMore ?? false;
  const newest = messages.reduce<number | null>((max, m) => (max === null || m.id > max ? m.id : max), null);

  // Keep the newest message in sight when one arrives (not when older ones are loaded above).
  useLayoutEffect(() => {
    const el = listRef.current;
    if (!el || newest === null || newest === lastSeen.current) return;
    lastSeen.current = newest;
    el.scrollTop = el.scrollHeight;
  }, [newest]);

  // The list keeps the newest message in sight while it changes size (the composer's media and
  // buttons opening, a phone's keyboard), unless the operator has scrolled up to read older ones.
  useEffect(() => {
    const el = listRef.current;
    if (!el) return;
    let atBottom = true;
    const onScroll = () => {
      atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
    };
    const resized = new ResizeObserver(() => {
      if (atBottom) el.scrollTop = el.scrollHeight;
    });
    el.addEventListener("scroll", onScroll, { passive: true });
    resized.observe(el);
    return () => {
      resized.disconnect();
      el.removeEventListener("scroll", onScroll);
    };
  }, []);

  // Read means seen: a chat open in a background tab is marked when the tab comes to the front.
  useEffect(() => {
    if (newest === null) return;
    const mark = () => {
      if (document.visibilityState !== "visible") return;
      document.removeEventListener("visibilitychange", mark);
      void dialogsApi
        .read(tokenId, chatId)
        .then(() => qc.invalidateQueries({ queryKey: ["chats", tokenId] }))
        .catch(() => undefined);
    };
    document.addEventListener("visibilitychange", mark);
    mark();
    return () => document.removeEventListener("visibilitychange", mark);
  }, [newest, tokenId, chatId, qc]);

  // On a phone the chat is a screen of its own: bring it to the top.
  const section = useRef<HTMLElement>(null);
  useEffect(() => {
    if (matchMedia("(max-width: 760px)").matches) section.current?.scrollIntoView({ block: "start" });
  }, []);

  const loadOlder = async () => {
    const first = messages[0];
    if (!first) return;
    setLoadingOlder(true);
    try {
      const page = await dialogsApi.messages(tokenId, chatId, first.id);
      setOlder((o) => [...page.items, ...o]);
      setOlderMore(page.hasMore);
    } catch (e) {
      setActionError(errorText(e));
    } finally {
      setLoadingOlder(false);
    }
  };

  const refresh = () => {
    void qc.invalidateQueries({ queryKey: key });
    void qc.invalidateQueries({ queryKey: ["chats", tokenId] });
  };
  const replaceOlder = (m: ChatMessage) => setOlder((o) => o.map((x) => (x.id === m.id ? m : x)));

  const edit = async (m: ChatMessage, text: string) => {
    setActionError(null);
    try {
      replaceOlder(await dialogsApi.edit(tokenId, chatId, m.id, text));
      refresh();
    } catch (e) {
      setActionError(errorText(e));
      throw e;
    }
  };
  const remove = async () => {
    const m = deleting;
    if (!m) return;
    setActionError(null);
    try {
      await dialogsApi.remove(tokenId, chatId, m.id);
      replaceOlder({ ...m, deletedAt: new Date().toISOString() });
      refresh();
    } catch (e) {
      setActionError(errorText(e));
    } finally {
      setDeleting(null);
    }
  };

  const c = chat.data;
  const title = c ? chatName(c) : chatId;
  return (
    <section ref={section} className="card dlg-chat-view" aria-labelledby="dlg-chat-title" data-testid="conversation">
      <header className="dlg-head">
        <button type="button" className="btn small-btn dlg-back" onClick={onBack} aria-label={t("dialogs.back")}>←</button>
        <div className="dlg-who">
          <h2 id="dlg-chat-title" className="inline-h ellipsis">{title}</h2>
          <span className="muted small ellipsis">
            {c?.userName ? `@${c.userName} · ` : ""}{chatId}
            {c?.blocked ? ` · ${t("dialogs.marks.blocked")}` : ""}
          </span>
        </div>
        {c?.userId && <Link className="small" href={`/projects/${projectId}/users?token=${tokenId}&user=${encodeURIComponent(c.userId)}`}>{t("dialogs.profile")}</Link>}
      </header>
      <Takeover projectId={projectId} tokenId={tokenId} chatId={chatId} on={c?.takeover ?? false} onChanged={refresh} />
      <ErrorLine error={latest.error ?? actionError} />
      <ol className="pv-messages dlg-messages" ref={listRef} aria-label={t("dialogs.messages")} data-testid="dlg-messages">
        {hasMore && (
          <li className="dlg-older">
            <button type="button" className="btn small-btn" disabled={loadingOlder} onClick={() => void loadOlder()}>{t("dialogs.older")}</button>
          </li>
        )}
        {latest.isSuccess && messages.length === 0 && <li className="pv-empty muted">{t("dialogs.empty")}</li>}
        {messages.map((m) => (
          <Bubble key={m.id} m={m} projectId={projectId} tokenId={tokenId} onEdit={edit} onDelete={setDeleting} />
        ))}
      </ol>
      <Composer projectId={projectId} tokenId={tokenId} chatId={chatId} blocked={c?.blocked ?? false} onSent={refresh} />
      <ConfirmDialog open={deleting !== null} title={t("dialogs.deleteTitle")} confirmLabel={t("common.delete")} danger onConfirm={() => void remove()} onCancel={() => setDeleting(null)}>
        <p>{t("dialogs.deleteText")}</p>
        {deleting?.text && <blockquote className="dlg-quote">{deleting.text.slice(0, 300)}</blockquote>}
      </ConfirmDialog>
    </section>
  );
}
