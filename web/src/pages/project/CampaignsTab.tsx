// The Campaigns of a project's bots (docs/campaigns.md): the list beside one campaign — its view,
// or the wizard for a new or edited draft. On a phone they are two screens. The open campaign
// lives in the address (?token=&campaign=<id>|new&edit=1), so a reload lands on it. Progress is
// live: `campaign` events carry each campaign's status and counts.
import "./dialogs/dialogs.css";
import "./campaigns/campaigns.css";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useProjectEvents } from "../../api/events";
import { ErrorLine } from "../../components/ui";
import { registerAudienceStrings } from "./dialogs/i18n";
import { TokenPicker, useTokenChoice } from "./dialogs/controls";
import { campaignsApi, type Campaign, type Paged } from "./campaigns/api";
import { CampaignList } from "./campaigns/CampaignList";
import { CampaignView } from "./campaigns/CampaignView";
import { registerCampaignStrings } from "./campaigns/i18n";
import { Wizard } from "./campaigns/Wizard";

registerAudienceStrings();
registerCampaignStrings();

function EditDraft({ projectId, tokenId, campaignId, onSaved, onClose }: { projectId: number; tokenId: number; campaignId: number; onSaved: (id: number) => void; onClose: () => void }) {
  const q = useQuery({ queryKey: ["campaign", tokenId, campaignId], queryFn: () => campaignsApi.one(tokenId, campaignId) });
  if (q.isError) return <section className="card cmp-detail"><ErrorLine error={q.error} /></section>;
  if (!q.data) return null;
  return <Wizard projectId={projectId} tokenId={tokenId} campaign={q.data} onSaved={onSaved} onClose={onClose} />;
}

export function CampaignsTab({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  const { tokens, items, tokenId, params, setParams } = useTokenChoice(projectId);
  const qc = useQueryClient();
  const open = params.get("campaign");
  const editing = params.get("edit") === "1";
  const openId = open && open !== "new" ? Number(open) : null;
  useProjectEvents((e) => {
    if (e.event !== "campaign" || e.projectId !== projectId) return;
    const apply = (c: Campaign): Campaign => (c.id === e.campaignId ? { ...c, status: e.status, counts: { ...c.counts, ...e.counts } } : c);
    const before = qc.getQueryData<Campaign>(["campaign", e.tokenId, e.campaignId]);
    qc.setQueryData<Campaign>(["campaign", e.tokenId, e.campaignId], (c) => (c ? apply(c) : c));
    qc.setQueriesData<Paged<Campaign>>({ queryKey: ["campaigns", e.tokenId] }, (p) => (p ? { ...p, items: p.items.map(apply) } : p));
    // A new status brings times (started, finished) and a changed recipients list: read them again.
    if (!before || before.status !== e.status) {
      void qc.invalidateQueries({ queryKey: ["campaign", e.tokenId, e.campaignId] });
      void qc.invalidateQueries({ queryKey: ["campaigns", e.tokenId] });
    }
    void qc.invalidateQueries({ queryKey: ["campaign-recipients", e.tokenId, e.campaignId] });
  });
  const go = (next: { token?: number; campaign?: string | null; edit?: boolean }) =>
    setParams((p) => {
      const q = new URLSearchParams(p);
      if (next.token !== undefined) q.set("token", String(next.token));
      if (next.campaign) q.set("campaign", next.campaign);
      else if (next.campaign === null) q.delete("campaign");
      if (next.edit) q.set("edit", "1");
      else q.delete("edit");
      return q;
    });

  if (tokens.isPending) return <p>{t("common.loading")}</p>;
  if (tokens.isError) return <ErrorLine error={tokens.error} />;
  if (tokenId === null) return <p className="muted">{t("campaigns.noBots")}</p>;
  const show = (id: number) => go({ token: tokenId, campaign: String(id) });
  return (
    <div className="stack">
      <TokenPicker items={items} tokenId={tokenId} onPick={(token) => go({ token, campaign: null })} />
      <div className={open ? "cmp has-open" : "cmp"} data-testid="campaigns">
        <CampaignList key={`list-${tokenId}`} tokenId={tokenId} active={openId} onOpen={show} onNew={() => go({ token: tokenId, campaign: "new" })} />
        {open === "new" ? (
          <Wizard key={`new-${tokenId}`} projectId={projectId} tokenId={tokenId} campaign={null} onSaved={show} onClose={(id) => go({ campaign: id === null ? null : String(id) })} />
        ) : openId !== null && editing ? (
          <EditDraft key={`edit-${openId}`} projectId={projectId} tokenId={tokenId} campaignId={openId} onSaved={show} onClose={() => show(openId)} />
        ) : openId !== null ? (
          <CampaignView key={`view-${openId}`} projectId={projectId} tokenId={tokenId} campaignId={openId} onEdit={() => go({ campaign: String(openId), edit: true })} onBack={() => go({ campaign: null })} onDeleted={() => go({ campaign: null })} />
        ) : (
          <p className="cmp-placeholder muted">{t("campaigns.pick")}</p>
        )}
      </div>
    </div>
  );
}
