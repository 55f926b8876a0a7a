import { Link } from "wouter";
import { useTranslation } from "react-i18next";

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <section className="page">
      <h1>{t("common.notFound")}</h1>
      <Link href="/projects">{t("nav.projects")}</Link>
    </section>
  );
}
