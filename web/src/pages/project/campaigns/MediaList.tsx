// The campaign message's media: none, one file, or an album of 2..10 (docs/campaigns.md#albums):
// the chosen files in order, each removable, and a picker that adds the next one.
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { get } from "../../../api/client";
import type { MediaItem } from "../../../api/types";
import { ALBUM_MAX } from "./api";

export const useProjectMedia = (projectId: number, enabled = true) =>
  useQuery({ queryKey: ["media", projectId], queryFn: () => get<MediaItem[]>(`/api/projects/${projectId}/media`), enabled });

/** The API's form of the chosen files: one is `mediaId`, two or more an album (`mediaIds`). */
export const mediaFields = (ids: number[]) => (ids.length === 1 ? { mediaId: ids[0] } : ids.length > 1 ? { mediaIds: ids } : {});

export function MediaList({ projectId, value, onChange }: { projectId: number; value: number[]; onChange: (ids: number[]) => void }) {
  const { t } = useTranslation();
  const media = useProjectMedia(projectId);
  const nameOf = (id: number) => media.data?.find((m) => m.id === id)?.fileName ?? `#${id}`;
  const left = media.data?.filter((m) => !value.includes(m.id)) ?? [];
  return (
    <fieldset className="cmp-pick" data-testid="media-list">
      <legend>{value.length > 1 ? t("campaigns.album", { count: value.length, max: ALBUM_MAX }) : t("dialogs.media")}</legend>
      {value.length > 0 && (
        <ol className="chips plain-row cmp-media-list">
          {value.map((id, i) => (
            <li key={id} className="chip">
              {i + 1}. {nameOf(id)}{" "}
              <button type="button" className="btn ghost small-btn" aria-label={t("campaigns.removeMedia", { name: nameOf(id) })} onClick={() => onChange(value.filter((x) => x !== id))}>✕</button>
            </li>
          ))}
        </ol>
      )}
      {value.length < ALBUM_MAX && (
        <select aria-label={value.length === 0 ? t("dialogs.media") : t("campaigns.addMedia")} value="" onChange={(e) => e.target.value && onChange([...value, Number(e.target.value)])}>
          <option value="">{value.length === 0 ? t("dialogs.noMedia") : t("campaigns.addMedia")}</option>
          {left.map((m) => <option key={m.id} value={m.id}>{m.fileName}</option>)}
        </select>
      )}
      {value.length > 1 && <span className="muted small">{t("campaigns.albumRules")}</span>}
    </fieldset>
  );
}
