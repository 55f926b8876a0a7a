// A campaign's recipients, filtered by status and paged, and their CSV: a link to the server's
// recipients/export (the session cookie goes with it; the filter too), so nothing is paged here.
// In a narrow box (a phone) each recipient is a row of two lines, as the Dialogs list shows a chat:
// who and a compact time, then the status and the error (campaigns.css). A message delete-sent
// removed is marked beside its status, the time in the mark's tooltip.
import { useState } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { ErrorLine } from "../../../components/ui";
import { Chips, Pager } from "../dialogs/controls";
import { campaignsApi, RECIPIENT_STATUSES, recipientsCsvUrl } from "./api";
import { useZoned } from "./bits";

const PAGE = 20;
const FILTERS = ["all", ...RECIPIENT_STATUSES] as const;

export function Recipients({ tokenId, campaignId, timeZone }: { tokenId: number; campaignId: number; timeZone: string }) {
  const { t } = useTranslation();
  const zoned = useZoned();
  const [filter, setFilter] = useState<(typeof FILTERS)[number]>("all");
  const [page, setPage] = useState(1);
  const status = filter === "all" ? undefined : filter;
  const list = useQuery({
    queryKey: ["campaign-recipients", tokenId, campaignId, status, page],
    queryFn: () => campaignsApi.recipients(tokenId, campaignId, { status, page, perPage: PAGE }),
    placeholderData: keepPreviousData,
  });
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / PAGE));
  return (
    <section className="stack" aria-labelledby="cmp-recipients-title">
      <div className="row between wrap">
        <h3 id="cmp-recipients-title">{t("campaigns.recipients")}</h3>
        <a className="btn small-btn" href={recipientsCsvUrl(tokenId, campaignId, status)} download={`campaign-${campaignId}-recipients.csv`} data-testid="recipients-csv">{t("campaigns.csv")}</a>
      </div>
      <Chips options={FILTERS} value={filter} label={t("campaigns.recipientFilter")} labelKey="campaigns.recipientStatus" onChange={(f) => { setFilter(f); setPage(1); }} />
      <ErrorLine error={list.error} />
      {list.data?.total === 0 && <p className="muted">{t("campaigns.noRecipients")}</p>}
      {list.data && list.data.items.length > 0 && (
        <div className="cmp-table-wrap">
          <table className="cmp-table" data-testid="recipients">
            <thead>
              <tr><th>{t("campaigns.user")}</th><th>{t("campaigns.state")}</th><th>{t("campaigns.error")}</th><th>{t("campaigns.sentAt")}</th></tr>
            </thead>
            <tbody>
              {list.data.items.map((r) => (
                <tr key={r.userId} data-status={r.status}>
                  <td>
                    <span className="cmp-who">{[r.firstName, r.lastName].filter(Boolean).join(" ") || `#${r.userId}`}</span> {r.username && <span className="muted">@{r.username}</span>} <span className="muted small">{r.userId}</span>
                  </td>
                  <td>
                    {t(`campaigns.recipientStatus.${r.status}`)}
                    {r.deletedAt && (
                      <>
                        {" · "}
                        <time className="cmp-deleted" dateTime={r.deletedAt} title={t("campaigns.deletedAtTitle", { at: zoned(r.deletedAt, timeZone, "short") })} data-testid="recipient-deleted">
                          {t("campaigns.deletedMark")}
                        </time>
                      </>
                    )}
                  </td>
                  <td className="cmp-error" title={r.error ?? undefined}>{r.error ?? ""}</td>
                  <td className="small nowrap">
                    {r.sentAt && (
                      <time dateTime={r.sentAt} title={zoned(r.sentAt, timeZone, "short")}>
                        <span className="cmp-time-full">{zoned(r.sentAt, timeZone, "short")}</span>
                        <span className="cmp-time-compact">{zoned(r.sentAt, timeZone, "compact")}</span>
                      </time>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} pages={pages} onPage={setPage} />
    </section>
  );
}
