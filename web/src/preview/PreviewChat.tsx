// The preview chat (docs/preview.md): the project's current scenario as a throwaway bot in the
// in-product emulator. Self-contained: the "Preview" tab shows it alone, the editor embeds it as a
// side panel, passing its unsaved document and listening for the node behind each bot message.
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { PreviewEntry } from "./api";
import { Composer } from "./Composer";
import { HookFire } from "./HookFire";
import { Message } from "./Message";
import { MiniAppPanel, type MiniAppOpen } from "./MiniApp";
import { ServiceLine } from "./ServiceLine";
import { usePreview } from "./use-preview";
import { Variables } from "./Variables";

export interface PreviewChatProps {
  /** the project whose scenario runs; or `templateId` for a template's try-it chat */
  projectId?: number;
  templateId?: number;
  /** the editor's current, possibly unsaved document; absent = the saved scenario */
  document?: unknown;
  /** a new bot message arrived that node `nodeId` produced (the editor highlights the node) */
  onNodeMessage?: (nodeId: string, entry: PreviewEntry) => void;
  /** the user clicked a bot message: select its node */
  onSelectNode?: (nodeId: string) => void;
  /** the node the editor has selected: its messages are highlighted */
  highlightNode?: string | null;
  /** narrow layout for a side panel */
  compact?: boolean;
  /** what people call node `id` (its text), shown on bot messages instead of the id */
  nodeName?: (id: string) => string | undefined;
  /** a new chat started (restart): the walked path starts over */
  onRestart?: () => void;
  /** "preview from this node": each new request (by `seq`) restarts the chat on `document` with `text` */
  restartRequest?: { seq: number; document: unknown; text: string } | null;
  /** extra controls under the header (the editor's "preview from the selected node") */
  extra?: ReactNode;
  /** a selected webhook_trigger node: the chat offers to fire it (docs/hooks.md "In the preview") */
  hookNode?: string;
}

const FIRST_ACTOR = { user: "user", chat: "private" } as const;

/** A member's name in a group, as Telegram writes it over a message or in a service line: first and
 * last name (the preview's ordinary user and admin share the first name "Preview"). */
const memberName = (u: { firstName: string; lastName: string | null } | undefined) => u && [u.firstName, u.lastName].filter(Boolean).join(" ");

