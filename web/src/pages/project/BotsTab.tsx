// Bots of a project: its tokens with their status (GET /api/bot/projects/{id}/tokens).
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { errorText, get } from "../../api/client";

interface TokenItem {
  id: number;
  name: string;
  botUsername?: string | null;
  botStatus?: string;
  launchMode?: string;
}

export function BotsTab({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  const tokens = useQuery({ queryKey: ["tokens", projectId], queryFn: () => get<{ items: TokenItem[]; count: number }>(`/api/bot/projects/${projectId}/tokens`) });
  if (tokens.isPending) return <p>{t("common.loading")}</p>;
  if (tokens.isError) return <p className="error" role="alert">{errorText(tokens.error)}</p>;
  return (
    <ul className="cards">
      {tokens.data.items.map((tk) => (
        <li key={tk.id} className="card">
          <strong>{tk.name}</strong> {tk.botUsername && <span className="muted">@{tk.botUsername}</span>} <span className="badge">{tk.botStatus}</span>
        </li>
      ))}
    </ul>
  );
}
