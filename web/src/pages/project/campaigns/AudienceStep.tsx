// Step 1 of the wizard: who receives the campaign. Every choice narrows the audience; the server
// counts it live (blocked users are always left out) while the choice changes.
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../api/client";
import { Chips, useDebounced } from "../dialogs/controls";
import { AUDIENCE_FILTERS, campaignsApi, type Audience } from "./api";
import type { Facet, People } from "./people";

/** Ids typed by hand: any run of digits (user ids are positive), however separated. */
export function idsOf(typed: string): string[] {
  return [...new Set(typed.match(/\d+/g) ?? [])];
}

function Pick({ label, values, chosen, onChange, testId }: { label: string; values: Facet[]; chosen: string[] | undefined; onChange: (next: string[] | undefined) => void; testId: string }) {
  const { t } = useTranslation();
  const set = new Set(chosen ?? []);
  const users = new Map(values.map((f) => [f.value, f.users]));
  // a value saved earlier that no user carries any more still shows, so it can be taken off
  const all = [...new Set([...values.map((f) => f.value), ...set])];
  return (
    <fieldset className="cmp-pick" data-testid={testId}>
      <legend>{label}</legend>
      {all.length === 0 ? (
        <span className="muted small">{t("campaigns.noneYet")}</span>
      ) : (
        <div className="chips">
          {all.map((v) => (
            <button key={v} type="button" className={set.has(v) ? "chip active" : "chip"} aria-pressed={set.has(v)} onClick={() => {
              const next = set.has(v) ? [...set].filter((x) => x !== v) : [...set, v];
              onChange(next.length ? next : undefined);
            }}>{v}{users.has(v) && <span className="muted small cmp-facet-n" aria-label={t("campaigns.facetUsers", { count: users.get(v) })}> {users.get(v)}</span>}</button>
          ))}
        </div>
      )}
    </fieldset>
  );
}

export function AudienceStep({ tokenId, audience, onChange, people, typedIds, onTypedIds }: { tokenId: number; audience: Audience; onChange: (a: Audience) => void; people: People | undefined; typedIds: string; onTypedIds: (s: string) => void }) {
  const { t } = useTranslation();
  const settled = useDebounced(audience, 300);
  const size = useQuery({ queryKey: ["audience-size", tokenId, settled], queryFn: () => campaignsApi.audienceSize(tokenId, settled), retry: false });
  const set = (patch: Partial<Audience>) => onChange({ ...audience, ...patch });
  const filter = audience.filter ?? "all";
  return (
    <div className="stack">
      <Chips options={AUDIENCE_FILTERS} value={filter} label={t("campaigns.who")} labelKey="campaigns.filters" onChange={(f) => set({ filter: f, activeWithinDays: f === "all" ? undefined : (audience.activeWithinDays ?? 30) })} />
      {filter !== "all" && (
        <label className="compact-label">
          {t(filter === "active" ? "campaigns.activeDays" : "campaigns.inactiveDays")}
          <input type="number" min={1} max={3650} value={audience.activeWithinDays ?? 30} onChange={(e) => set({ activeWithinDays: e.target.value ? Number(e.target.value) : undefined })} className="cmp-days" />
        </label>
      )}
      <Pick label={t("campaigns.tags")} values={people?.tags ?? []} chosen={audience.tags} onChange={(tags) => set({ tags })} testId="pick-tags" />
      <Pick label={t("campaigns.languages")} values={people?.languages ?? []} chosen={audience.languages} onChange={(languages) => set({ languages })} testId="pick-languages" />
      <Pick label={t("campaigns.sources")} values={people?.sources ?? []} chosen={audience.sources} onChange={(sources) => set({ sources })} testId="pick-sources" />
      <div className="row wrap">
        <label className="compact-label">
          {t("campaigns.registeredFrom")}
          <input type="date" value={audience.registeredFrom ?? ""} onChange={(e) => set({ registeredFrom: e.target.value || undefined })} />
        </label>
        <label className="compact-label">
          {t("campaigns.registeredTo")}
          <input type="date" value={audience.registeredTo ?? ""} onChange={(e) => set({ registeredTo: e.target.value || undefined })} />
        </label>
      </div>
      <label>
        {t("campaigns.userIds")}
        <textarea rows={2} value={typedIds} placeholder="123456789, 987654321" onChange={(e) => {
          onTypedIds(e.target.value);
          const ids = idsOf(e.target.value);
          set({ userIds: ids.length ? ids : undefined });
        }} />
      </label>
      <p className="cmp-size" aria-live="polite" data-testid="audience-size" data-size={size.data?.size ?? ""}>
        {size.isError ? <span className="error">{errorText(size.error)}</span> : size.data ? <strong>{t("campaigns.size", { count: size.data.size })}</strong> : <span className="muted">{t("campaigns.counting")}</span>}
        <span className="muted small"> {t("campaigns.blockedOut")}</span>
      </p>
    </div>
  );
}
