import type { TemplateItem } from "../../api/types";

/** A built-in's description in the reader's language; a user's template has only its own. */
export const describe = (tp: TemplateItem, lang: string) => tp.descriptions?.[lang] ?? tp.description ?? "";
