// Steps 3 and 4 of the wizard: a test to the operator or the project's admins (not counted in the
// campaign), then sending now or at a time on the clock of the zone picked (the campaign's timeZone).
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { errorText, get } from "../../../api/client";
import { useMe } from "../../../auth";
import { campaignsApi, TEST_MAX } from "./api";
import { idsOf } from "./AudienceStep";
import { useZoned, ZONE, zonedToIso, zoneChoices } from "./bits";

export function TestStep({ projectId, tokenId, campaignId }: { projectId: number; tokenId: number; campaignId: number }) {
  const { t } = useTranslation();
  const me = useMe();
  const admins = useQuery({ queryKey: ["admin-ids", projectId], queryFn: () => get<{ items: { id: string | number }[] }>(`/api/projects/${projectId}/admin-ids`) });
  const meId = me.data ? String(me.data.id) : null;
  const adminIds = (admins.data?.items ?? []).map((x) => String(x.id)).filter((id) => id !== meId);
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [typed, setTyped] = useState("");
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ sent: number; failed: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const ids = [...new Set([...picked, ...idsOf(typed)])];
  const toggle = (id: string) => setPicked((s) => {
    const n = new Set(s);
    if (n.has(id)) n.delete(id);
    else n.add(id);
    return n;
  });
  const send = async () => {
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      setResult(await campaignsApi.test(tokenId, campaignId, ids));
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="stack">
      <p className="muted">{t("campaigns.testIntro")}</p>
      <fieldset className="cmp-pick">
        <legend>{t("campaigns.testTo")}</legend>
        {meId && (
          <label className="compact-label">
            <input type="checkbox" checked={picked.has(meId)} onChange={() => toggle(meId)} /> {t("campaigns.testMe", { id: meId })}
          </label>
        )}
        {adminIds.map((id) => (
          <label key={id} className="compact-label">
            <input type="checkbox" checked={picked.has(id)} onChange={() => toggle(id)} /> {t("campaigns.testAdmin", { id })}
          </label>
        ))}
        <label>
          {t("campaigns.testTyped")}
          <input value={typed} onChange={(e) => setTyped(e.target.value)} placeholder="123456789" />
        </label>
      </fieldset>
      <div className="row">
        <button type="button" className="btn" disabled={busy || ids.length === 0 || ids.length > TEST_MAX} onClick={() => void send()}>{t("campaigns.sendTest", { count: ids.length })}</button>
        {ids.length > TEST_MAX && <span className="error small">{t("campaigns.testMax", { max: TEST_MAX })}</span>}
      </div>
      {result && <p role="status" data-testid="test-result">{t("campaigns.testResult", result)}</p>}
      {error && <p className="error" role="alert">{error}</p>}
    </div>
  );
}

export type When = { kind: "now" } | { kind: "later"; at: string };

export function WhenStep({ when, onChange, zone, onZone }: { when: When; onChange: (w: When) => void; zone: string; onZone: (zone: string) => void }) {
  const { t } = useTranslation();
  const zoned = useZoned();
  const at = when.kind === "later" ? zonedToIso(when.at, zone) : null;
  return (
    <fieldset className="cmp-pick stack">
      <legend>{t("campaigns.when")}</legend>
      <label className="compact-label">
        <input type="radio" name="cmp-when" checked={when.kind === "now"} onChange={() => onChange({ kind: "now" })} /> {t("campaigns.now")}
      </label>
      <label className="compact-label">
        <input type="radio" name="cmp-when" checked={when.kind === "later"} onChange={() => onChange({ kind: "later", at: when.kind === "later" ? when.at : "" })} /> {t("campaigns.later")}
      </label>
      {when.kind === "later" && (
        <div className="row wrap cmp-when">
          <label className="compact-label">
            {t("campaigns.at")}
            <input type="datetime-local" value={when.at} onChange={(e) => onChange({ kind: "later", at: e.target.value })} aria-describedby="cmp-zone" />
          </label>
          <label className="compact-label">
            {t("campaigns.zone")}
            <select id="cmp-zone" value={zone} onChange={(e) => onZone(e.target.value)}>
              {zoneChoices(zone).map((z) => <option key={z} value={z}>{z}</option>)}
            </select>
          </label>
        </div>
      )}
      {/* the instant it names, in UTC too, so a zone picked by mistake shows */}
      {at && zone !== ZONE && <p className="small" data-testid="schedule-utc">{t("campaigns.zoneIs", { at: zoned(at, ZONE) })}</p>}
      <p className="muted small">{t("campaigns.zoneNote", { zone })}</p>
    </fieldset>
  );
}