export function PreviewChat({ projectId, templateId, document, onNodeMessage, onSelectNode, highlightNode, compact, nodeName, onRestart, restartRequest, extra, hookNode }: PreviewChatProps) {
  const { t } = useTranslation();
  const { view, transcript, switching, error, act, switchActor, restart, restartWith } = usePreview(templateId !== undefined ? { templateId } : { projectId: projectId! }, document);
  const listRef = useRef<HTMLOListElement>(null);
  const reported = useRef(0);
  const [miniApp, setMiniApp] = useState<MiniAppOpen | null>(null);
  useEffect(() => {
    if (!restartRequest) return;
    reported.current = 0;
    onRestart?.();
    restartWith(restartRequest.document, restartRequest.text);
  }, [restartRequest?.seq]); // eslint-disable-line react-hooks/exhaustive-deps
  const restartHere = () => {
    reported.current = 0;
    onRestart?.();
    restart();
  };

  // Only the chat of the actor the server has confirmed shows: while a switch is under way, or while
  // the transcript is still another chat's, none does, so no message is seen (or pressed) as someone
  // it was not sent to (docs/preview.md "In the Studio").
  const opening = !!switching || (!!view && !!transcript && transcript.chatId !== view.actor.chatId);
  const shown = opening ? null : transcript;
  const entries = shown?.entries ?? [];
  useEffect(() => {
    listRef.current?.scrollTo?.({ top: listRef.current.scrollHeight });
    for (const e of entries) {
      if (e.seq <= reported.current) continue;
      reported.current = e.seq;
      if (e.from === "bot" && e.node) onNodeMessage?.(e.node, e);
    }
  }, [shown]); // eslint-disable-line react-hooks/exhaustive-deps

  const status = transcript?.status ?? view?.status ?? "starting";
  const down = status === "error" || status === "stopped";
  const sessionId = view?.id;
  // Until the bot answers there is no view, and a select without options painted empty (on a phone
  // an empty box): every preview starts as the ordinary user in a private chat (docs/preview.md).
  // A switch shows the choice at once; the selects wait, disabled, until its chat is here.
  const actor = switching ?? view?.actor ?? FIRST_ACTOR;
  const users = view?.users.map((u) => u.key) ?? [FIRST_ACTOR.user];
  const nameOf = (userId: number | undefined) => memberName(view?.users.find((u) => u.id === userId));
  // The viewer's own messages are those of the preview user now selected; in a group, Telegram names
  // everyone else's (the bot's too) over the message, and never in a private chat.
  const mine = (e: PreviewEntry) => e.from === "user" && (e.userId === undefined || e.userId === view?.actor.userId);
  const senderOf = (e: PreviewEntry) => (!view || e.chatId !== view.groupChatId || mine(e) ? undefined : e.from === "bot" ? view.bot.firstName : nameOf(e.userId));

  return (
    <section className={compact ? "pv pv-compact" : "pv"} aria-label={t("preview.title")} data-testid="preview-chat" data-status={status}>
      <header className="pv-head">
        <div>
          <strong>{view?.bot.firstName ?? t("preview.title")}</strong> <span className="badge" data-testid="pv-status">{t(`preview.status.${status}`)}</span>
        </div>
        <div className="pv-switch">
          <label>
            <span className="sr-only">{t("preview.user")}</span>
            <select value={actor.user} disabled={!view || !!switching} onChange={(e) => void switchActor(e.target.value, actor.chat)} aria-label={t("preview.user")}>
              {users.map((key) => (
                <option key={key} value={key}>{t(`preview.users.${key}`)}</option>
              ))}
            </select>
          </label>
          <label>
            <span className="sr-only">{t("preview.chat")}</span>
            <select value={actor.chat} disabled={!view || !!switching} onChange={(e) => void switchActor(actor.user, e.target.value)} aria-label={t("preview.chat")}>
              <option value="private">{t("preview.chats.private")}</option>
              <option value="group">{t("preview.chats.group")}</option>
            </select>
          </label>
          <button type="button" className="btn small" onClick={restartHere}>{t("preview.restart")}</button>
        </div>
      </header>
      <p className="pv-note small muted">{t("preview.httpNote")}</p>
      {onSelectNode && <p className="pv-hint small muted" data-testid="pv-hint">{t("preview.clickHint")}</p>}
      {extra}
      {sessionId && hookNode && !down && <HookFire sessionId={sessionId} nodeId={hookNode} />}
      {(error || transcript?.error || view?.error) && <p className="error small" role="alert">{error ?? transcript?.error ?? view?.error}</p>}
      <div className="pv-body">
        <div className="pv-chat">
          <ol className="pv-messages" ref={listRef} aria-live="polite" aria-busy={opening}>
            {entries.length === 0 && <li className="pv-empty muted" data-testid="pv-empty">{!view ? t("preview.starting") : opening ? t("preview.opening") : t("preview.empty")}</li>}
            {sessionId &&
              entries.map((e) =>
                e.kind === "service" ? (
                  <ServiceLine key={e.seq} entry={e} bot={view?.bot.firstName ?? ""} payer={e.userId !== view?.actor.userId ? nameOf(e.userId) : undefined} />
                ) : (
                  <Message key={e.seq} entry={e} sessionId={sessionId} highlighted={!!highlightNode && e.node === highlightNode} onPress={(messageId, data) => void act({ type: "button", messageId, data })} onMiniApp={setMiniApp} onReact={(messageId, emoji) => void act({ type: "reaction", messageId, emoji })} onPay={(messageId) => act({ type: "pay", messageId })} onSelectNode={onSelectNode} nodeName={e.node ? nodeName?.(e.node) : undefined} mine={mine(e)} sender={senderOf(e)} />
                ),
              )}
          </ol>
          {shown?.typing && <p className="pv-typing muted small">{t("preview.typing")}</p>}
          {miniApp && <MiniAppPanel app={miniApp} onClose={() => setMiniApp(null)} onSend={(buttonText, data) => void act({ type: "web_app_data", buttonText, data })} />}
          <Composer commands={view?.commands ?? []} keyboard={shown?.replyKeyboard ?? null} disabled={!view || down || opening} send={act} onMiniApp={setMiniApp} />
        </div>
        {sessionId && !compact && <Variables sessionId={sessionId} version={transcript?.version ?? 0} chatId={transcript?.chatId ?? 0} />}
      </div>
      {sessionId && compact && (
        <details className="pv-vars-details">
          <summary>{t("preview.variables")}</summary>
          <Variables sessionId={sessionId} version={transcript?.version ?? 0} chatId={transcript?.chatId ?? 0} />
        </details>
      )}
    </section>
  );
}

/** The project's "Preview" tab: the chat on the saved scenario. */
export function PreviewTab({ projectId }: { projectId: number }) {
  return <PreviewChat projectId={projectId} />;
}
