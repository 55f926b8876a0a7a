// The scenario editor of one project: toolbar, sheet tabs, palette, canvas, properties, and the
// code view; saving, conflicts and live reload come from useSave.
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { ReactFlowProvider, useReactFlow } from "@xyflow/react";
import { useTranslation } from "react-i18next";
import { errorText, post } from "../api/client";
import { Canvas } from "./Canvas";
import { CodeView, WarningList, type Generated } from "./CodeView";
import { autoLayout, copyText, duplicate, pasteText, removeSelected, selectAll, copyToClipboard, pasteFromClipboard } from "./commands";
import { ConflictDialog, RemoteBanner, ShortcutsHelp } from "./Dialogs";
import { needsLayout, layoutSheet } from "./layout";
import { normalizeDoc } from "./document";
import { addNode, makeNode } from "./ops";
import { Palette, QuickAdd } from "./Palette";
import { Properties } from "./Properties";
import { PreviewPanel } from "./PreviewPanel";
import { Search } from "./Search";
import { SheetTabs } from "./SheetTabs";
import { useEditor, EditorStore } from "./store";
import { useSave, type ProjectRecord } from "./useSave";
import { GRID } from "./Canvas";

const typing = (t: EventTarget | null) => t instanceof HTMLElement && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));

function EditorBody({ store, project }: { store: EditorStore; project: ProjectRecord }) {
  const { t } = useTranslation();
  const flow = useReactFlow();
  const doc = useEditor(store, (s) => s.doc);
  const canUndo = useEditor(store, (s) => s.past.length > 0);
  const canRedo = useEditor(store, (s) => s.future.length > 0);
  const hasSelection = useEditor(store, (s) => s.selected.length > 0);
  const [view, setView] = useState<"canvas" | "code">("canvas");
  const [searching, setSearching] = useState(false);
  const [help, setHelp] = useState(false);
  const [quick, setQuick] = useState<{ source: string | null; handle: string | null; at: { x: number; y: number } } | null>(null);
  const [message, setMessage] = useState("");
  const [generated, setGenerated] = useState<Generated | null>(null);
  const [genError, setGenError] = useState("");
  const [genBusy, setGenBusy] = useState(false);
  const [preview, setPreview] = useState(false);
  const [flash, setFlash] = useState<string | null>(null);

  const generate = useCallback(async () => {
    setGenBusy(true);
    try {
      setGenerated(await post<Generated>(`/api/projects/${project.id}/generate`, {}));
      setGenError("");
    } catch (e) {
      setGenError(errorText(e));
    } finally {
      setGenBusy(false);
    }
  }, [project.id]);
  const s = useSave(store, project.id, project, () => void generate());
  useEffect(() => void generate(), [generate]);

  const warnings = useMemo(() => {
    const m = new Map<string, string[]>();
    for (const w of generated?.warnings ?? []) if (w.nodeId) m.set(w.nodeId, [...(m.get(w.nodeId) ?? []), w.message]);
    return m;
  }, [generated]);

  const addAt = useCallback(
    (type: string, screen: { x: number; y: number } | null, from?: { source: string; handle: string }) => {
      const rect = document.querySelector(".ed-canvas")?.getBoundingClientRect();
      const p = flow.screenToFlowPosition(screen ?? { x: (rect?.left ?? 0) + (rect?.width ?? 600) / 2, y: (rect?.top ?? 0) + (rect?.height ?? 400) / 2 });
      const src = from && store.state.doc.sheets.flatMap((x) => x.nodes).find((n) => n.id === from.source);
      const at = src?.position && !screen ? { x: src.position.x + 320, y: src.position.y } : { ...p };
      // never on top of another node: step down-right until the spot is free
      const taken = store.sheet.nodes.map((n) => n.position ?? { x: 0, y: 0 });
      for (let i = 0; i < 50 && taken.some((q) => Math.abs(q.x - at.x) < 120 && Math.abs(q.y - at.y) < 60); i++) at.y += 80;
      const node = makeNode(type, { x: Math.round(at.x / GRID) * GRID, y: Math.round(at.y / GRID) * GRID });
      store.commit(addNode(store.state.doc, store.state.sheetId, node, from), { selected: [node.id] });
    },
    [flow, store],
  );

  const openNode = useCallback(
    (id: string) => {
      store.focusNode(id);
      setView("canvas");
      setSearching(false);
    },
    [store],
  );

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const mod = e.ctrlKey || e.metaKey;
      const k = e.key.toLowerCase();
      if (mod && k === "s") {
        e.preventDefault();
        void s.save(message);
        setMessage("");
        return;
      }
      if (mod && k === "f") {
        e.preventDefault();
        setSearching(true);
        return;
      }
      if (e.key === "Escape") {
        setSearching(false);
        setHelp(false);
        setQuick(null);
      }
      if (typing(e.target)) return;
      if (mod && k === "z" && !e.shiftKey) (e.preventDefault(), store.undo());
      else if (mod && (k === "y" || (k === "z" && e.shiftKey))) (e.preventDefault(), store.redo());
      else if (mod && k === "d") (e.preventDefault(), duplicate(store));
      else if (mod && k === "a") (e.preventDefault(), selectAll(store));
      else if (e.altKey && k === "l") (e.preventDefault(), void autoLayout(store));
      else if (e.key === "?") setHelp((h) => !h);
    };
    // Clipboard events carry the data without a permission prompt, also between tabs and projects.
    const onCopy = (e: ClipboardEvent) => {
      if (typing(e.target) || document.getSelection()?.toString()) return;
      const text = copyText(store);
      if (text && e.clipboardData) {
        e.clipboardData.setData("text/plain", text);
        e.preventDefault();
      }
    };
    const onPaste = (e: ClipboardEvent) => {
      if (typing(e.target)) return;
      if (pasteText(store, e.clipboardData?.getData("text/plain"))) e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    document.addEventListener("copy", onCopy);
    document.addEventListener("paste", onPaste);
    return () => {
      window.removeEventListener("keydown", onKey);
      document.removeEventListener("copy", onCopy);
      document.removeEventListener("paste", onPaste);
    };
  }, [store, s, message]);

  const statusText = s.status === "saving" ? t("editor.save.saving") : s.status === "error" ? t("editor.save.failed") : s.dirty ? t("editor.save.unsaved") : t("editor.save.saved");

  return (
    <div className="ed-root" data-testid="editor">
      <div className="ed-toolbar" role="toolbar" aria-label={t("editor.toolbar")}>
        <button type="button" className={view === "canvas" ? "active" : ""} onClick={() => setView("canvas")}>{t("editor.canvas")}</button>
        <button type="button" className={view === "code" ? "active" : ""} onClick={() => setView("code")}>{t("editor.code.title")}</button>
        <span className="ed-sep" />
        <button type="button" onClick={store.undo} disabled={!canUndo} title="Ctrl+Z">{t("editor.undo")}</button>
        <button type="button" onClick={store.redo} disabled={!canRedo} title="Ctrl+Shift+Z">{t("editor.redo")}</button>
        <button type="button" onClick={() => void copyToClipboard(store)} disabled={!hasSelection}>{t("editor.copy")}</button>
        <button type="button" onClick={() => void pasteFromClipboard(store)}>{t("editor.paste")}</button>
        <button type="button" onClick={() => duplicate(store)} disabled={!hasSelection}>{t("editor.duplicate")}</button>
        <button type="button" onClick={() => removeSelected(store)} disabled={!hasSelection}>{t("editor.delete")}</button>
        <button type="button" onClick={() => void autoLayout(store)}>{t("editor.layout")}</button>
        <button type="button" onClick={() => setSearching(true)} title="Ctrl+F">{t("editor.search.title")}</button>
        <button type="button" onClick={() => setHelp(true)} aria-label={t("editor.keys.title")}>?</button>
        <button type="button" className={preview ? "active" : ""} aria-pressed={preview} onClick={() => setPreview((p) => !p)}>{t("editor.preview")}</button>
        <span className="ed-sep" />
        <input className="ed-commit" aria-label={t("editor.save.message")} placeholder={t("editor.save.message")} value={message} onChange={(e) => setMessage(e.target.value)} />
        <button type="button" className="primary" onClick={() => { void s.save(message); setMessage(""); }} disabled={s.status === "saving"}>{t("editor.save.save")}</button>
        <label className="ed-check small"><input type="checkbox" checked={s.autosave} onChange={(e) => s.setAutosave(e.target.checked)} /> {t("editor.save.autosave")}</label>
        <label className="ed-check small"><input type="checkbox" checked={s.restart} onChange={(e) => s.setRestart(e.target.checked)} /> {t("editor.save.restart")}</label>
        <span className={`ed-status small ${s.status}`} role="status" data-testid="save-status">{statusText}</span>
      </div>
      {s.error && <p className="error small" role="alert">{s.error}</p>}
      {s.remote && <RemoteBanner dirty={s.dirty} onReload={() => s.adopt(s.remote!)} onDismiss={s.dismissRemote} />}
      {s.conflict && <ConflictDialog mine={doc} theirs={s.conflict} onKeepMine={s.keepMine} onLoadTheirs={() => s.adopt(s.conflict!)} />}
      <SheetTabs store={store} />
      <div className={preview && view === "canvas" ? "ed-main with-preview" : "ed-main"}>
        {view === "canvas" ? (
          <>
            {!preview && <Palette onAdd={(type) => addAt(type, null)} />}
            <div className="ed-center">
              <Canvas store={store} warnings={warnings} flash={flash} onQuickAdd={(source, handle, at) => setQuick({ source, handle, at })} onDropType={(type, at) => addAt(type, at)} />
              {warnings.size > 0 && (
                <details className="ed-warnbox">
                  <summary>⚠ {t("editor.code.warnings")} ({generated?.warnings?.length})</summary>
                  <WarningList warnings={generated?.warnings ?? []} onPick={openNode} />
                </details>
              )}
            </div>
            <Properties store={store} projectId={project.id} />
            {preview && <PreviewPanel store={store} projectId={project.id} onFlash={setFlash} />}
          </>
        ) : (
          <CodeView generated={generated} error={genError} doc={doc} busy={genBusy} onRefresh={() => void generate()} onPick={openNode} />
        )}
      </div>
      {searching && <Search doc={doc} onPick={openNode} onClose={() => setSearching(false)} />}
      {help && <ShortcutsHelp onClose={() => setHelp(false)} />}
      {quick && (
        <QuickAdd
          at={quick.at}
          onClose={() => setQuick(null)}
          onPick={(type) => {
            addAt(type, null, quick.source && quick.handle ? { source: quick.source, handle: quick.handle } : undefined);
            setQuick(null);
          }}
        />
      )}
    </div>
  );
}

/** Makes the store once per opened project. */
export function Editor({ project }: { project: ProjectRecord }) {
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const store = useMemo(() => new EditorStore(normalizeDoc(project.data)), [project.id]);
  const sheetId = useEditor(store, (s) => s.sheetId);
  const laidOut = useRef(new Set<string>());
  // A sheet without a usable drawing (no positions, piled-up nodes) is laid out once, when it is
  // first opened: opening a big imported file does not wait for the sheets nobody looks at.
  useEffect(() => {
    const sheet = store.sheet;
    if (laidOut.current.has(sheet.id)) return;
    laidOut.current.add(sheet.id);
    if (!needsLayout(sheet)) return;
    const before = store.state.doc;
    void layoutSheet(before, sheet.id).then((next) => {
      if (store.state.doc === before) store.replaceDoc(next);
    });
  }, [store, sheetId]);
  return (
    <ReactFlowProvider>
      <EditorBody store={store} project={project} />
    </ReactFlowProvider>
  );
}
