// A campaign's message as the user will see it in their chat: the media file (or the album's grid), the text with the
// sample user's values filled in and its formatting applied (never as HTML injection: the preview's
// parser keeps only Telegram's tags), and the inline buttons.
import { useTranslation } from "react-i18next";
import type { MediaItem } from "../../../api/types";
import { Formatted } from "../../../preview/formatted";
import type { CampaignMessage } from "./api";
import { useProjectMedia } from "./MediaList";
import { renderFor, type PreviewUser } from "./render";

function Thumb({ file }: { file: MediaItem }) {
  return file.mimeType.startsWith("image/") ? <img className="pv-photo" src={file.url} alt={file.fileName} /> : <div className="dlg-media">{file.fileName}</div>;
}

export function MessagePreview({ projectId, message, user, nodeLabel }: { projectId: number; message: CampaignMessage; user: PreviewUser | null; nodeLabel: (id: string) => string }) {
  const { t } = useTranslation();
  const ids = message.mediaIds ?? (message.mediaId != null ? [message.mediaId] : []);
  const media = useProjectMedia(projectId, ids.length > 0);
  const files = ids.flatMap((id) => media.data?.filter((m) => m.id === id) ?? []);
  const format = message.format ?? "none";
  const text = renderFor(user, message.text, format);
  return (
    <div className="cmp-phone" data-testid="campaign-preview">
      <div className="pv-msg pv-bot">
        <div className="pv-bubble">
          {files.length === 1 && <Thumb file={files[0]!} />}
          {files.length > 1 && (
            <div className="cmp-album" data-testid="preview-album">
              {files.map((f) => <Thumb key={f.id} file={f} />)}
            </div>
          )}
          {text ? <div className="pv-text"><Formatted text={text} source={format === "html" ? { text, parseMode: "HTML" } : undefined} /></div> : <span className="muted">{t("campaigns.emptyText")}</span>}
        </div>
        {message.buttons && message.buttons.length > 0 && (
          <div className="pv-inline">
            {message.buttons.map((row, i) => (
              <div key={i} className="pv-row">
                {row.map((b, j) => (
                  <span key={j} className="btn pv-key" title={"url" in b && b.url ? b.url : t("dialogs.gotoNode", { node: nodeLabel(("goto" in b && b.goto) || "") })}>{b.text || "…"}</span>
                ))}
              </div>
            ))}
          </div>
        )}
      </div>
    </div>
  );
}
