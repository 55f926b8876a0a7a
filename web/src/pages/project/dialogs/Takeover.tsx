// The takeover switch of a chat: while on, the scenario does not answer this chat; handing it back
// can run a chosen node for the user ("resume at").
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../api/client";
import { dialogsApi } from "./api";
import { useScenarioNodes } from "./nodes";

interface Props {
  projectId: number;
  tokenId: number;
  chatId: string;
  on: boolean;
  onChanged: () => void;
}

export function Takeover({ projectId, tokenId, chatId, on, onChanged }: Props) {
  const { t } = useTranslation();
  const nodes = useScenarioNodes(projectId);
  const [resumeAt, setResumeAt] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const set = async (next: boolean) => {
    setBusy(true);
    setError(null);
    try {
      await dialogsApi.takeover(tokenId, chatId, next, next ? undefined : resumeAt || undefined);
      setResumeAt("");
      onChanged();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className={on ? "dlg-takeover on" : "dlg-takeover"} data-testid="takeover">
      {on ? (
        <>
          <span className="small" role="status">{t("dialogs.takeoverOn")}</span>
          <label className="compact-label small">
            {t("dialogs.resumeAt")}
            <select value={resumeAt} onChange={(e) => setResumeAt(e.target.value)}>
              <option value="">{t("dialogs.resumeNone")}</option>
              {nodes.data?.map((n) => <option key={n.id} value={n.id}>{n.label}</option>)}
            </select>
          </label>
          <button type="button" className="btn small-btn primary" disabled={busy} onClick={() => void set(false)}>{t("dialogs.release")}</button>
        </>
      ) : (
        <>
          <span className="small muted">{t("dialogs.takeoverOff")}</span>
          <button type="button" className="btn small-btn" disabled={busy} onClick={() => void set(true)}>{t("dialogs.takeOver")}</button>
        </>
      )}
      {error && <p className="error small" role="alert">{error}</p>}
    </div>
  );
}
