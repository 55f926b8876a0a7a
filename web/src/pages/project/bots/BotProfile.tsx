// The bot's own profile (docs/api.md "Bot profile"): name, descriptions per language and the
// scenario's menu commands, set on Telegram from here instead of @BotFather.
import { useState, type FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { api, put } from "../../../api/client";
import { ErrorLine } from "../../../components/ui";

interface ProfileBody {
  name?: string;
  description?: string;
  shortDescription?: string;
  languageCode?: string;
  commands?: boolean;
}

export function BotProfile({ tokenId }: { tokenId: number }) {
  const { t } = useTranslation();
  const [done, setDone] = useState<string[] | null>(null);
  const [nothing, setNothing] = useState(false);
  const save = useMutation({
    mutationFn: (body: ProfileBody) => put<{ applied: string[] }>(`/api/bot/tokens/${tokenId}/profile`, body),
    onSuccess: (r) => setDone(r.applied),
  });
  const photo = useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.set("file", file);
      return api<{ success: true }>("PUT", `/api/bot/tokens/${tokenId}/profile/photo`, form);
    },
    onSuccess: () => setDone(["setMyProfilePhoto"]),
  });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const text = (k: string) => String(data.get(k) ?? "").trim();
    // Empty fields are left as they are on Telegram; only what was typed is set.
    const body: ProfileBody = {};
    if (text("name")) body.name = text("name");
    if (text("description")) body.description = text("description");
    if (text("shortDescription")) body.shortDescription = text("shortDescription");
    if (text("languageCode")) body.languageCode = text("languageCode");
    if (data.get("commands") === "on") body.commands = true;
    setDone(null);
    // the server refuses an empty body in its own (English) words: say it here instead
    setNothing(Object.keys(body).length === 0);
    if (Object.keys(body).length > 0) save.mutate(body);
  };
  return (
    <form className="stack" onSubmit={onSubmit} aria-label={t("bots.profile.title")}>
      <p className="muted small">{t("bots.profile.hint")}</p>
      <label>{t("bots.profile.name")}<input name="name" maxLength={64} /></label>
      <label>{t("bots.profile.description")}<textarea name="description" maxLength={512} rows={3} /></label>
      <label>{t("bots.profile.shortDescription")}<input name="shortDescription" maxLength={120} /></label>
      <label>{t("bots.profile.language")}<input name="languageCode" maxLength={2} pattern="[a-z]{2}" placeholder="ru" /></label>
      <label className="check"><input type="checkbox" name="commands" defaultChecked /><span>{t("bots.profile.commands")}</span></label>
      <div className="row">
        <button type="submit" className="btn primary" disabled={save.isPending}>{t("bots.profile.apply")}</button>
      </div>
      <label>
        {t("bots.profile.photo")}
        <input type="file" accept="image/jpeg" disabled={photo.isPending} onChange={(e) => { const f = e.currentTarget.files?.[0]; if (f) { setDone(null); photo.mutate(f); } e.currentTarget.value = ""; }} />
      </label>
      <ErrorLine error={save.error ?? photo.error} />
      {nothing && <p className="warn-text" role="alert" data-testid="profile-nothing">{t("bots.profile.nothing")}</p>}
      {/* the answer names Telegram's methods; the owner reads what they changed */}
      {done && <p className="notice" role="status" data-testid="profile-applied">{t("bots.profile.applied", { list: done.map((m) => t(`bots.profile.set.${m}`)).join(", ") })}</p>}
    </form>
  );
}
