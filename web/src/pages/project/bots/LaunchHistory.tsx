// The project's launch history (GET /api/projects/{id}/launches/all): newest first. A launch's
// error reads on a line of its own under it, the table's width: as a fourth column it pushed the
// table sideways off a phone's screen (docs/studio.md).
import { Fragment } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { get } from "../../../api/client";
import { ErrorLine, useDates } from "../../../components/ui";

interface Launch {
  status: string;
  startedAt: string;
  stoppedAt: string | null;
  errorMessage: string | null;
}

export function LaunchHistory({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  const { dateTime } = useDates();
  const launches = useQuery({ queryKey: ["launches", projectId], queryFn: () => get<Launch[]>(`/api/projects/${projectId}/launches/all`), refetchInterval: 10_000 });
  return (
    <section className="card" aria-labelledby="launches-title">
      <h2 id="launches-title">{t("bots.launches")}</h2>
      <ErrorLine error={launches.error} />
      {launches.data?.length === 0 && <p className="muted small">{t("bots.noLaunches")}</p>}
      {!!launches.data?.length && (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th>{t("bots.status.label")}</th>
                <th>{t("bots.startedAt")}</th>
                <th>{t("bots.stoppedAt")}</th>
              </tr>
            </thead>
            <tbody>
              {launches.data.map((l, i) => (
                <Fragment key={i}>
                  <tr className={l.errorMessage ? "launch-failed" : undefined}>
                    <td><span className={`badge status-${l.status}`}>{t(`bots.status.${l.status}`, { defaultValue: l.status })}</span></td>
                    <td>{dateTime(l.startedAt)}</td>
                    <td>{l.stoppedAt ? dateTime(l.stoppedAt) : "—"}</td>
                  </tr>
                  {l.errorMessage && (
                    <tr className="launch-error">
                      <td colSpan={3} className="error small"><span className="muted">{t("bots.error")}: </span>{l.errorMessage}</td>
                    </tr>
                  )}
                </Fragment>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
