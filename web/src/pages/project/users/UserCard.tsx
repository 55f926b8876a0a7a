// A bot user's card: names, first and last seen, interactions and the variables the bot stored.
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { get } from "../../../api/client";
import { ErrorLine } from "../../../components/ui";

interface Detail {
  userId: string;
  firstName: string;
  lastName: string;
  userName: string;
  registeredAt: string;
  lastInteraction: string;
  interactionCount: number;
  photoUrl: string;
  variables: Record<string, unknown>;
}

export function UserCard({ tokenId, userId, onClose }: { tokenId: number; userId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const d = useQuery({ queryKey: ["bot-user", tokenId, userId], queryFn: () => get<Detail>(`/api/bot/tokens/${tokenId}/users/${userId}`) });
  const u = d.data;
  const vars = Object.entries(u?.variables ?? {});
  return (
    <section className="card stack" aria-labelledby="user-card-title" data-testid="user-card">
      <div className="row between">
        <h2 id="user-card-title" className="inline-h">{u ? [u.firstName, u.lastName].filter(Boolean).join(" ") || `#${u.userId}` : t("common.loading")}</h2>
        <button type="button" className="btn small-btn" onClick={onClose}>{t("common.close")}</button>
      </div>
      <ErrorLine error={d.error} />
      {u && (
        <>
          <div className="row">
            {u.photoUrl && <img src={u.photoUrl} alt="" width={48} height={48} className="avatar" />}
            <dl className="facts">
              <dt>{t("users.id")}</dt>
              <dd>{u.userId}</dd>
              {u.userName && (<><dt>{t("users.username")}</dt><dd>@{u.userName}</dd></>)}
              <dt>{t("users.firstSeen")}</dt>
              <dd>{u.registeredAt || "—"}</dd>
              <dt>{t("users.lastSeen")}</dt>
              <dd>{u.lastInteraction || "—"}</dd>
              <dt>{t("users.interactions")}</dt>
              <dd>{u.interactionCount}</dd>
            </dl>
          </div>
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
        </>
      )}
    </section>
  );
}
