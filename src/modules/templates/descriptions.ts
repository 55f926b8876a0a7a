// A built-in template's description in every language the Studio speaks (its file's
// `descriptions`), so the gallery can show it in the reader's language whatever the template's
// own language is. Read from the embedded files on first use, not at start (cold start).
import { builtInTemplateFiles } from "../../../assets/templates";

export type Descriptions = Record<string, string>;

let byKey: Map<string, Descriptions> | null = null;

/** The descriptions of the built-in template with this `system_key`; null for user templates. */
export function builtInDescriptions(systemKey: string | null): Descriptions | null {
  if (systemKey === null) return null;
  byKey ??= new Map(
    builtInTemplateFiles.map((f) => {
      const d = (JSON.parse(f.text) as { descriptions?: unknown }).descriptions;
      return [f.file, d && typeof d === "object" ? (d as Descriptions) : {}] as const;
    }),
  );
  return byKey.get(systemKey) ?? null;
}
