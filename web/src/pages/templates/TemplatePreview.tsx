// One template: what the bot does (in the reader's language), a picture of its graph and a chat to
// try it (a preview bot of the template, no project made; the walked nodes light up on the
// picture); "use" makes a new project from it; the caller can rate it.
import { lazy, Suspense, useCallback, useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useLocation } from "wouter";
import { useTranslation } from "react-i18next";
import { get, post } from "../../api/client";
import type { TemplateItem } from "../../api/types";
import { ErrorLine } from "../../components/ui";
import { Stars } from "./Stars";
import { describe } from "./describe";
import { PreviewChat } from "../../preview";
import { nodeName } from "../../editor/names";

// the picture carries the editor's catalogue and layout: loaded with the detail page only
const GraphPicture = lazy(() => import("../../editor/GraphPicture").then((m) => ({ default: m.GraphPicture })));

export function TemplatePreview({ id }: { id: number }) {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const [trying, setTrying] = useState(false);
  const [walked, setWalked] = useState<ReadonlySet<string>>(new Set());
  const onNodeMessage = useCallback((id: string) => setWalked((w) => new Set(w).add(id)), []);
  const [, navigate] = useLocation();
  const [name, setName] = useState("");
  const tp = useQuery({ queryKey: ["templates", id], queryFn: () => get<TemplateItem>(`/api/templates/${id}`) });
  const use = useMutation({
    mutationFn: () => post<{ id: number }>(`/api/templates/${id}/use`, name.trim() ? { name: name.trim() } : {}),
    onSuccess: (p) => {
      void qc.invalidateQueries({ queryKey: ["projects", "list"] });
      void qc.invalidateQueries({ queryKey: ["templates"] });
      navigate(`/projects/${p.id}`);
    },
  });
  const rate = useMutation({
    mutationFn: (rating: number) => post(`/api/templates/${id}/rate`, { rating }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ["templates"] }),
  });
  if (tp.isPending) return <p>{t("common.loading")}</p>;
  if (tp.isError) return <ErrorLine error={tp.error} />;
  const d = tp.data;
  const sheets = d.data?.sheets ?? [];
  const nodes = sheets.flatMap((s) => s.nodes ?? []);
  const commands = [...new Set(nodes.map((n) => n.data?.command).filter((c): c is string => typeof c === "string" && c.startsWith("/")))];
  const onUse = (e: FormEvent) => {
    e.preventDefault();
    use.mutate();
  };
  return (
    <section className="card stack preview" aria-labelledby="tpl-title" data-testid="template-preview">
      <div className="row between">
        <h2 id="tpl-title" className="inline-h">{d.name}</h2>
        <Link href="/templates" className="btn small-btn">{t("common.close")}</Link>
      </div>
      <p data-testid="tpl-description">{describe(d, i18n.language)}</p>
      <div className={trying ? "tpl-show with-chat" : "tpl-show"}>
        <Suspense fallback={<p className="muted small">{t("common.loading")}</p>}>
          <GraphPicture document={d.data} highlight={walked} label={t("templates.picture", { name: d.name })} />
        </Suspense>
        {trying ? (
          <PreviewChat templateId={id} compact onNodeMessage={onNodeMessage} onRestart={() => setWalked(new Set())} nodeName={(n) => { const node = nodes.find((x) => x.id === n); return node && nodeName(node, t(`editor.types.${node.type}`, { defaultValue: node.type })); }} />
        ) : (
          <button type="button" className="btn primary tpl-try" onClick={() => setTrying(true)}>▶ {t("templates.tryIt")}</button>
        )}
      </div>
      <div className="row">
        <Stars rating={d.rating} count={d.ratingCount} onRate={(n) => rate.mutate(n)} busy={rate.isPending} />
        {rate.isSuccess && <span className="ok small" role="status">{t("templates.thanks")}</span>}
      </div>
      <ErrorLine error={rate.error} />
      <dl className="facts">
        <dt>{t("templates.sheets")}</dt>
        <dd>{sheets.map((s) => `${s.name} (${s.nodes?.length ?? 0})`).join(", ") || "—"}</dd>
        <dt>{t("templates.nodeCount")}</dt>
        <dd data-testid="tpl-nodes">{nodes.length}</dd>
        {commands.length > 0 && (<><dt>{t("templates.commands")}</dt><dd>{commands.join(" ")}</dd></>)}
        {d.tags.length > 0 && (<><dt>{t("templates.tags")}</dt><dd>{d.tags.join(", ")}</dd></>)}
      </dl>
      <form className="row" onSubmit={onUse}>
        <label className="grow">
          {t("templates.projectName")}
          <input value={name} onChange={(e) => setName(e.target.value)} placeholder={d.name} maxLength={200} />
        </label>
        <button type="submit" className="btn primary" disabled={use.isPending}>{t("templates.use")}</button>
      </form>
      <ErrorLine error={use.error} />
    </section>
  );
}
