// Form pieces of the properties panel: labelled inputs bound to one data field, a node-target
// picker, and the list editors (buttons, keyboard rows, condition branches, assignments).
import { BUTTON_STYLES } from "../../../src/lib/button-url";
import { useId, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { Data } from "./document";

export interface FieldCtx {
  data: Data;
  set: (patch: Data) => void;
  /** [id, label] of every node, for target pickers */
  targets: [string, string][];
  variables: string[];
}

export function Row({ label, children }: { label: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="ed-field">
      <label htmlFor={id}>{label}</label>
      {children(id)}
    </div>
  );
}

export function Text({ ctx, k, label, multiline, vars, placeholder }: { ctx: FieldCtx; k: string; label: string; multiline?: boolean; vars?: boolean; placeholder?: string }) {
  const v = ctx.data[k];
  const value = v === undefined || v === null ? "" : String(v);
  return (
    <Row label={label}>
      {(id) =>
        multiline ? (
          <textarea id={id} rows={5} value={value} placeholder={placeholder} onChange={(e) => ctx.set({ [k]: e.target.value })} />
        ) : (
          <input id={id} value={value} placeholder={placeholder} list={vars ? "ed-variables" : undefined} onChange={(e) => ctx.set({ [k]: e.target.value })} />
        )
      }
    </Row>
  );
}

export function Num({ ctx, k, label }: { ctx: FieldCtx; k: string; label: string }) {
  const v = ctx.data[k];
  return <Row label={label}>{(id) => <input id={id} type="number" value={v === undefined || v === null ? "" : String(v)} onChange={(e) => ctx.set({ [k]: e.target.value === "" ? "" : Number(e.target.value) })} />}</Row>;
}

export function Check({ ctx, k, label }: { ctx: FieldCtx; k: string; label: string }) {
  return (
    <label className="ed-check">
      <input type="checkbox" checked={ctx.data[k] === true} onChange={(e) => ctx.set({ [k]: e.target.checked })} /> {label}
    </label>
  );
}

/** A list of stored values, each shown in words (editor.choices.<field>.<value>, else the value). */
export function Choice({ ctx, k, label, options, fallback }: { ctx: FieldCtx; k: string; label: string; options: string[]; fallback?: string }) {
  const { t } = useTranslation();
  const v = String(ctx.data[k] ?? fallback ?? "");
  const all = options.includes(v) ? options : [v, ...options];
  return (
    <Row label={label}>
      {(id) => (
        <select id={id} value={v} onChange={(e) => ctx.set({ [k]: e.target.value })}>
          {all.map((o) => <option key={o} value={o}>{o ? t(`editor.choices.${k}.${o}`, o) : "—"}</option>)}
        </select>
      )}
    </Row>
  );
}

export function TargetSelect({ value, onChange, targets, label, id }: { value: string; onChange: (v: string) => void; targets: [string, string][]; label: string; id?: string }) {
  const known = value === "" || targets.some(([t]) => t === value);
  return (
    <select id={id} aria-label={label} value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">—</option>
      {!known && <option value={value}>{value} ?</option>}
      {targets.map(([t, l]) => <option key={t} value={t}>{l}</option>)}
    </select>
  );
}

export function Target({ ctx, k, label }: { ctx: FieldCtx; k: string; label: string }) {
  return <Row label={label}>{(id) => <TargetSelect id={id} label={label} value={String(ctx.data[k] ?? "")} targets={ctx.targets} onChange={(v) => ctx.set({ [k]: v })} />}</Row>;
}

function ListEditor<T extends Data>({ items, onChange, render, make, addLabel }: { items: T[]; onChange: (items: T[]) => void; render: (item: T, set: (p: Partial<T>) => void, i: number) => ReactNode; make: () => T; addLabel: string }) {
  const { t } = useTranslation();
  const move = (i: number, d: number) => {
    const j = i + d;
    if (j < 0 || j >= items.length) return;
    const next = [...items];
    [next[i], next[j]] = [next[j]!, next[i]!];
    onChange(next);
  };
  return (
    <div className="ed-list">
      {items.map((item, i) => (
        <div className="ed-list-item" key={String(item.id ?? i)}>
          {render(item, (p) => onChange(items.map((x, k) => (k === i ? { ...x, ...p } : x))), i)}
          <div className="ed-list-tools">
            <button type="button" className="ghost" aria-label={t("editor.props.up")} onClick={() => move(i, -1)}>↑</button>
            <button type="button" className="ghost" aria-label={t("editor.props.down")} onClick={() => move(i, 1)}>↓</button>
            <button type="button" className="ghost danger" aria-label={t("editor.props.remove")} onClick={() => onChange(items.filter((_, k) => k !== i))}>✕</button>
          </div>
        </div>
      ))}
      <button type="button" onClick={() => onChange([...items, make()])}>{addLabel}</button>
    </div>
  );
}

const uid = (p: string) => `${p}_${Math.random().toString(36).slice(2, 9)}`;
const arr = (v: unknown): Data[] => (Array.isArray(v) ? v.filter((x) => x && typeof x === "object") : []);
export const BUTTON_ACTIONS = ["goto", "command", "url", "web_app", "copy_text", "contact", "location", "poll", "request_managed_bot", "complete", "selection"];
/** The Bot API's button colours; "" leaves the app's own. */
const STYLE_CHOICES = ["", ...BUTTON_STYLES];

export function ButtonsEditor({ ctx }: { ctx: FieldCtx }) {
  const { t } = useTranslation();
  return (
    <fieldset className="ed-group">
      <legend>{t("editor.props.buttons")}</legend>
      <ListEditor
        items={arr(ctx.data.buttons)}
        onChange={(buttons) => ctx.set({ buttons })}
        make={() => ({ id: uid("btn"), text: t("editor.props.newButton"), action: "goto", target: "" })}
        addLabel={t("editor.props.addButton")}
        render={(b, set) => (
          <div className="ed-button-row">
            <input aria-label={t("editor.props.buttonText")} value={String(b.text ?? "")} onChange={(e) => set({ text: e.target.value })} />
            <select aria-label={t("editor.props.buttonAction")} value={String(b.action ?? "goto")} onChange={(e) => set({ action: e.target.value })}>
              {BUTTON_ACTIONS.map((a) => <option key={a} value={a}>{t(`editor.actions.${a}`)}</option>)}
            </select>
            {b.action === "url" ? (
              <input aria-label="URL" placeholder="https://" value={String(b.url ?? "")} onChange={(e) => set({ url: e.target.value })} />
            ) : b.action === "web_app" ? (
              <>
                <input aria-label={t("editor.props.webAppUrl")} placeholder="https://" value={String(b.webAppUrl ?? "")} onChange={(e) => set({ webAppUrl: e.target.value })} />
                {/* A reply keyboard's Mini App answers with web_app_data, which follows the target. */}
                {ctx.data.keyboardType === "reply" && <TargetSelect label={t("editor.props.buttonTarget")} value={String(b.target ?? "")} targets={ctx.targets} onChange={(v) => set({ target: v })} />}
              </>
            ) : b.action === "copy_text" ? (
              <input aria-label={t("editor.props.copyText")} maxLength={256} value={String(b.copyText ?? "")} onChange={(e) => set({ copyText: e.target.value })} />
            ) : b.action === "command" ? (
              <input aria-label={t("editor.props.command")} placeholder="/help" value={String(b.target ?? "")} onChange={(e) => set({ target: e.target.value })} />
            ) : b.action === "request_managed_bot" ? null : (
              <TargetSelect label={t("editor.props.buttonTarget")} value={String(b.target ?? "")} targets={ctx.targets} onChange={(v) => set({ target: v })} />
            )}
            <select aria-label={t("editor.props.buttonStyle")} value={String(b.style ?? "")} onChange={(e) => set({ style: e.target.value || undefined })}>
              {STYLE_CHOICES.map((s) => <option key={s} value={s}>{t(`editor.styles.${s || "none"}`)}</option>)}
            </select>
            <label className="ed-check small"><input type="checkbox" checked={b.skipDataCollection === true} onChange={(e) => set({ skipDataCollection: e.target.checked })} /> {t("editor.props.skipCollect")}</label>
          </div>
        )}
      />
    </fieldset>
  );
}

/** keyboardLayout.rows as text: one line per row, button texts separated by "|". */
export function LayoutEditor({ ctx }: { ctx: FieldCtx }) {
  const { t } = useTranslation();
  const buttons = arr(ctx.data.buttons);
  const layout = (ctx.data.keyboardLayout ?? {}) as Data;
  const rows: Data[] = arr(layout.rows);
  const nameOf = (id: string) => String(buttons.find((b) => b.id === id)?.text ?? id);
  const text = rows.map((r) => (Array.isArray(r.buttonIds) ? r.buttonIds.map(nameOf).join(" | ") : "")).join("\n");
  const apply = (value: string) => {
    const next = value
      .split("\n")
      .map((line) => line.split("|").map((s) => s.trim()).filter(Boolean))
      .filter((r) => r.length)
      .map((names) => ({ buttonIds: names.map((n) => String(buttons.find((b) => b.text === n || b.id === n)?.id ?? n)) }));
    ctx.set({ keyboardLayout: { ...layout, rows: next, autoLayout: next.length === 0 ? layout.autoLayout ?? false : false } });
  };
  return (
    <Row label={t("editor.props.layoutRows")}>
      {(id) => <textarea id={id} rows={3} defaultValue={text} key={text} placeholder={t("editor.props.layoutHint")} onBlur={(e) => apply(e.target.value)} />}
    </Row>
  );
}

/** The engine's condition operators (src/scenario/codegen/runtime/conditions.ts) and the else branch. */
export const OPERATORS = ["equals", "not_equals", "contains", "not_contains", "starts_with", "ends_with", "matches", "filled", "empty", "greater_than", "greater_or_equal", "less_than", "less_or_equal", "between", "is_even", "is_odd", "divisible_by", "is_private", "is_group", "is_channel", "is_admin", "is_premium", "is_bot", "is_subscribed", "is_not_subscribed", "else"];
/** Operators that compare nothing: no value field. */
const NO_VALUE = new Set(["filled", "empty", "else", "is_even", "is_odd", "is_private", "is_group", "is_channel", "is_admin", "is_premium", "is_bot"]);

export function BranchesEditor({ ctx }: { ctx: FieldCtx }) {
  const { t } = useTranslation();
  return (
    <fieldset className="ed-group">
      <legend>{t("editor.props.branches")}</legend>
      <ListEditor
        items={arr(ctx.data.branches)}
        onChange={(branches) => ctx.set({ branches })}
        make={() => ({ id: uid("branch"), label: "", operator: "equals", value: "", target: "" })}
        addLabel={t("editor.props.addBranch")}
        render={(b, set) => (
          <div className="ed-button-row">
            <input aria-label={t("editor.props.branchLabel")} placeholder={t("editor.props.branchLabel")} value={String(b.label ?? "")} onChange={(e) => set({ label: e.target.value })} />
            <select aria-label={t("editor.props.operator")} value={String(b.operator ?? "equals")} onChange={(e) => set({ operator: e.target.value })}>
              {/* an operator this list lacks (a file from elsewhere) is offered as it is rather than shown as the first */}
              {(OPERATORS.includes(String(b.operator ?? "equals")) ? OPERATORS : [String(b.operator), ...OPERATORS]).map((o) => <option key={o} value={o}>{t(`editor.choices.operator.${o}`, { defaultValue: o })}</option>)}
            </select>
            {!NO_VALUE.has(String(b.operator)) && <input aria-label={t("editor.props.value")} placeholder={t("editor.props.value")} value={String(b.value ?? "")} onChange={(e) => set({ value: e.target.value })} />}
            {b.operator === "between" && <input aria-label={t("editor.props.value2")} value={String(b.value2 ?? "")} onChange={(e) => set({ value2: e.target.value })} />}
            <TargetSelect label={t("editor.props.buttonTarget")} value={String(b.target ?? "")} targets={ctx.targets} onChange={(v) => set({ target: v })} />
          </div>
        )}
      />
    </fieldset>
  );
}

/** The engine's assignment modes (src/scenario/codegen/runtime/assign.ts); `text` is the reference default. */
export const ASSIGN_MODES = ["text", "set", "append", "increment", "expression", "regex_extract", "extract_number", "json_get", "json_push", "json_format", "array_item", "array_concat", "random_item", "random", "length", "lowercase", "uppercase", "trim", "substring", "split_get", "str_replace", "format_number", "format_duration", "timestamp", "lookup", "conditional"];

export function AssignmentsEditor({ ctx }: { ctx: FieldCtx }) {
  const { t } = useTranslation();
  return (
    <fieldset className="ed-group">
      <legend>{t("editor.props.assignments")}</legend>
      <ListEditor
        items={arr(ctx.data.assignments)}
        onChange={(assignments) => ctx.set({ assignments })}
        make={() => ({ id: uid("assign"), variable: "", value: "", mode: "text" })}
        addLabel={t("editor.props.addAssignment")}
        render={(a, set) => (
          <div className="ed-button-row">
            <input aria-label={t("editor.props.variable")} list="ed-variables" placeholder={t("editor.props.variable")} value={String(a.variable ?? "")} onChange={(e) => set({ variable: e.target.value })} />
            <select aria-label={t("editor.props.mode")} value={String(a.mode ?? "text")} onChange={(e) => set({ mode: e.target.value })}>
              {(ASSIGN_MODES.includes(String(a.mode ?? "text")) ? ASSIGN_MODES : [String(a.mode), ...ASSIGN_MODES]).map((m) => <option key={m} value={m}>{t(`editor.choices.mode.${m}`, { defaultValue: m })}</option>)}
            </select>
            <input aria-label={t("editor.props.value")} placeholder={t("editor.props.value")} value={String(a.value ?? "")} onChange={(e) => set({ value: e.target.value })} />
            {a.mode === "regex_extract" && <input aria-label={t("editor.props.pattern")} placeholder="regex" value={String(a.pattern ?? "")} onChange={(e) => set({ pattern: e.target.value })} />}
          </div>
        )}
      />
    </fieldset>
  );
}
