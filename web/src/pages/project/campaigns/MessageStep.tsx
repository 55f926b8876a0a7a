// Step 2 of the wizard: the message (formatted text, a media file or an album, inline buttons) beside a
// preview of it as the chosen sample user will see it, with their own values filled in.
import { useRef } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { get } from "../../../api/client";
import type { BotUserDetail } from "../../../api/types";
import { ButtonsEditor, FormatBar, rowsOf, type DraftButton, type Format } from "../dialogs/MessageParts";
import { useScenarioNodes } from "../dialogs/nodes";
import { CAPTION_MAX, TEXT_MAX } from "./api";
import { MediaList, mediaFields } from "./MediaList";
import { MessagePreview } from "./MessagePreview";
import type { People } from "./people";

export interface MessageDraft {
  text: string;
  format: Format;
  /** none, one file, or an album (2..10) */
  media: number[];
  buttons: DraftButton[];
}

export const limitOf = (m: Pick<MessageDraft, "media">) => (m.media.length > 0 ? CAPTION_MAX : TEXT_MAX);
/** Telegram puts no keyboard under a media group. */
export const isAlbum = (m: Pick<MessageDraft, "media">) => m.media.length > 1;

export function MessageStep({ projectId, tokenId, draft, onChange, people, sampleId, onSample }: { projectId: number; tokenId: number; draft: MessageDraft; onChange: (d: MessageDraft) => void; people: People | undefined; sampleId: string; onSample: (id: string) => void }) {
  const { t } = useTranslation();
  const area = useRef<HTMLTextAreaElement>(null);
  const nodes = useScenarioNodes(projectId);
  const set = (patch: Partial<MessageDraft>) => onChange({ ...draft, ...patch });
  const sample = people?.users.find((u) => u.userId === sampleId) ?? null;
  const detail = useQuery({ queryKey: ["bot-user", tokenId, sampleId], queryFn: () => get<BotUserDetail>(`/api/bot/tokens/${tokenId}/users/${encodeURIComponent(sampleId)}`), enabled: Boolean(sampleId) });
  const user = sample ? { userId: sample.userId, firstName: sample.firstName, userName: sample.userName, variables: (detail.data?.variables ?? null) as Record<string, unknown> | null } : null;
  const limit = limitOf(draft);
  const nodeLabel = (id: string) => nodes.data?.find((n) => n.id === id)?.label ?? id;
  return (
    <div className="cmp-message">
      <div className="stack">
        <FormatBar area={area} text={draft.text} format={draft.format} onText={(text) => set({ text })} onFormat={(format) => set({ format })} />
        <label>
          <span className="sr-only">{t("dialogs.message")}</span>
          <textarea ref={area} rows={6} value={draft.text} aria-label={t("dialogs.message")} placeholder={t("campaigns.textHint")} onChange={(e) => set({ text: e.target.value })} />
        </label>
        <span className={draft.text.length > limit ? "error small" : "muted small"} data-testid="text-counter">
          {draft.text.length} / {limit}{draft.media.length > 0 ? ` · ${t("campaigns.captionLimit")}` : ""}
        </span>
        <MediaList projectId={projectId} value={draft.media} onChange={(media) => set({ media })} />
        {isAlbum(draft) && draft.buttons.length === 0 ? (
          <p className="muted small" data-testid="album-no-buttons">{t("campaigns.albumNoButtons")}</p>
        ) : (
          <ButtonsEditor buttons={draft.buttons} onChange={(buttons) => set({ buttons })} nodes={nodes.data} />
        )}
      </div>
      <section className="stack" aria-labelledby="cmp-preview-title">
        <h3 id="cmp-preview-title">{t("campaigns.preview")}</h3>
        <label className="compact-label">
          {t("campaigns.sampleUser")}
          <select value={sampleId} onChange={(e) => onSample(e.target.value)}>
            <option value="">{t("campaigns.noSample")}</option>
            {people?.users.map((u) => <option key={u.userId} value={u.userId}>{u.firstName || (u.userName ? `@${u.userName}` : u.userId)} ({u.userId})</option>)}
          </select>
        </label>
        <MessagePreview projectId={projectId} message={{ text: draft.text, format: draft.format, ...mediaFields(draft.media), buttons: rowsOf(draft.buttons) }} user={user} nodeLabel={nodeLabel} />
      </section>
    </div>
  );
}
