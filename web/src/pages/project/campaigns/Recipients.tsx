// A campaign's recipients, filtered by status and paged, and their CSV, built here from every page
// of the list (the columns the list shows; the server's recipients/export adds names).
import { useState } from "react";
import { csvCell } from "../../../../../src/lib/csv-cell";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../api/client";
import { downloadText, ErrorLine } from "../../../components/ui";
import { Chips, Pager } from "../dialogs/controls";
import { campaignsApi, RECIPIENT_STATUSES, type Recipient, type RecipientStatus } from "./api";
import { useZoned } from "./bits";

const PAGE = 20;
const CSV_PAGE = 100;
const FILTERS = ["all", ...RECIPIENT_STATUSES] as const;

/** Every recipient of a campaign (optionally of one status), page by page. */
export async function allRecipients(tokenId: number, id: number, status?: RecipientStatus): Promise<Recipient[]> {
  const out: Recipient[] = [];
  for (let page = 1; ; page++) {
    const p = await campaignsApi.recipients(tokenId, id, { status, page, perPage: CSV_PAGE });
    out.push(...p.items);
    if (p.items.length < CSV_PAGE || out.length >= p.total) return out;
  }
}

export function recipientsCsv(items: Recipient[]): string {
  const lines = [["user_id", "status", "error", "sent_at"].join(",")];
  for (const r of items) lines.push([r.userId, r.status, r.error, r.sentAt].map(csvCell).join(","));
  return lines.join("\r\n") + "\r\n";
}

export function Recipients({ tokenId, campaignId }: { tokenId: number; campaignId: number }) {
  const { t } = useTranslation();
  const zoned = useZoned();
  const [filter, setFilter] = useState<(typeof FILTERS)[number]>("all");
  const [page, setPage] = useState(1);
  const [csvBusy, setCsvBusy] = useState(false);
  const [csvError, setCsvError] = useState<string | null>(null);
  const status = filter === "all" ? undefined : filter;
  const list = useQuery({
    queryKey: ["campaign-recipients", tokenId, campaignId, status, page],
    queryFn: () => campaignsApi.recipients(tokenId, campaignId, { status, page, perPage: PAGE }),
    placeholderData: keepPreviousData,
  });
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / PAGE));
  const csv = async () => {
    setCsvBusy(true);
    setCsvError(null);
    try {
      downloadText(`campaign-${campaignId}-recipients.csv`, recipientsCsv(await allRecipients(tokenId, campaignId, status)), "text/csv");
    } catch (e) {
      setCsvError(errorText(e));
    } finally {
      setCsvBusy(false);
    }
  };
  return (
    <section className="stack" aria-labelledby="cmp-recipients-title">
      <div className="row between wrap">
        <h3 id="cmp-recipients-title">{t("campaigns.recipients")}</h3>
        <button type="button" className="btn small-btn" disabled={csvBusy} onClick={() => void csv()}>{csvBusy ? t("people.exporting") : t("campaigns.csv")}</button>
      </div>
      <Chips options={FILTERS} value={filter} label={t("campaigns.recipientFilter")} labelKey="campaigns.recipientStatus" onChange={(f) => { setFilter(f); setPage(1); }} />
      <ErrorLine error={csvError} />
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
                  <td>{r.userId}</td>
                  <td>{t(`campaigns.recipientStatus.${r.status}`)}</td>
                  <td className="ellipsis">{r.error ?? ""}</td>
                  <td className="small nowrap">{r.sentAt ? zoned(r.sentAt, true) : ""}</td>
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
