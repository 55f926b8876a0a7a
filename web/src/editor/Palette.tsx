// The node palette and the node picker: every type the engine runs, in the reference groups, each
// with its one-line description (src/scenario/node-descriptions.ts, the catalogue's text), found by
// name, type or what it does. Drag a palette item onto the canvas, or click it to add it next to the
// selected node (else in the middle of the view). The picker is the same list in a popover, opened
// from a handle's "+", a connection dropped on empty canvas, or an edge's "+".
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { describeNode } from "../../../src/scenario/node-descriptions";
import { GROUPS, NODE_KINDS, type NodeKind } from "./catalogue";

/** The kinds matching a search, by group (empty groups left out). */
function useGroups(query: string) {
  const { t, i18n } = useTranslation();
  const q = query.trim().toLowerCase();
  return useMemo(
    () =>
      GROUPS.map((g) => ({
        group: g,
        kinds: NODE_KINDS.filter(
          (k) => k.group === g && (!q || k.type.includes(q) || t(`editor.types.${k.type}`).toLowerCase().includes(q) || describeNode(k.type, i18n.language).toLowerCase().includes(q)),
        ),
      })).filter((x) => x.kinds.length),
    [q, t, i18n.language],
  );
}

function Item({ k, role, onPick, draggable, autoFocus }: { k: NodeKind; role?: string; onPick: (type: string) => void; draggable?: boolean; autoFocus?: boolean }) {
  const { t, i18n } = useTranslation();
  const name = t(`editor.types.${k.type}`);
  const desc = describeNode(k.type, i18n.language);
  return (
    <button
      type="button"
      role={role}
      className="ed-palette-item"
      data-type={k.type}
      aria-description={desc}
      title={desc}
      autoFocus={autoFocus}
      draggable={draggable}
      onDragStart={
        draggable
          ? (e) => {
              e.dataTransfer.setData("application/x-botloom-node", k.type);
              e.dataTransfer.effectAllowed = "copy";
            }
          : undefined
      }
      onClick={() => onPick(k.type)}
    >
      <span className="ed-palette-icon" aria-hidden>{k.icon}</span>
      <span className="ed-palette-text">
        <span className="ed-palette-name">{name}</span>
        {desc && <span className="ed-palette-desc" aria-hidden>{desc}</span>}
      </span>
    </button>
  );
}

export function Palette({ onAdd, onClose }: { onAdd: (type: string) => void; onClose?: () => void }) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState("");
  const groups = useGroups(filter);
  return (
    <aside className="ed-palette ed-overlay-panel" aria-label={t("editor.palette")}>
      <div className="ed-panel-head">
        <input className="ed-palette-filter" type="search" placeholder={t("editor.paletteFilter")} aria-label={t("editor.paletteFilter")} value={filter} onChange={(e) => setFilter(e.target.value)} />
        {onClose && <button type="button" className="ghost" onClick={onClose} aria-label={t("editor.hidePanel")} title={t("editor.hidePanel")}>«</button>}
      </div>
      {groups.map(({ group, kinds }) => (
        <section key={group} className="ed-palette-group">
          <h3>{t(`editor.groups.${group}`)}</h3>
          {kinds.map((k) => <Item key={k.type} k={k} onPick={onAdd} draggable />)}
        </section>
      ))}
      {!groups.length && <p className="muted small">{t("editor.picker.none")}</p>}
    </aside>
  );
}

/** The searchable node picker that adds the next node (from a handle, a dropped connection, an edge). */
export function NodePicker({ at, onPick, onClose }: { at: { x: number; y: number }; onPick: (type: string) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const [q, setQ] = useState("");
  const groups = useGroups(q);
  const first = groups[0]?.kinds[0];
  return (
    <div
      className="ed-quickmenu"
      role="dialog"
      aria-label={t("editor.picker.title")}
      style={{ left: Math.max(4, Math.min(at.x, window.innerWidth - 330)), top: Math.max(4, Math.min(at.y, window.innerHeight - 420)) }}
      onKeyDown={(e) => e.key === "Escape" && onClose()}
    >
      <input
        type="search"
        autoFocus
        aria-label={t("editor.picker.search")}
        placeholder={t("editor.picker.searchHint")}
        value={q}
        onChange={(e) => setQ(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && first) onPick(first.type);
        }}
      />
      <div className="ed-quicklist" role="menu">
        {groups.map(({ group, kinds }) => (
          <section key={group} className="ed-palette-group">
            <h3>{t(`editor.groups.${group}`)}</h3>
            {kinds.map((k) => <Item key={k.type} k={k} role="menuitem" onPick={onPick} />)}
          </section>
        ))}
        {!groups.length && <p className="muted small">{t("editor.picker.none")}</p>}
      </div>
      <button type="button" className="ghost" onClick={onClose}>{t("common.cancel")}</button>
    </div>
  );
}
