// A Mini App button of the preview (docs/nodes/buttons.md): a panel names its https page and opens
// it in a new tab without access to the Studio (noopener, no referrer). It is not framed: the
// Studio's CSP allows no frames (docs/security.md). A reply keyboard's Mini App can send data
// back from the panel, as Telegram.WebApp.sendData would.
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { isMiniAppUrl } from "../../../src/lib/button-url";

export interface MiniAppOpen {
  url: string;
  /** set for a reply keyboard's Mini App: the button whose web_app_data goes back */
  replyButton?: string;
}

/** Only https pages open, as in Telegram; anything else is never loaded. */
const miniAppUrl = (url: unknown): string | null => (isMiniAppUrl(url) ? url : null);

export function MiniAppPanel({ app, onClose, onSend }: { app: MiniAppOpen; onClose: () => void; onSend: (buttonText: string, data: string) => void }) {
  const { t } = useTranslation();
  const [data, setData] = useState("");
  const url = miniAppUrl(app.url);
  return (
    <div className="pv-miniapp" role="dialog" aria-label={t("preview.miniApp.title")} data-testid="pv-miniapp">
      <div className="pv-miniapp-head">
        <strong className="grow">{t("preview.miniApp.title")}</strong>
        {url && <a className="btn small" href={url} target="_blank" rel="noopener noreferrer nofollow">{t("preview.miniApp.newTab")} ↗</a>}
        <button type="button" className="btn small" onClick={onClose}>{t("preview.miniApp.close")}</button>
      </div>
      <code className="small muted">{app.url}</code>
      {!url && <p className="error small" role="alert">{t("preview.miniApp.notHttps")}</p>}
      {app.replyButton && (
        <form className="pv-input-row" onSubmit={(e) => { e.preventDefault(); onSend(app.replyButton!, data); onClose(); }}>
          <input className="grow" value={data} onChange={(e) => setData(e.target.value)} placeholder={t("preview.miniApp.data")} aria-label={t("preview.miniApp.data")} maxLength={4096} />
          <button type="submit" className="btn primary small">{t("preview.miniApp.send")}</button>
        </form>
      )}
    </div>
  );
}
