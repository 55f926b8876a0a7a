// The template gallery: featured first, categories, search, language; a template's preview opens
// at /templates/{id}.
import { useEffect, useState } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Link } from "wouter";
import { useTranslation } from "react-i18next";
import { get } from "../api/client";
import type { TemplateItem } from "../api/types";
import { ErrorLine } from "../components/ui";
import { describe } from "./templates/describe";
import { Stars } from "./templates/Stars";
import { TemplatePreview } from "./templates/TemplatePreview";

interface Page {
  items: TemplateItem[];
  total: number;
  page: number;
  perPage: number;
}
const PER_PAGE = 24;

export function TemplatesPage({ id }: { id?: number }) {
  const { t, i18n } = useTranslation();
  const [search, setSearch] = useState("");
  const [term, setTerm] = useState("");
  const [category, setCategory] = useState("");
  // the reader's language first; "All languages" stays one choice away
  const [language, setLanguage] = useState(i18n.language);
  const [featured, setFeatured] = useState(false);
  const [page, setPage] = useState(1);
  // the interface language changed on this page: the list follows it
  useEffect(() => {
    setLanguage(i18n.language);
    setPage(1);
  }, [i18n.language]);
  useEffect(() => {
    const timer = setTimeout(() => {
      setTerm(search.trim());
      setPage(1);
    }, 250);
    return () => clearTimeout(timer);
  }, [search]);
  // Every category and language the catalog holds, for the filters.
  const all = useQuery({ queryKey: ["templates", "facets"], queryFn: () => get<Page>("/api/templates", { query: { perPage: 100 } }) });
  const categories = [...new Set(all.data?.items.map((x) => x.category) ?? [])].sort();
  const languages = [...new Set(all.data?.items.map((x) => x.language) ?? [])].sort();
  const list = useQuery({
    queryKey: ["templates", "list", term, category, language, featured, page],
    queryFn: () => get<Page>("/api/templates", { query: { search: term, category, language, featured: featured ? 1 : undefined, page, perPage: PER_PAGE } }),
    placeholderData: keepPreviousData,
  });
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / PER_PAGE)) : 1;
  const items = [...(list.data?.items ?? [])].sort((a, b) => b.featured - a.featured);
  return (
    <section className="page">
      <h1>{t("templates.title")}</h1>
      {id !== undefined && <TemplatePreview id={id} />}
      <div className="row toolbar">
        <label className="grow">
          <span className="sr-only">{t("templates.search")}</span>
          <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder={t("templates.search")} />
        </label>
        <label>
          <span className="sr-only">{t("templates.category")}</span>
          <select value={category} onChange={(e) => { setCategory(e.target.value); setPage(1); }} aria-label={t("templates.category")}>
            <option value="">{t("templates.allCategories")}</option>
            {categories.map((c) => <option key={c} value={c}>{t(`templates.categories.${c}`, { defaultValue: c })}</option>)}
          </select>
        </label>
        <label>
          <span className="sr-only">{t("templates.language")}</span>
          <select value={language} onChange={(e) => { setLanguage(e.target.value); setPage(1); }} aria-label={t("templates.language")}>
            <option value="">{t("templates.allLanguages")}</option>
            {[...new Set([...languages, language].filter(Boolean))].sort().map((l) => <option key={l} value={l}>{l.toUpperCase()}</option>)}
          </select>
        </label>
        <label className="check">
          <input type="checkbox" checked={featured} onChange={(e) => { setFeatured(e.target.checked); setPage(1); }} />
          <span>{t("templates.featuredOnly")}</span>
        </label>
      </div>
      <ErrorLine error={list.error} />
      {list.data?.total === 0 && <p className="muted">{t("templates.none")}</p>}
      <ul className="cards" data-testid="template-list">
        {items.map((tp) => (
          <li key={tp.id} className="card stack template-card">
            <div className="row between">
              <Link href={`/templates/${tp.id}`} className="card-title">{tp.name}</Link>
              {tp.featured === 1 && <span className="badge accent">{t("templates.featured")}</span>}
            </div>
            <p className="small clamp">{describe(tp, i18n.language)}</p>
            <p className="muted small">
              {t(`templates.categories.${tp.category}`, { defaultValue: tp.category })} · {t(`templates.difficulty.${tp.difficulty}`, { defaultValue: tp.difficulty })} · {tp.language.toUpperCase()} · {t("templates.uses", { count: tp.useCount })}
            </p>
            {tp.ratingCount > 0 && <Stars rating={tp.rating} count={tp.ratingCount} />}
          </li>
        ))}
      </ul>
      {pages > 1 && (
        <div className="row between">
          <button type="button" className="btn" disabled={page <= 1} onClick={() => setPage(page - 1)}>{t("common.prev")}</button>
          <span className="muted small">{t("templates.page", { page, pages })}</span>
          <button type="button" className="btn" disabled={page >= pages} onClick={() => setPage(page + 1)}>{t("common.next")}</button>
        </div>
      )}
    </section>
  );
}
