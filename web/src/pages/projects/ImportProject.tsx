// Import a project.json: a file picker or a file dropped on the zone. The file is sent as it is to
// POST /api/bot/projects/import, which understands Botloom's and the older platform's documents.
import { useRef, useState, type DragEvent } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { errorText, post } from "../../api/client";

const MAX_BYTES = 10 * 1024 * 1024;

export function ImportProject({ onImported }: { onImported: (id: number) => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const importFile = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    if (file.size > MAX_BYTES) return setError(t("import.tooBig"));
    const text = await file.text();
    try {
      JSON.parse(text);
    } catch {
      return setError(t("import.notJson", { name: file.name }));
    }
    setBusy(true);
    try {
      const p = await post<{ id: number; name: string }>("/api/bot/projects/import", text);
      await qc.invalidateQueries({ queryKey: ["projects", "list"] });
      onImported(p.id);
    } catch (e) {
      setError(t("import.failed", { reason: errorText(e) }));
    } finally {
      setBusy(false);
      if (input.current) input.current.value = "";
    }
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    void importFile(e.dataTransfer.files[0]);
  };

  return (
    <div
      className={over ? "dropzone over" : "dropzone"}
      onDragOver={(e) => {
        if (![...e.dataTransfer.types].includes("Files")) return;
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      data-testid="import-zone"
    >
      <span className="muted">{busy ? t("import.busy") : t("import.hint")}</span>
      <label className="btn file-btn">
        {t("import.pick")}
        <input ref={input} type="file" accept=".json,application/json" className="sr-only" onChange={(e) => void importFile(e.target.files?.[0])} disabled={busy} />
      </label>
      {error && <p className="error" role="alert">{error}</p>}
    </div>
  );
}
