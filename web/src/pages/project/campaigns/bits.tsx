// Small pieces of the Campaigns tab: the status badge, the progress bar of a campaign's
// recipients, and times in the zone campaigns are scheduled in.
import { useTranslation } from "react-i18next";
import { useMe } from "../../../auth";
import { instantToWall, wallToInstant } from "../../../../../src/lib/zoned-time";
import type { Campaign, CampaignStatus } from "./api";

export function StatusBadge({ status }: { status: CampaignStatus }) {
  const { t } = useTranslation();
  return <span className={`badge cmp-status cmp-${status}`} data-testid="campaign-status" data-status={status}>{t(`campaigns.status.${status}`)}</span>;
}

/** Sent, failed and pending as parts of one bar over the audience (the counts before it is fixed). */
export function Progress({ campaign }: { campaign: Pick<Campaign, "counts" | "audienceSize"> }) {
  const { t } = useTranslation();
  const { sent, failed, pending } = campaign.counts;
  const total = Math.max(campaign.audienceSize ?? 0, sent + failed + pending);
  const pct = (n: number) => (total > 0 ? `${(100 * n) / total}%` : "0%");
  return (
    <div className="cmp-progress" data-testid="progress" data-sent={sent} data-failed={failed} data-pending={pending}>
      <div className="cmp-bar" role="progressbar" aria-valuemin={0} aria-valuemax={total} aria-valuenow={sent + failed} aria-label={t("campaigns.progress")}>
        <span className="cmp-bar-sent" style={{ width: pct(sent) }} />
        <span className="cmp-bar-failed" style={{ width: pct(failed) }} />
      </div>
      <span className="small muted">{t("campaigns.progressText", { sent, failed, pending, total })}</span>
    </div>
  );
}

/** A campaign's zone when it names none (docs/campaigns.md#schedules). */
export const ZONE = "UTC";

/** The zone a new campaign's schedule starts in: the browser's own (a person writes 10:00 on their clock), else UTC. */
export function browserZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || ZONE;
  } catch {
    return ZONE;
  }
}

/** The zones the browser knows, UTC first (for the schedule's zone picker). */
export function zoneChoices(current: string): string[] {
  const all = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return [...new Set([ZONE, current, ...all])];
}

/**
 * A stored time as read in a campaign's zone, with the zone named: `medium` for facts, `short` for
 * table cells, `compact` for a phone's row (day, month, hours and minutes and the zone's short name;
 * the year only when not this one), as the Dialogs list dates a chat.
 */
export function useZoned() {
  const { i18n } = useTranslation();
  return (iso: string | null | undefined, zone: string = ZONE, style: "medium" | "short" | "compact" = "medium"): string => {
    if (!iso) return "—";
    const d = new Date(iso);
    if (Number.isNaN(d.getTime())) return "—";
    if (style === "compact") {
      const year = (x: Date) => x.toLocaleString("en", { timeZone: zone, year: "numeric" });
      return d.toLocaleString(i18n.language, { timeZone: zone, day: "numeric", month: "short", ...(year(d) === year(new Date()) ? {} : { year: "numeric" }), hour: "2-digit", minute: "2-digit", timeZoneName: "short" });
    }
    const short = style === "short";
    return `${d.toLocaleString(i18n.language, { timeZone: zone, dateStyle: short ? "short" : "medium", timeStyle: short ? "medium" : "short" })} ${zone}`;
  };
}

/** `YYYY-MM-DDTHH:MM` typed on the zone's clock → an ISO timestamp; null when malformed. */
export function zonedToIso(local: string, zone: string = ZONE): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(local)) return null;
  return wallToInstant(local, zone);
}

/** The inverse of zonedToIso, for a datetime-local input. */
export function isoToZoned(iso: string | null | undefined, zone: string = ZONE): string {
  return iso ? instantToWall(iso, zone) : "";
}

/** Who made a campaign: "you", the scenario's broadcast node, or the maker's user id. */
export function useMaker() {
  const { t } = useTranslation();
  const me = useMe();
  return (c: Pick<Campaign, "createdBy" | "source" | "nodeId">): string | null => {
    if (c.source === "scenario" && c.nodeId) return t("campaigns.fromNode", { node: c.nodeId });
    if (c.createdBy === null) return null;
    return c.createdBy === me.data?.id ? t("campaigns.you") : `#${c.createdBy}`;
  };
}
