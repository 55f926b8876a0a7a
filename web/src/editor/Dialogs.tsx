// The conflict dialog (someone saved since this copy was loaded: both shown, keep mine or load
// theirs), the "changed elsewhere" banner, and the keyboard shortcut help (the actions table's keys).
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { helpLines } from "./actions";
import { labelOf, normalizeDoc, type Doc } from "./document";
import { diffDocs, type Change } from "./version-diff";
import type { ProjectRecord } from "./useSave";

/**
 * Each side's edits since the copy both started from (`base`, the last copy this editor saved or
 * loaded): a node edited only by them is lost by "keep mine", one edited only by me by "load
 * theirs", one edited on both sides differently by either (the same edit on both loses nothing). Without the base a node one side edited could not be
 * told from one both edited, nor an addition from the other side's deletion.
 */
export function conflictDiff(base: Doc, mine: Doc, theirs: Doc) {
  const edits = (d: Doc) => {
    const m = new Map<string, string>();
    for (const n of diffDocs(base, d).sheets.flatMap((s) => s.nodes)) if (n.change !== "same") m.set(n.node.id, labelOf(n.node));
    return m;
  };
  const a = edits(mine), b = edits(theirs);
  const both = diffDocs(theirs, mine).sheets.flatMap((s) => s.nodes).filter((n) => n.change !== "same" && a.has(n.node.id) && b.has(n.node.id));
  const inBoth = new Set(both.map((n) => n.node.id));
  const count = (d: Doc) => d.sheets.reduce((sum, s) => sum + s.nodes.length, 0);
  return {
    mine: [...a].filter(([id]) => !b.has(id)).map(([, l]) => l),
    theirs: [...b].filter(([id]) => !a.has(id)).map(([, l]) => l),
    both: both.map((n) => labelOf(n.node)),
    mineCount: count(mine),
    theirsCount: count(theirs),
  };
}

function List({ title, items }: { title: string; items: string[] }) {
  if (!items.length) return null;
  return (
    <div>
      <h4>{title} ({items.length})</h4>
      <ul className="small">{items.slice(0, 12).map((x, i) => <li key={i}>{x}</li>)}</ul>
    </div>
  );
}

export function ConflictDialog({ base, mine, theirs, onKeepMine, onLoadTheirs }: { base: Doc; mine: Doc; theirs: ProjectRecord; onKeepMine: () => void; onLoadTheirs: () => void }) {
  const { t, i18n } = useTranslation();
  const d = useMemo(() => conflictDiff(base, mine, normalizeDoc(theirs.data)), [base, mine, theirs]);
  return (
    <div className="ed-modal" role="alertdialog" aria-labelledby="ed-conflict-title">
      <div className="ed-modal-box">
        <h3 id="ed-conflict-title">{t("editor.conflict.title")}</h3>
        <p>{t("editor.conflict.text", { at: new Date(theirs.updatedAt).toLocaleString(i18n.language) })}</p>
        <div className="ed-diff">
          <p className="small">{t("editor.conflict.counts", { mine: d.mineCount, theirs: d.theirsCount })}</p>
          <List title={t("editor.conflict.editedMine")} items={d.mine} />
          <List title={t("editor.conflict.editedTheirs")} items={d.theirs} />
          <List title={t("editor.conflict.editedBoth")} items={d.both} />
        </div>
        <div className="ed-modal-actions">
          <button type="button" className="primary" onClick={onKeepMine}>{t("editor.conflict.keepMine")}</button>
          <button type="button" onClick={onLoadTheirs}>{t("editor.conflict.loadTheirs")}</button>
        </div>
      </div>
    </div>
  );
}

export function RemoteBanner({ dirty, onReload, onDismiss }: { dirty: boolean; onReload: () => void; onDismiss: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="notice ed-remote" role="status" data-testid="remote-change">
      {t("editor.remote.text")} {dirty && <strong>{t("editor.remote.dirty")}</strong>}{" "}
      <button type="button" onClick={onReload}>{t("editor.remote.reload")}</button>{" "}
      <button type="button" className="ghost" onClick={onDismiss}>{t("editor.remote.dismiss")}</button>
    </div>
  );
}

export function ShortcutsHelp({ onClose, onTour }: { onClose: () => void; onTour?: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="ed-modal" role="dialog" aria-labelledby="ed-keys-title" onClick={onClose}>
      <div className="ed-modal-box" onClick={(e) => e.stopPropagation()}>
        <h3 id="ed-keys-title">{t("editor.keys.title")}</h3>
        <table className="ed-keys">
          <tbody>
            {helpLines().map((l) => (
              <tr key={l.labelKey} data-actions={l.ids.join(" ")}>
                <td><kbd>{l.keys}</kbd></td>
                <td>{t(l.labelKey)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="ed-modal-actions">
          {onTour && <button type="button" onClick={onTour}>{t("editor.hint.tour")}</button>}
          <button type="button" onClick={onClose}>{t("editor.keys.close")}</button>
        </div>
      </div>
    </div>
  );
}
