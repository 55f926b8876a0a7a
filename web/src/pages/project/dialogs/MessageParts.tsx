// The parts of writing a bot message that the Dialogs composer and the Campaigns wizard share:
// the formatting toolbar (buttons wrap the selection in Telegram's HTML tags), a file from the
// project's media, and inline buttons that open a URL or run a scenario node (docs/dialogs.md).
import type { ReactNode, RefObject } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { get } from "../../../api/client";
import type { MediaItem } from "../../../api/types";
import type { SendBody, SendButton } from "./api";
import type { NodeOption } from "./nodes";

export type Format = NonNullable<SendBody["format"]>;
export interface DraftButton {
  text: string;
  kind: "url" | "goto";
  target: string;
  /** starts a new row (the first button always does) */
  newRow: boolean;
}

const WRAPS: { label: string; name: string; open: string; close: string }[] = [
  { label: "B", name: "bold", open: "<b>", close: "</b>" },
  { label: "I", name: "italic", open: "<i>", close: "</i>" },
  { label: "U", name: "underline", open: "<u>", close: "</u>" },
  { label: "S", name: "strike", open: "<s>", close: "</s>" },
  { label: "</>", name: "code", open: "<code>", close: "</code>" },
  { label: "URL", name: "link", open: '<a href="https://">', close: "</a>" },
];

export function rowsOf(buttons: DraftButton[]): SendButton[][] {
  const rows: SendButton[][] = [];
  for (const b of buttons) {
    const button: SendButton = b.kind === "url" ? { text: b.text.trim(), url: b.target.trim() } : { text: b.text.trim(), goto: b.target };
    if (b.newRow || rows.length === 0) rows.push([button]);
    else rows.at(-1)!.push(button);
  }
  return rows;
}

/** The editable form of stored button rows (the inverse of rowsOf). */
export function draftsOf(rows: { text: string; url?: string; goto?: string }[][] | null | undefined): DraftButton[] {
  return (rows ?? []).flatMap((row) => row.map((b, i): DraftButton => (b.url ? { text: b.text, kind: "url", target: b.url, newRow: i === 0 } : { text: b.text, kind: "goto", target: b.goto ?? "", newRow: i === 0 })));
}

/**
 * B/I/U/S/code/link over the selection of `area`, then the format select and any extra controls.
 * Wrapping switches the text to HTML, the format the tags need.
 */
export function FormatBar({ area, text, format, onText, onFormat, children }: { area: RefObject<HTMLTextAreaElement | null>; text: string; format: Format; onText: (t: string) => void; onFormat: (f: Format) => void; children?: ReactNode }) {
  const { t } = useTranslation();
  const wrap = (open: string, close: string) => {
    const el = area.current;
    if (!el) return;
    const { selectionStart: a, selectionEnd: b } = el;
    onText(text.slice(0, a) + open + text.slice(a, b) + close + text.slice(b));
    onFormat("html");
    requestAnimationFrame(() => {
      el.focus();
      el.setSelectionRange(a + open.length, b + open.length);
    });
  };
  return (
    <div className="dlg-format" role="toolbar" aria-label={t("dialogs.formatting")}>
      {WRAPS.map((w) => (
        <button key={w.name} type="button" className="btn ghost small-btn" onClick={() => wrap(w.open, w.close)} aria-label={t(`dialogs.wrap.${w.name}`)} title={t(`dialogs.wrap.${w.name}`)}>{w.label}</button>
      ))}
      <label className="compact-label small">
        <span className="sr-only">{t("dialogs.format")}</span>
        <select value={format} onChange={(e) => onFormat(e.target.value as Format)} aria-label={t("dialogs.format")}>
          <option value="none">{t("dialogs.formats.none")}</option>
          <option value="html">HTML</option>
          <option value="markdown">Markdown</option>
        </select>
      </label>
      {children}
    </div>
  );
}

/** The project's media, fetched afresh each time the picker shows (a file uploaded meanwhile shows). */
export function MediaPick({ projectId, value, onChange }: { projectId: number; value: number | null; onChange: (id: number | null) => void }) {
  const { t } = useTranslation();
  const media = useQuery({ queryKey: ["media", projectId], queryFn: () => get<MediaItem[]>(`/api/projects/${projectId}/media`), refetchOnMount: "always" });
  return (
    <label>
      {t("dialogs.media")}
      <select value={value ?? ""} onChange={(e) => onChange(e.target.value ? Number(e.target.value) : null)}>
        <option value="">{t("dialogs.noMedia")}</option>
        {media.data?.map((m) => <option key={m.id} value={m.id}>{m.fileName}</option>)}
      </select>
    </label>
  );
}

export function ButtonsEditor({ buttons, onChange, nodes }: { buttons: DraftButton[]; onChange: (next: DraftButton[]) => void; nodes: NodeOption[] | undefined }) {
  const { t } = useTranslation();
  const setButton = (i: number, patch: Partial<DraftButton>) => onChange(buttons.map((b, j) => (j === i ? { ...b, ...patch } : b)));
  return (
    <fieldset className="dlg-buttons">
      <legend>{t("dialogs.buttons")}</legend>
      {buttons.map((b, i) => (
        <div key={i} className="dlg-button-row" data-testid="draft-button">
          <input aria-label={t("dialogs.buttonText")} placeholder={t("dialogs.buttonText")} value={b.text} maxLength={64} onChange={(e) => setButton(i, { text: e.target.value })} />
          <select aria-label={t("dialogs.buttonKind")} value={b.kind} onChange={(e) => setButton(i, { kind: e.target.value as DraftButton["kind"], target: "" })}>
            <option value="url">{t("dialogs.buttonUrl")}</option>
            <option value="goto">{t("dialogs.buttonGoto")}</option>
          </select>
          {b.kind === "url" ? (
            <input aria-label={t("dialogs.buttonTarget")} placeholder="https://" type="url" value={b.target} onChange={(e) => setButton(i, { target: e.target.value })} />
          ) : (
            <select aria-label={t("dialogs.buttonNode")} value={b.target} onChange={(e) => setButton(i, { target: e.target.value })}>
              <option value="">—</option>
              {nodes?.map((n) => <option key={n.id} value={n.id}>{n.label}</option>)}
            </select>
          )}
          {i > 0 && (
            <label className="compact-label small">
              <input type="checkbox" checked={b.newRow} onChange={(e) => setButton(i, { newRow: e.target.checked })} /> {t("dialogs.newRow")}
            </label>
          )}
          <button type="button" className="btn ghost small-btn" aria-label={t("dialogs.removeButton", { text: b.text || i + 1 })} onClick={() => onChange(buttons.filter((_, j) => j !== i))}>✕</button>
        </div>
      ))}
      <button type="button" className="btn small-btn" onClick={() => onChange([...buttons, { text: "", kind: "url", target: "", newRow: true }])}>{t("dialogs.addButton")}</button>
    </fieldset>
  );
}
