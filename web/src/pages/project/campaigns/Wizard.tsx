// Creating or editing a draft campaign in four steps: audience (live count) → message (preview
// with a sample user) → a test to me or the admins → now or scheduled. The draft is saved when the
// message step is left (a test needs a stored campaign) and again before it is started or scheduled.
import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../api/client";
import { ErrorLine } from "../../../components/ui";
import { draftsOf, rowsOf } from "../dialogs/MessageParts";
import { campaignsApi, type Audience, type Campaign, type CampaignInput } from "./api";
import { AudienceStep } from "./AudienceStep";
import { browserZone, isoToZoned, zonedToIso } from "./bits";
import { mediaFields } from "./MediaList";
import { isAlbum, limitOf, MessageStep, type MessageDraft } from "./MessageStep";
import { usePeople } from "./people";
import { TestStep, WhenStep, type When } from "./SendSteps";

const STEPS = ["audience", "message", "test", "when"] as const;
const NAME_MAX = 100;

export function Wizard({ projectId, tokenId, campaign, onSaved, onClose }: { projectId: number; tokenId: number; campaign: Campaign | null; onSaved: (id: number) => void; onClose: (id: number | null) => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const people = usePeople(tokenId);
  const [step, setStep] = useState(0);
  const [savedId, setSavedId] = useState<number | null>(campaign?.id ?? null);
  const [name, setName] = useState(campaign?.name ?? "");
  const [audience, setAudience] = useState<Audience>(campaign?.audience ?? { filter: "all" });
  const [typedIds, setTypedIds] = useState((campaign?.audience.userIds ?? []).join(", "));
  const [message, setMessage] = useState<MessageDraft>({ text: campaign?.message.text ?? "", format: campaign?.message.format ?? "none", media: campaign?.message.mediaIds ?? (campaign?.message.mediaId ? [campaign.message.mediaId] : []), buttons: draftsOf(campaign?.message.buttons) });
  const [sampleId, setSampleId] = useState("");
  const [zone, setZone] = useState(campaign?.timeZone ?? browserZone);
  const [when, setWhen] = useState<When>(campaign?.scheduledAt ? { kind: "later", at: isoToZoned(campaign.scheduledAt, campaign.timeZone) } : { kind: "now" });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const sample = sampleId || people.data?.users[0]?.userId || "";

  const body = (): CampaignInput => ({
    name: name.trim(),
    timeZone: zone,
    audience,
    message: { text: message.text, format: message.format, ...mediaFields(message.media), ...(message.buttons.length > 0 && { buttons: rowsOf(message.buttons) }) },
  });
  const messageProblem = !message.text.trim()
    ? t("campaigns.needText")
    : message.text.length > limitOf(message)
      ? t("campaigns.tooLong", { max: limitOf(message) })
      : isAlbum(message) && message.buttons.length > 0
        ? t("campaigns.albumButtons")
        : null;
  const problem = (at: number): string | null => {
    if (at >= 0 && !name.trim()) return t("campaigns.needName");
    if (at >= 1 && messageProblem) return messageProblem;
    return null;
  };

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  const save = async (extra: Partial<CampaignInput> = {}): Promise<Campaign> => {
    // A new campaign is a draft unless it names a time; only a stored one can be unscheduled (null).
    const saved = savedId === null ? await campaignsApi.create(tokenId, { ...body(), ...(extra.scheduledAt && { scheduledAt: extra.scheduledAt }) }) : await campaignsApi.update(tokenId, savedId, { ...body(), ...extra });
    setSavedId(saved.id);
    qc.setQueryData(["campaign", tokenId, saved.id], saved);
    void qc.invalidateQueries({ queryKey: ["campaigns", tokenId] });
    return saved;
  };
  const next = () => {
    const p = problem(step);
    if (p) return setError(p);
    if (step === 1) return void run(async () => { await save(); setStep(2); });
    setError(null);
    setStep(step + 1);
  };
  const finish = () => void run(async () => {
    if (when.kind === "later") {
      const at = zonedToIso(when.at, zone);
      if (!at) throw new Error(t("campaigns.needTime"));
      const saved = await save({ scheduledAt: at });
      onSaved(saved.id);
      return;
    }
    const saved = await save({ scheduledAt: null });
    const started = await campaignsApi.act(tokenId, saved.id, "start");
    qc.setQueryData(["campaign", tokenId, started.id], started);
    void qc.invalidateQueries({ queryKey: ["campaigns", tokenId] });
    onSaved(started.id);
  });
  const saveDraft = () => void run(async () => {
    const p = problem(1);
    if (p) throw new Error(p);
    onSaved((await save({ scheduledAt: null })).id);
  });

  return (
    <section className="card stack cmp-detail" aria-labelledby="cmp-wizard-title" data-testid="campaign-wizard">
      <div className="cmp-head">
        <button type="button" className="btn ghost small-btn cmp-back" onClick={() => onClose(savedId)}>← {t("campaigns.back")}</button>
        <h2 id="cmp-wizard-title" className="grow">{campaign ? t("campaigns.editTitle") : t("campaigns.newTitle")}</h2>
      </div>
      <ol className="cmp-steps" aria-label={t("campaigns.steps")}>
        {STEPS.map((s, i) => (
          <li key={s}>
            <button type="button" className={i === step ? "cmp-step active" : "cmp-step"} aria-current={i === step ? "step" : undefined} disabled={busy || i > step} onClick={() => { setError(null); setStep(i); }}>
              <span className="cmp-step-no">{i + 1}</span> {t(`campaigns.step.${s}`)}
            </button>
          </li>
        ))}
      </ol>
      {step === 0 && (
        <>
          <label>
            {t("campaigns.name")}
            <input value={name} maxLength={NAME_MAX} onChange={(e) => setName(e.target.value)} placeholder={t("campaigns.namePlaceholder")} />
          </label>
          <AudienceStep tokenId={tokenId} audience={audience} onChange={setAudience} people={people.data} typedIds={typedIds} onTypedIds={setTypedIds} />
        </>
      )}
      {step === 1 && <MessageStep projectId={projectId} tokenId={tokenId} draft={message} onChange={setMessage} people={people.data} sampleId={sample} onSample={setSampleId} />}
      {step === 2 && savedId !== null && <TestStep projectId={projectId} tokenId={tokenId} campaignId={savedId} />}
      {step === 3 && <WhenStep when={when} onChange={setWhen} zone={zone} onZone={setZone} />}
      {step < 2 && <ErrorLine error={people.error} />}
      {error && <p className="error" role="alert">{error}</p>}
      <div className="row between wrap cmp-nav">
        <button type="button" className="btn" disabled={busy || step === 0} onClick={() => { setError(null); setStep(step - 1); }}>{t("common.prev")}</button>
        <div className="row wrap">
          {step >= 1 && <button type="button" className="btn" disabled={busy} onClick={saveDraft}>{t("campaigns.saveDraft")}</button>}
          {step < STEPS.length - 1 ? (
            <button type="button" className="btn primary" disabled={busy} onClick={next}>{t("campaigns.next")}</button>
          ) : (
            <button type="button" className="btn primary" disabled={busy} onClick={finish}>{when.kind === "now" ? t("campaigns.startNow") : t("campaigns.schedule")}</button>
          )}
        </div>
      </div>
    </section>
  );
}
