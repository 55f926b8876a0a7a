// One campaign: its live progress, the actions its status allows (each confirmed first), and the
// report — sent, failed by reason — with the recipients list. A draft opens the wizard to edit.
import { useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../api/client";
import { ConfirmDialog, ErrorLine } from "../../../components/ui";
import { useScenarioNodes } from "../dialogs/nodes";
import { campaignsApi, FAIL_REASONS, isEditable, isLive, type Campaign, type FailReason } from "./api";
import { Progress, StatusBadge, useMaker, useZoned } from "./bits";
import { MessagePreview } from "./MessagePreview";
import { Recipients } from "./Recipients";

type Action = "start" | "pause" | "resume" | "cancel" | "delete-sent" | "delete";
const DANGER: Action[] = ["cancel", "delete-sent", "delete"];

function actionsOf(c: Campaign): Action[] {
  switch (c.status) {
    case "draft":
    case "scheduled": return ["start", "delete"];
    case "sending": return ["pause", "cancel"];
    case "paused": return ["resume", "cancel"];
    case "done":
    case "cancelled": return c.counts.sent > 0 ? ["delete-sent", "delete"] : ["delete"];
  }
}

/** Failures by reason: the campaign's counts split them; "other" is the messenger's other errors. */
const failuresOf = (c: Campaign): Record<FailReason, number> => ({
  blocked: c.counts.blocked,
  deactivated: c.counts.deactivated,
  unknown: c.counts.unknown,
  other: c.counts.failed - c.counts.blocked - c.counts.deactivated - c.counts.unknown,
});

export function CampaignView({ projectId, tokenId, campaignId, onEdit, onBack, onDeleted }: { projectId: number; tokenId: number; campaignId: number; onEdit: () => void; onBack: () => void; onDeleted: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const zoned = useZoned();
  const maker = useMaker();
  const nodes = useScenarioNodes(projectId);
  const [confirm, setConfirm] = useState<Action | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // delete-sent answered before it ended (a big campaign): the view asks again until it has
  const [deleting, setDeleting] = useState(false);
  // Live counts come from `campaign` events (CampaignsTab); polling covers a dropped socket.
  const q = useQuery({ queryKey: ["campaign", tokenId, campaignId], queryFn: () => campaignsApi.one(tokenId, campaignId), refetchInterval: (query) => (query.state.data && (isLive(query.state.data.status) || (deleting && !query.state.data.sentDeletedAt)) ? 5000 : false) });
  const c = q.data;
  // Before the start the audience is not fixed: its size now is what a start would take.
  const sizeNow = useQuery({ queryKey: ["audience-size", tokenId, c?.audience], queryFn: () => campaignsApi.audienceSize(tokenId, c!.audience), enabled: Boolean(c && isEditable(c.status)), retry: false });
  if (q.isPending) return <section className="card cmp-detail"><p>{t("common.loading")}</p></section>;
  if (q.isError || !c) return <section className="card cmp-detail"><button type="button" className="btn ghost small-btn cmp-back" onClick={onBack}>← {t("campaigns.back")}</button><ErrorLine error={q.error} /></section>;

  const act = async (a: Action) => {
    setBusy(true);
    setError(null);
    try {
      if (a === "delete") {
        await campaignsApi.remove(tokenId, c.id);
        void qc.invalidateQueries({ queryKey: ["campaigns", tokenId] });
        onDeleted();
        return;
      }
      const next = await campaignsApi.act(tokenId, c.id, a);
      qc.setQueryData(["campaign", tokenId, c.id], next);
      if (a === "delete-sent") setDeleting(next.sentDeletedAt === null);
      void qc.invalidateQueries({ queryKey: ["campaigns", tokenId] });
      void qc.invalidateQueries({ queryKey: ["campaign-recipients", tokenId, c.id] });
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
      setConfirm(null);
    }
  };
  const nodeLabel = (id: string) => nodes.data?.find((n) => n.id === id)?.label ?? id;
  const started = c.status !== "draft" && c.status !== "scheduled";
  return (
    <section className="card stack cmp-detail" aria-labelledby="cmp-view-title" data-testid="campaign-view">
      <div className="cmp-head">
        <button type="button" className="btn ghost small-btn cmp-back" onClick={onBack}>← {t("campaigns.back")}</button>
        <h2 id="cmp-view-title" className="grow ellipsis">{c.name}</h2>
        <StatusBadge status={c.status} />
      </div>
      {started && <Progress campaign={c} />}
      <dl className="cmp-facts">
        <dt>{t("campaigns.audienceSize")}</dt><dd data-testid="audience-size">{c.audienceSize ?? (sizeNow.data ? t("campaigns.sizeNow", { count: sizeNow.data.size }) : sizeNow.isError ? errorText(sizeNow.error) : "…")}</dd>
        <dt>{t("campaigns.scheduledAt")}</dt><dd>{zoned(c.scheduledAt, c.timeZone)}</dd>
        <dt>{t("campaigns.startedAt")}</dt><dd>{zoned(c.startedAt, c.timeZone)}</dd>
        <dt>{t("campaigns.finishedAt")}</dt><dd>{zoned(c.finishedAt, c.timeZone)}</dd>
        {(c.sentDeletedAt || deleting) && (
          <>
            <dt>{t("campaigns.sentDeletedAt")}</dt>
            <dd data-testid="sent-deleted"><span role="status">{c.sentDeletedAt ? zoned(c.sentDeletedAt, c.timeZone) : t("campaigns.sentDeleting")}</span></dd>
          </>
        )}
        <dt>{t("campaigns.createdBy")}</dt><dd>{maker(c) ?? "—"}</dd>
      </dl>
      <div className="row wrap" role="group" aria-label={t("campaigns.actions")}>
        {isEditable(c.status) && <button type="button" className="btn" onClick={onEdit}>{t("campaigns.edit")}</button>}
        {actionsOf(c).map((a) => (
          <button key={a} type="button" className={DANGER.includes(a) ? "btn danger" : a === "start" ? "btn primary" : "btn"} disabled={busy} onClick={() => setConfirm(a)}>{t(`campaigns.do.${a}`)}</button>
        ))}
      </div>
      {error && <p className="error" role="alert">{error}</p>}
      {started && (
        <section className="stack" aria-labelledby="cmp-report-title" data-testid="campaign-report">
          <h3 id="cmp-report-title">{t("campaigns.report")}</h3>
          <ul className="stats cmp-report-stats">
            <li className="card stat" data-testid="report-sent"><span className="stat-value">{c.counts.sent}</span><span className="muted small">{t("campaigns.recipientStatus.sent")}</span></li>
            <li className="card stat" data-testid="report-failed"><span className="stat-value">{c.counts.failed}</span><span className="muted small">{t("campaigns.recipientStatus.failed")}</span></li>
            <li className="card stat" data-testid="report-pending"><span className="stat-value">{c.counts.pending}</span><span className="muted small">{t("campaigns.recipientStatus.pending")}</span></li>
          </ul>
          {c.counts.failed > 0 && (
            <ul className="plain-row cmp-reasons" aria-label={t("campaigns.byReason")}>
              {FAIL_REASONS.map((r) => <li key={r} data-testid={`reason-${r}`}>{t(`campaigns.reason.${r}`)}: <strong>{failuresOf(c)[r]}</strong></li>)}
            </ul>
          )}
          <Recipients tokenId={tokenId} campaignId={c.id} timeZone={c.timeZone} />
        </section>
      )}
      <details className="cmp-message-view">
        <summary>{t("campaigns.theMessage")}</summary>
        <MessagePreview projectId={projectId} message={c.message} user={null} nodeLabel={nodeLabel} />
      </details>
      <ConfirmDialog
        open={confirm !== null}
        title={confirm ? t(`campaigns.confirm.${confirm}`, { name: c.name }) : ""}
        confirmLabel={confirm ? t(`campaigns.do.${confirm}`) : ""}
        danger={confirm !== null && DANGER.includes(confirm)}
        busy={busy}
        onConfirm={() => confirm && void act(confirm)}
        onCancel={() => setConfirm(null)}
      >
        {confirm && <p>{t(`campaigns.confirmText.${confirm}`, { count: c.audienceSize ?? sizeNow.data?.size ?? "…", sent: c.counts.sent })}</p>}
      </ConfirmDialog>
    </section>
  );
}
