// Message and chat times as a messenger shows them: the time for today, else the short date.
import { useTranslation } from "react-i18next";

export function useWhen() {
  const { i18n } = useTranslation();
  return (iso: string | null | undefined, withTime = false): string => {
    if (!iso) return "";
    const d = new Date(iso);
    if (Number.isNaN(d.getTime())) return "";
    const today = new Date().toDateString() === d.toDateString();
    const time = d.toLocaleTimeString(i18n.language, { hour: "2-digit", minute: "2-digit" });
    if (today) return time;
    const date = d.toLocaleDateString(i18n.language, { day: "numeric", month: "short", ...(d.getFullYear() === new Date().getFullYear() ? {} : { year: "numeric" }) });
    return withTime ? `${date}, ${time}` : date;
  };
}
