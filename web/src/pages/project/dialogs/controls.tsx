// Controls the Dialogs, Users and Campaigns tabs share: the bot whose audience a tab shows (the
// project's tokens, the one named by ?token= in the address, else the first, and the picker shown
// when there is more than one, so their links to each other keep the bot), a debounce for search
// boxes, a row of filter chips, and a pager.
import { useEffect, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "wouter";
import { get } from "../../../api/client";
import type { TokenItem } from "../../../api/types";

export function useTokenChoice(projectId: number) {
  const tokens = useQuery({ queryKey: ["tokens", projectId], queryFn: () => get<{ items: TokenItem[] }>(`/api/bot/projects/${projectId}/tokens`) });
  const [params, setParams] = useSearchParams();
  const items = tokens.data?.items ?? [];
  const wanted = Number(params.get("token"));
  const tokenId = items.find((x) => x.id === wanted)?.id ?? items[0]?.id ?? null;
  return { tokens, items, tokenId, params, setParams };
}

export function TokenPicker({ items, tokenId, onPick }: { items: TokenItem[]; tokenId: number; onPick: (tokenId: number) => void }) {
  const { t } = useTranslation();
  if (items.length < 2) return null;
  return (
    <label className="compact-label">
      {t("logs.bot")}
      <select value={tokenId} onChange={(e) => onPick(Number(e.target.value))}>
        {items.map((tk) => <option key={tk.id} value={tk.id}>{tk.name}{tk.botUsername ? ` (@${tk.botUsername})` : ""}</option>)}
      </select>
    </label>
  );
}

/** `value` once it has stayed the same for `ms` (typing in a search box asks the server once). */
export function useDebounced<T>(value: T, ms = 250): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** One of a few filters as a row of toggle chips (`labelKey` + the option is the i18n key). */
export function Chips<T extends string>({ options, value, onChange, label, labelKey }: { options: readonly T[]; value: T; onChange: (v: T) => void; label: string; labelKey: string }) {
  const { t } = useTranslation();
  return (
    <div className="chips" role="group" aria-label={label}>
      {options.map((o) => (
        <button key={o} type="button" className={value === o ? "chip active" : "chip"} aria-pressed={value === o} onClick={() => onChange(o)}>
          {t(`${labelKey}.${o}`)}
        </button>
      ))}
    </div>
  );
}

/** Previous / "page N of M" / next under a paged list; nothing when everything fits on one page. */
export function Pager({ page, pages, onPage }: { page: number; pages: number; onPage: (page: number) => void }) {
  const { t } = useTranslation();
  if (pages <= 1) return null;
  return (
    <div className="row between">
      <button type="button" className="btn small-btn" disabled={page <= 1} onClick={() => onPage(page - 1)}>{t("common.prev")}</button>
      <span className="muted small">{t("dialogs.page", { page, pages })}</span>
      <button type="button" className="btn small-btn" disabled={page >= pages} onClick={() => onPage(page + 1)}>{t("common.next")}</button>
    </div>
  );
}
