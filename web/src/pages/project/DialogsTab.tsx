// The Dialogs of a project's bots (docs/dialogs.md): a token picker, the chat list and one chat.
// On a wide screen both sit side by side; on a phone they are two screens (the list, then the chat
// with a way back). The open token and chat live in the address (?token=&chat=), so the Users tab's
// "open dialog" and a reload land on the same chat.
import "./dialogs/dialogs.css";
import { useEffect, useRef } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useProjectEvents } from "../../api/events";
import { ErrorLine } from "../../components/ui";
import { ChatList } from "./dialogs/ChatList";
import { Conversation } from "./dialogs/Conversation";
import { registerAudienceStrings } from "./dialogs/i18n";
import { TokenPicker, useTokenChoice } from "./dialogs/controls";

registerAudienceStrings();

const LIVE_REFRESH_MS = 500;

export function DialogsTab({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  const { tokens, items, tokenId, params, setParams } = useTokenChoice(projectId);
  const chatId = params.get("chat");
  const qc = useQueryClient();
  // A busy bot sends an event per chat every batch window: refetch at most twice a second.
  const pending = useRef(new Map<string, readonly unknown[]>());
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);
  useProjectEvents((e) => {
    if (e.event !== "chat-message" || e.projectId !== projectId) return;
    pending.current.set(`chats:${e.tokenId}`, ["chats", e.tokenId]);
    pending.current.set(`messages:${e.tokenId}:${e.chatId}`, ["chat-messages", e.tokenId, e.chatId]);
    timer.current ??= setTimeout(() => {
      timer.current = null;
      const keys = [...pending.current.values()];
      pending.current.clear();
      for (const queryKey of keys) void qc.invalidateQueries({ queryKey });
    }, LIVE_REFRESH_MS);
  });
  const open = (next: { token?: number; chat?: string | null }) =>
    setParams((p) => {
      const q = new URLSearchParams(p);
      if (next.token !== undefined) q.set("token", String(next.token));
      if (next.chat) q.set("chat", next.chat);
      else if (next.chat === null) q.delete("chat");
      return q;
    });

  if (tokens.isPending) return <p>{t("common.loading")}</p>;
  if (tokens.isError) return <ErrorLine error={tokens.error} />;
  if (tokenId === null) return <p className="muted">{t("dialogs.noBots")}</p>;
  return (
    <div className="stack">
      <TokenPicker items={items} tokenId={tokenId} onPick={(token) => open({ token, chat: null })} />
      <div className={chatId ? "dlg has-chat" : "dlg"} data-testid="dialogs">
        <ChatList key={`list-${tokenId}`} tokenId={tokenId} active={chatId} onOpen={(chat) => open({ token: tokenId, chat })} />
        {chatId ? (
          <Conversation key={`${tokenId}:${chatId}`} projectId={projectId} tokenId={tokenId} chatId={chatId} onBack={() => open({ chat: null })} />
        ) : (
          <p className="dlg-placeholder muted">{t("dialogs.pick")}</p>
        )}
      </div>
    </div>
  );
}
