// A form for node types without a hand-made one: one input per field of the node's data and of the
// reference editor's default data for its type — text, number, yes/no, or a node picker for fields
// that hold a transition. Lists and objects stay in JSON mode (named below the form).
import { useTranslation } from "react-i18next";
import { kindOf } from "./catalogue";
import { FIELD_NAMES_RU } from "./field-names";
import { Check, Num, Target, Text, type FieldCtx } from "./fields";

/** Data fields that name another node (docs/scenario.md: transitions live in node data). */
const TARGET_KEY = /^(autoTransitionTo|errorTransitionTo|defaultTargetId|inputTargetNodeId|nextNodeAfterInput|continueButtonTarget|keyboardNodeId)$|TargetId$|TargetNode(Id)?$/;

/** "targetUserId" → "Target user id" */
export const fieldLabel = (key: string) => {
  const words = key.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/_/g, " ").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

export function GenericFields({ ctx, type }: { ctx: FieldCtx; type: string }) {
  const { t, i18n } = useTranslation();
  const labelOf = (k: string) => (i18n.language === "ru" ? FIELD_NAMES_RU[k] : undefined) ?? fieldLabel(k);
  const defaults = kindOf(type)?.defaults() ?? {};
  // Every node the engine runs may go on somewhere: "next" is offered even when the defaults lack it.
  const keys = [...new Set([...Object.keys(defaults), ...Object.keys(ctx.data), "autoTransitionTo"])];
  const structured: string[] = [];
  const inputs = keys.map((k) => {
    const v = ctx.data[k] ?? defaults[k];
    if (TARGET_KEY.test(k)) return <Target key={k} ctx={ctx} k={k} label={k === "autoTransitionTo" ? t("editor.props.next") : labelOf(k)} />;
    if (typeof v === "boolean") return <Check key={k} ctx={ctx} k={k} label={labelOf(k)} />;
    if (typeof v === "number") return <Num key={k} ctx={ctx} k={k} label={labelOf(k)} />;
    if (typeof v === "string" || v === undefined || v === null) return <Text key={k} ctx={ctx} k={k} label={labelOf(k)} vars multiline={typeof v === "string" && v.length > 60} />;
    structured.push(k);
    return null;
  });
  return (
    <>
      {inputs}
      {structured.length > 0 && <p className="muted small">{t("editor.props.structuredInJson", { fields: structured.join(", ") })}</p>}
    </>
  );
}
