// "Save as template": the project's current scenario becomes a catalog template owned by the user.
import { useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link } from "wouter";
import { useTranslation } from "react-i18next";
import { get, post } from "../../api/client";
import type { ScenarioDoc } from "../../api/types";
import { ErrorLine } from "../../components/ui";

export function SaveAsTemplate({ projectId, name, onClose }: { projectId: number; name: string; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const [savedId, setSavedId] = useState<number | null>(null);
  const save = useMutation({
    mutationFn: async (body: { name: string; description: string; category: string; isPublic: 0 | 1 }) => {
      // The freshest document, not a cached one: the editor may have saved a moment ago.
      const p = await get<{ data: ScenarioDoc }>(`/api/projects/${projectId}`);
      return post<{ id: number }>("/api/templates", { ...body, data: p.data, language: i18n.language });
    },
    onSuccess: (r) => {
      setSavedId(r.id);
      void qc.invalidateQueries({ queryKey: ["templates"] });
    },
  });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    save.mutate({ name: String(f.get("name") ?? "").trim(), description: String(f.get("description") ?? ""), category: String(f.get("category") ?? "custom").trim() || "custom", isPublic: f.get("isPublic") ? 1 : 0 });
  };
  return (
    <form className="card stack" onSubmit={onSubmit} aria-labelledby="save-tpl-title">
      <h2 id="save-tpl-title">{t("saveTemplate.title")}</h2>
      <label>
        {t("saveTemplate.name")}
        <input name="name" defaultValue={name} required maxLength={200} />
      </label>
      <label>
        {t("saveTemplate.description")}
        <textarea name="description" rows={3} maxLength={5000} />
      </label>
      <div className="row">
        <label className="grow">
          {t("templates.category")}
          <input name="category" defaultValue="custom" maxLength={50} />
        </label>
        <label className="check">
          <input type="checkbox" name="isPublic" />
          <span>{t("saveTemplate.public")}</span>
        </label>
      </div>
      <div className="row">
        <button type="submit" className="btn primary" disabled={save.isPending}>{t("saveTemplate.save")}</button>
        <button type="button" className="btn" onClick={onClose}>{t("common.close")}</button>
        {savedId !== null && <span className="ok small" role="status">{t("saveTemplate.saved")} <Link href={`/templates/${savedId}`}>{t("saveTemplate.open")}</Link></span>}
      </div>
      <ErrorLine error={save.error} />
    </form>
  );
}
