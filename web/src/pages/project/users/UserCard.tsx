// A bot user's card: names, language, premium, where they came from (source, referrer), first and
// last seen, messages in and out, blocked and takeover marks, tags (editable), payments, the variables the
// bot stored; "open dialog" and deleting the user (docs/dialogs.md "People of a bot").
import { useEffect, useRef, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { del, errorText, get, put } from "../../../api/client";
import type { BotUserDetail } from "../../../api/types";
import { ConfirmDialog, ErrorLine, useDates } from "../../../components/ui";
import { Payments } from "./Payments";

type Detail = BotUserDetail;

const TAG_MAX = 32;
const TAGS_MAX = 20;

function Tags({ tokenId, userId, tags }: { tokenId: number; userId: string; tags: string[] }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [draft, setDraft] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async (next: string[]) => {
    setBusy(true);
    setError(null);
    try {
      await put(`/api/bot/tokens/${tokenId}/users/${encodeURIComponent(userId)}/tags`, { tags: next });
      setDraft("");
      await qc.invalidateQueries({ queryKey: ["bot-user", tokenId, userId] });
      void qc.invalidateQueries({ queryKey: ["bot-users", tokenId] });
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  const add = () => {
    const tag = draft.trim();
    if (!tag || tags.includes(tag)) return setDraft("");
    void save([...tags, tag]);
  };
  return (
    <div className="stack" data-testid="user-tags">
      <h3>{t("people.tags")}</h3>
      {tags.length === 0 ? (
        <p className="muted small">{t("people.noTags")}</p>
      ) : (
        <ul className="chips plain-row" aria-label={t("people.tags")}>
          {tags.map((tag) => (
            <li key={tag} className="tag">
              {tag}
              <button type="button" aria-label={t("people.removeTag", { tag })} disabled={busy} onClick={() => void save(tags.filter((x) => x !== tag))}>✕</button>
            </li>
          ))}
        </ul>
      )}
      {tags.length < TAGS_MAX && (
        <form className="row" onSubmit={(e) => { e.preventDefault(); add(); }}>
          <label className="grow">
            <span className="sr-only">{t("people.addTag")}</span>
            <input value={draft} maxLength={TAG_MAX} placeholder={t("people.addTag")} aria-label={t("people.addTag")} onChange={(e) => setDraft(e.target.value)} />
          </label>
          <button type="submit" className="btn small-btn" disabled={busy || !draft.trim()}>{t("people.addTag")}</button>
        </form>
      )}
      <p className="muted small">{t("people.tagHint")}</p>
      {error && <p className="error small" role="alert">{error}</p>}
    </div>
  );
}

export function UserCard({ projectId, tokenId, userId, onClose, onDeleted }: { projectId: number; tokenId: number; userId: string; onClose: () => void; onDeleted: () => void }) {
  const { t } = useTranslation();
  const { dateTime } = useDates();
  const [confirm, setConfirm] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const d = useQuery({ queryKey: ["bot-user", tokenId, userId], queryFn: () => get<Detail>(`/api/bot/tokens/${tokenId}/users/${encodeURIComponent(userId)}`) });
  const u = d.data;
  // On a phone the card sits under the list: bring it into view when a user is picked.
  const box = useRef<HTMLElement>(null);
  useEffect(() => {
    if (matchMedia("(max-width: 760px)").matches) box.current?.scrollIntoView({ block: "start" });
  }, [userId]);
  const vars = Object.entries(u?.variables ?? {});
  const name = u ? [u.firstName, u.lastName].filter(Boolean).join(" ") || `#${u.userId}` : "";
  const remove = async () => {
    setBusy(true);
    setError(null);
    try {
      await del(`/api/bot/tokens/${tokenId}/users/${encodeURIComponent(userId)}`);
      setConfirm(false);
      onDeleted();
    } catch (e) {
      setError(errorText(e));
      setConfirm(false);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section ref={box} className="card stack" aria-labelledby="user-card-title" data-testid="user-card">
      <div className="row between">
        <h2 id="user-card-title" className="inline-h">{u ? name : t("common.loading")}</h2>
        <button type="button" className="btn small-btn" onClick={onClose}>{t("common.close")}</button>
      </div>
      <ErrorLine error={d.error ?? error} />
      {u && (
        <>
          <div className="actions">
            <Link className="btn small-btn primary" href={`/projects/${projectId}/dialogs?token=${tokenId}&chat=${encodeURIComponent(u.userId)}`}>{t("people.openDialog")}</Link>
            <button type="button" className="btn small-btn danger" onClick={() => setConfirm(true)}>{t("people.remove")}</button>
            {u.blocked && <span className="badge danger-badge">{t("people.blocked")}</span>}
            {u.takeover && <span className="badge warn-badge">{t("people.takeover")}</span>}
          </div>
          <div className="row">
            {u.photoUrl && <img src={u.photoUrl} alt="" width={48} height={48} className="avatar" />}
            <dl className="facts">
              <dt>{t("users.id")}</dt>
              <dd>{u.userId}</dd>
              {u.userName && (<><dt>{t("users.username")}</dt><dd>@{u.userName}</dd></>)}
              <dt>{t("people.language")}</dt>
              <dd>{u.languageCode || "—"}</dd>
              <dt>{t("people.premium")}</dt>
              <dd>{u.isPremium ? t("people.yes") : t("people.no")}</dd>
              <dt>{t("people.sourceFact")}</dt>
              <dd data-testid="user-source">{u.source || "—"}</dd>
              <dt>{t("people.referrer")}</dt>
              <dd data-testid="user-referrer">{u.referrerId || "—"}</dd>
              <dt>{t("users.firstSeen")}</dt>
              <dd>{u.firstSeenAt ? dateTime(u.firstSeenAt) : u.registeredAt || "—"}</dd>
              <dt>{t("users.lastSeen")}</dt>
              <dd>{u.lastSeenAt ? dateTime(u.lastSeenAt) : u.lastInteraction || "—"}</dd>
              <dt>{t("people.messagesIn")}</dt>
              <dd>{u.messagesIn ?? "—"}</dd>
              <dt>{t("people.messagesOut")}</dt>
              <dd>{u.messagesOut ?? "—"}</dd>
              <dt>{t("users.interactions")}</dt>
              <dd>{u.interactionCount}</dd>
              <dt>{t("people.blockedFact")}</dt>
              <dd>{u.blocked ? `${t("people.yes")}${u.blockedAt ? ` (${t("people.blockedSince", { date: dateTime(u.blockedAt) })})` : ""}` : t("people.no")}</dd>
              <dt>{t("people.takeoverFact")}</dt>
              <dd>{u.takeover ? t("people.yes") : t("people.no")}</dd>
            </dl>
          </div>
          <Tags tokenId={tokenId} userId={u.userId} tags={u.tags ?? []} />
          <Payments tokenId={tokenId} userId={u.userId} />
          <h3>{t("users.variables")}</h3>
          {vars.length === 0 ? (
            <p className="muted small">{t("users.noVariables")}</p>
          ) : (
            <dl className="facts vars">
              {vars.map(([k, v]) => (
                <div key={k} className="contents">
                  <dt><code>{k}</code></dt>
                  <dd>{typeof v === "string" ? v : JSON.stringify(v)}</dd>
                </div>
              ))}
            </dl>
          )}
          <ConfirmDialog open={confirm} title={t("people.removeTitle", { name })} confirmLabel={t("people.remove")} danger busy={busy} onConfirm={() => void remove()} onCancel={() => setConfirm(false)}>
            <p>{t("people.removeIntro")}</p>
            <p>{t("people.removeWhat")}</p>
            <p className="muted small">{t("people.removeNote")}</p>
          </ConfirmDialog>
        </>
      )}
    </section>
  );
}
