// The campaigns of a token, newest first: name, status, progress over the audience, when it is or
// was sent, and who made it.
import { useState } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { ErrorLine } from "../../../components/ui";
import { Pager } from "../dialogs/controls";
import { campaignsApi, isEditable, type Campaign } from "./api";
import { Progress, StatusBadge, useMaker, useZoned } from "./bits";

const PAGE = 20;

function When({ c }: { c: Campaign }) {
  const { t } = useTranslation();
  const zoned = useZoned();
  if (c.finishedAt) return <>{t("campaigns.finished", { at: zoned(c.finishedAt, c.timeZone) })}</>;
  if (c.startedAt) return <>{t("campaigns.started", { at: zoned(c.startedAt, c.timeZone) })}</>;
  if (c.scheduledAt) return <>{t("campaigns.scheduled", { at: zoned(c.scheduledAt, c.timeZone) })}</>;
  return <>{t("campaigns.created", { at: zoned(c.createdAt, c.timeZone) })}</>;
}

export function CampaignList({ tokenId, active, onOpen, onNew }: { tokenId: number; active: number | null; onOpen: (id: number) => void; onNew: () => void }) {
  const { t } = useTranslation();
  const maker = useMaker();
  const [page, setPage] = useState(1);
  const list = useQuery({ queryKey: ["campaigns", tokenId, page], queryFn: () => campaignsApi.list(tokenId, page, PAGE), placeholderData: keepPreviousData });
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / PAGE));
  return (
    <section className="card stack cmp-list" aria-labelledby="cmp-list-title">
      <div className="row between">
        <h2 id="cmp-list-title">{t("campaigns.title")}</h2>
        <button type="button" className="btn primary" onClick={onNew}>{t("campaigns.new")}</button>
      </div>
      <ErrorLine error={list.error} />
      {list.data?.total === 0 && <p className="muted">{t("campaigns.none")}</p>}
      <ul className="plain cmp-items" data-testid="campaign-list">
        {list.data?.items.map((c) => (
          <li key={c.id}>
            <button type="button" className={active === c.id ? "cmp-item active" : "cmp-item"} data-campaign={c.id} onClick={() => onOpen(c.id)}>
              <span className="cmp-item-top">
                <strong className="ellipsis">{c.name}</strong>
                <StatusBadge status={c.status} />
              </span>
              {!isEditable(c.status) && <Progress campaign={c} />}
              <span className="muted small">
                <When c={c} />
                {maker(c) ? ` · ${t("campaigns.by", { who: maker(c) })}` : ""}
              </span>
            </button>
          </li>
        ))}
      </ul>
      <Pager page={page} pages={pages} onPage={setPage} />
    </section>
  );
}
