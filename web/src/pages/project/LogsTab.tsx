// Live tail of the project's bot logs. Polling GET /api/projects/{id}/logs/all every 2 s (the
// newest LIMIT lines, newest first): one request the server answers from an index (measured in
// bench/studio.ts: ~1 ms, 43 KB), nothing to reconnect, and TanStack stops it in a hidden tab.
// Pause stops the polling; filters work on the lines already fetched.
import { useMemo, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { get } from "../../api/client";
import type { TokenItem } from "../../api/types";
import { downloadText, ErrorLine, useDates } from "../../components/ui";

interface LogEntry {
  level: string;
  message: string;
  createdAt: string;
}

export const LOG_POLL_MS = 2000;
const LIMIT = 200;

export function LogsTab({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  const { dateTime } = useDates();
  const [paused, setPaused] = useState(false);
  const [level, setLevel] = useState("");
  const [search, setSearch] = useState("");
  const [tokenId, setTokenId] = useState("");
  const tokens = useQuery({ queryKey: ["tokens", projectId], queryFn: () => get<{ items: TokenItem[] }>(`/api/bot/projects/${projectId}/tokens`) });
  const logs = useQuery({
    queryKey: ["logs", projectId, tokenId],
    queryFn: () => get<LogEntry[]>(`/api/projects/${projectId}/logs/all`, { query: { limit: LIMIT, tokenId } }),
    refetchInterval: paused ? false : LOG_POLL_MS,
  });
  const shown = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return (logs.data ?? []).filter((l) => (!level || l.level === level) && (!needle || l.message.toLowerCase().includes(needle)));
  }, [logs.data, level, search]);
  const levels = useMemo(() => [...new Set(["stdout", "stderr", ...(logs.data ?? []).map((l) => l.level)])], [logs.data]);
  const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, "-");
  return (
    <div className="stack">
      <div className="row toolbar">
        <label>
          {t("logs.bot")}
          <select value={tokenId} onChange={(e) => setTokenId(e.target.value)}>
            <option value="">{t("logs.allBots")}</option>
            {tokens.data?.items.map((tk) => <option key={tk.id} value={tk.id}>{tk.name}</option>)}
          </select>
        </label>
        <label>
          {t("logs.level")}
          <select value={level} onChange={(e) => setLevel(e.target.value)}>
            <option value="">{t("logs.allLevels")}</option>
            {levels.map((l) => <option key={l} value={l}>{l}</option>)}
          </select>
        </label>
        <label className="grow">
          {t("logs.search")}
          <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
        </label>
        <button type="button" className="btn" aria-pressed={paused} onClick={() => setPaused(!paused)}>{paused ? t("logs.resume") : t("logs.pause")}</button>
        <button type="button" className="btn" onClick={() => downloadText(`logs-${projectId}-${stamp}.txt`, shown.map((l) => `${l.createdAt} [${l.level}] ${l.message}`).join("\n"))}>{t("logs.downloadText")}</button>
        <button type="button" className="btn" onClick={() => downloadText(`logs-${projectId}-${stamp}.json`, JSON.stringify(shown, null, 2), "application/json")}>{t("logs.downloadJson")}</button>
      </div>
      <p className="muted small" role="status">{paused ? t("logs.paused") : t("logs.live", { seconds: LOG_POLL_MS / 1000 })} · {t("logs.count", { count: shown.length })}</p>
      <ErrorLine error={logs.error} />
      {logs.data && shown.length === 0 && <p className="muted">{t("logs.empty")}</p>}
      <ol className="log" data-testid="log-lines" aria-live="off">
        {shown.map((l, i) => (
          <li key={`${l.createdAt}-${i}`} className={`log-line level-${l.level}`}>
            <time className="muted">{dateTime(l.createdAt)}</time> <span className="log-level">{l.level}</span> <span className="log-msg">{l.message}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}
