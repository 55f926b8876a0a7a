// The Studio editor's strings for tests outside a browser: i18next set up once with the editor's
// tables, and a translator fixed to each language.
import i18next, { type TFunction } from "i18next";
import { registerEditorStrings } from "../../web/src/editor/i18n";

export async function editorStrings(): Promise<{ ru: TFunction; en: TFunction }> {
  await i18next.init({ lng: "ru", fallbackLng: "en", resources: {}, interpolation: { escapeValue: false } });
  registerEditorStrings();
  return { ru: i18next.getFixedT("ru"), en: i18next.getFixedT("en") };
}
