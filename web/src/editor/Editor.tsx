// The scenario editor of one project: toolbar, sheet tabs, palette, canvas, properties, and the
// code view; saving, conflicts and live reload come from useSave.
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { ReactFlowProvider, useReactFlow } from "@xyflow/react";
import { useTranslation } from "react-i18next";
import { errorText, post } from "../api/client";
import { Canvas } from "./Canvas";
import { CodeView, WarningList, type Generated } from "./CodeView";
import { copyText, pasteText } from "./commands";
import { dispatchKey, type ActionContext, type ActionView } from "./actions";
import { ActionButton, ActionsContext, ToolbarActions } from "./ActionButton";
import { ConflictDialog, RemoteBanner, ShortcutsHelp } from "./Dialogs";
import { CARD, sizeOf } from "./layout";
import { normalizeDoc } from "./document";
import { addNode, insertNode, makeNode } from "./ops";
import { newNodeWords } from "./i18n";
import { NodePicker, Palette } from "./Palette";
import { Properties } from "./Properties";
import { PreviewPanel } from "./PreviewPanel";
import { Search } from "./Search";
import { EmptyHint, Tour } from "./Guide";
import { FunnelBar } from "./FunnelBar";
import { overlayFromAddress, useOverlayAddress } from "./funnel-address";
import { SheetTabs } from "./SheetTabs";
import { useRowSeparators } from "./toolbar-rows";
import { useRoom } from "./room";
import { useEditor, EditorStore } from "./store";
import { useSave, type ProjectRecord } from "./useSave";
import { GRID } from "./Canvas";
import { useLeaveGuard } from "../leave-guard";
import { visibleRegion } from "./viewport";
import { editorWarnings } from "./warnings";

const typing = (t: EventTarget | null) => t instanceof HTMLElement && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));

function EditorBody({ store, project }: { store: EditorStore; project: ProjectRecord }) {
  const { t, i18n } = useTranslation();
  const flow = useReactFlow();
  const doc = useEditor(store, (s) => s.doc);
  const savedDoc = useEditor(store, (s) => s.saved);
  const canUndo = useEditor(store, (s) => s.past.length > 0);
  const canRedo = useEditor(store, (s) => s.future.length > 0);
  const hasSelection = useEditor(store, (s) => s.selected.length > 0);
  const analytics = useEditor(store, (s) => s.analytics !== null);
  const [view, setView] = useState<"canvas" | "code">("canvas");
  const [searching, setSearching] = useState(false);
  const [help, setHelp] = useState(false);
  const [quick, setQuick] = useState<{ source: string | null; handle: string | null; at: { x: number; y: number }; before?: string } | null>(null);
  const [message, setMessage] = useState("");
  const [generated, setGenerated] = useState<Generated | null>(null);
  const [genError, setGenError] = useState("");
  const [genBusy, setGenBusy] = useState(false);
  const [preview, setPreview] = useState(false);
  const [flash, setFlash] = useState<string | null>(null);
  const phone = usePhone();
  const toolbar = useRef<HTMLDivElement>(null);
  // the toolbar's groups differ on a phone (no edits)
  useRowSeparators(toolbar, phone);
  const [paletteOpen, setPaletteOpen] = usePanel("palette");
  const [propsOpen, setPropsOpen] = usePanel("props");
  const [minimap, setMinimap] = useStoredFlag("botloom.editor.minimap");
  const [fullscreen, setFullscreen] = useState(false);
  const [tour, setTour] = useState(false);
  // the panels fold, and the preview goes under the canvas, where they would leave it too little room
  const main = useRef<HTMLDivElement>(null);
  const [lastPanel, setLastPanel] = useState<"palette" | "props">("props");
  const room = useRoom(main, { palette: paletteOpen, props: propsOpen && (hasSelection || tour), preview: preview && view === "canvas", last: lastPanel }, phone);
  const pickedNode = useCallback(() => setLastPanel("props"), []);
  const openPanel = (panel: "palette" | "props") => {
    (panel === "palette" ? setPaletteOpen : setPropsOpen)(true);
    setLastPanel(panel);
  };
  const empty = useEditor(store, (st) => (st.doc.sheets.find((x) => x.id === st.sheetId) ?? st.doc.sheets[0]!).nodes.length === 0);

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
  useLeaveGuard(s.dirty, t("editor.save.leave"));
  useOverlayAddress(store);
  useEffect(() => void generate(), [generate]);

  // Warnings follow the edits (checked 250 ms after the last one), saved or not.
  const [checked, setChecked] = useState(doc);
  useEffect(() => {
    const timer = setTimeout(() => setChecked(doc), 250);
    return () => clearTimeout(timer);
  }, [doc]);
  const shown = useMemo(() => editorWarnings(checked, generated?.warnings ?? [], t, i18n.language), [checked, generated, t, i18n.language]);
  const warnings = useMemo(() => {
    const m = new Map<string, string[]>();
    for (const w of shown) if (w.nodeId) m.set(w.nodeId, [...(m.get(w.nodeId) ?? []), w.message]);
    return m;
  }, [shown]);

  // A new node goes next to where it comes from (the node it follows, the one selected, the edge
  // it is inserted on), else into the middle of the part of the view no panel covers; the canvas
  // then moves it off any node it covers and brings it into view, clear of the panels.
  const addAt = useCallback(
    (type: string, screen: { x: number; y: number } | null, from?: { source: string; handle: string }, before?: string) => {
      const free = visibleRegion();
      const sheetNodes = store.sheet.nodes;
      const anchorId = from?.source ?? (!screen && store.state.selected.length === 1 ? store.state.selected[0] : undefined);
      const src = anchorId ? sheetNodes.find((n) => n.id === anchorId) : undefined;
      const tgt = before ? sheetNodes.find((n) => n.id === before) : undefined;
      let at: { x: number; y: number };
      if (src?.position && tgt?.position) at = { x: (src.position.x + tgt.position.x) / 2, y: (src.position.y + tgt.position.y) / 2 + 40 };
      else if (src?.position && !screen) at = { x: src.position.x + sizeOf(store.sizes, src.id).w + 80, y: src.position.y };
      else if (screen) at = flow.screenToFlowPosition(screen);
      else {
        const c = flow.screenToFlowPosition({ x: free ? (free.left + free.right) / 2 : 300, y: free ? (free.top + free.bottom) / 2 : 200 });
        at = { x: c.x - CARD.width / 2, y: c.y - CARD.height / 2 };
      }
      const node = makeNode(type, { x: Math.round(at.x / GRID) * GRID, y: Math.round(at.y / GRID) * GRID }, newNodeWords(i18n.language));
      if (screen) store.placedByHand.add(node.id);
      const doc = from && before ? insertNode(store.state.doc, store.state.sheetId, node, from, before) : addNode(store.state.doc, store.state.sheetId, node, from);
      store.commit(doc, { selected: [node.id] });
    },
    [flow, store, i18n],
  );

  const openNode = useCallback(
    (id: string) => {
      store.focusNode(id);
      setView("canvas");
      setSearching(false);
    },
    [store],
  );

  // ?node=<id> (the Dialogs tab's "sent by node" link) opens the editor on that node.
  useEffect(() => {
    const nodeId = new URLSearchParams(location.search).get("node");
    if (nodeId) openNode(nodeId);
  }, [openNode]);

  // The actions table (actions.ts) runs against this screen: its flags as plain values, its panels
  // and dialogs behind the context's methods. The key handler reads both through a ref, so it is
  // installed once and always sees the current ones.
  const actionView: ActionView = {
    canUndo, canRedo, hasSelection, analytics, view, preview, fullscreen, minimap, phone,
    palette: room.palette, properties: room.props,
  };
  const actionCtx: ActionContext = {
    store,
    save: () => {
      void s.save(message);
      setMessage("");
    },
    setView,
    openSearch: () => setSearching(true),
    toggleHelp: () => setHelp((h) => !h),
    togglePreview: () => setPreview((p) => !p),
    toggleFullscreen: () => setFullscreen((f) => !f),
    toggleMinimap: () => setMinimap(!minimap),
    zoom: (direction) => void (direction === "in" ? flow.zoomIn() : flow.zoomOut()),
    togglePalette: () => (room.palette ? setPaletteOpen(false) : openPanel("palette")),
    toggleProperties: () => (room.props ? setPropsOpen(false) : openPanel("props")),
    closeOverlays: (typing) => {
      setSearching(false);
      setHelp(false);
      setQuick(null);
      setTour(false);
      if (!typing && !document.querySelector(".ed-quickmenu, .ed-search, .ed-modal, .ed-tour")) setFullscreen(false);
    },
  };
  const actions = { ctx: actionCtx, view: actionView };
  const actionsRef = useRef(actions);
  actionsRef.current = actions;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => dispatchKey(e, actionsRef.current.ctx, actionsRef.current.view, typing(e.target));
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
      if (typing(e.target) || phone) return;
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
  }, [store, phone]);

  const statusText = s.status === "saving" ? t("editor.save.saving") : s.status === "error" ? t("editor.save.failed") : s.dirty ? t("editor.save.unsaved") : t("editor.save.saved");

  const center = () => {
    const r = document.querySelector(".ed-canvas")?.getBoundingClientRect();
    return { x: (r?.left ?? 0) + (r?.width ?? 600) / 2, y: (r?.top ?? 0) + 80 };
  };
  const editing = !phone;

  return (
    <ActionsContext.Provider value={actions}>
    <div className={`ed-root${fullscreen ? " fullscreen" : ""}${phone ? " phone" : ""}${room.previewUnder ? " preview-under" : ""}`} data-testid="editor">
      <div className="ed-toolbar" role="toolbar" ref={toolbar} aria-label={t("editor.toolbar")}>
        <ToolbarActions
          before={{ save: <input className="ed-commit" aria-label={t("editor.save.message")} placeholder={t("editor.save.message")} value={message} onChange={(e) => setMessage(e.target.value)} /> }}
          after={{
            save: (
              // one above the other: side by side they took the row's room from the status (docs/editor.md "Screen")
              <>
                <span className="ed-save-opts">
                  <label className="ed-check small"><input type="checkbox" checked={s.autosave} onChange={(e) => s.setAutosave(e.target.checked)} /> {t("editor.save.autosave")}</label>
                  <label className="ed-check small" title={t("editor.save.restartHint")}><input type="checkbox" checked={s.restart} onChange={(e) => s.setRestart(e.target.checked)} /> {t("editor.save.restart")}</label>
                </span>
                {/* as wide as its usual words (the CSS sizes it by them), so the row does not change as they do; longer ones are cut, whole in the tooltip */}
                <span className={`ed-status small ${s.status}`} role="status" data-testid="save-status" title={statusText} data-unsaved={t("editor.save.unsaved")} data-saving={t("editor.save.saving")}>
                  <span>{statusText}</span>
                </span>
              </>
            ),
          }}
        />
      </div>
      {phone && (
        <div className="ed-phone-note" role="note" data-testid="phone-notice">
          <strong>{t("editor.phone.title")}</strong> {t("editor.phone.text")}
        </div>
      )}
      {s.error && <p className="error small" role="alert">{s.error}</p>}
      {s.remote && <RemoteBanner dirty={s.dirty} onReload={() => s.adopt(s.remote!)} onDismiss={s.dismissRemote} />}
      {s.conflict && <ConflictDialog base={savedDoc} mine={doc} theirs={s.conflict} onKeepMine={s.keepMine} onLoadTheirs={() => s.adopt(s.conflict!)} />}
      <SheetTabs store={store} readOnly={phone} />
      {analytics && view === "canvas" && <FunnelBar store={store} projectId={project.id} />}
      <div className={preview && view === "canvas" ? "ed-main with-preview" : "ed-main"} ref={main}>
        {view === "canvas" ? (
          <>
            <div className={`ed-center${editing && room.palette ? " palette-open" : ""}${room.props ? " props-open" : ""}`}>
              <Canvas
                store={store}
                minimap={minimap}
                panels={[room.palette, room.props, preview, room.previewUnder, fullscreen, minimap, warnings.size > 0].join()}
                warnings={warnings}
                flash={flash}
                readOnly={phone}
                onQuickAdd={(source, handle, at) => setQuick({ source, handle, at })}
                onInsert={(e, at) => setQuick({ source: e.source, handle: e.sourceHandle, at, before: e.target })}
                onDropType={(type, at) => (setLastPanel("palette"), addAt(type, at))}
                onPickNode={pickedNode}
              />
              {editing && (room.palette ? (
                // adding from the palette keeps it open, the new node's properties fold if there is no room for both
                <Palette onAdd={(type) => (setLastPanel("palette"), addAt(type, null))} onClose={() => setPaletteOpen(false)} />
              ) : (
                <ActionButton id="palette" className="ed-panel-toggle left">☰ {t("editor.showPalette")}</ActionButton>
              ))}
              {!hasSelection && !tour ? null : room.props ? (
                <div className="ed-props-dock">
                  <button type="button" className="ghost ed-props-hide" onClick={() => setPropsOpen(false)} aria-label={t("editor.hidePanel")} title={t("editor.hidePanel")}>»</button>
                  <fieldset className="ed-props-fieldset" disabled={phone}>
                    <Properties store={store} projectId={project.id} />
                  </fieldset>
                </div>
              ) : (
                <ActionButton id="properties" className="ed-panel-toggle right">{t("editor.showProps")} ☰</ActionButton>
              )}
              {editing && empty && <EmptyHint onAddStart={() => addAt("command_trigger", null)} onBrowse={() => setQuick({ source: null, handle: null, at: center() })} onTour={() => setTour(true)} />}
              {warnings.size > 0 && (
                <details className="ed-warnbox">
                  <summary>⚠ {t("editor.code.warnings")} ({shown.length})</summary>
                  <WarningList warnings={shown} onPick={openNode} />
                </details>
              )}
            </div>
            {preview && <PreviewPanel store={store} projectId={project.id} onFlash={setFlash} below={phone || room.previewUnder} />}
          </>
        ) : (
          <CodeView generated={generated} warnings={shown} error={genError} doc={doc} busy={genBusy} onRefresh={() => void generate()} onPick={openNode} />
        )}
      </div>
      {tour && (
        <Tour
          onClose={() => setTour(false)}
          onStep={(key) => {
            if (key === "palette" || key === "props") openPanel(key);
          }}
        />
      )}
      {searching && <Search doc={doc} onPick={openNode} onClose={() => setSearching(false)} />}
      {help && <ShortcutsHelp onClose={() => setHelp(false)} onTour={() => (setHelp(false), setTour(true))} />}
      {quick && (
        <NodePicker
          at={quick.at}
          onClose={() => setQuick(null)}
          onPick={(type) => {
            addAt(type, null, quick.source && quick.handle ? { source: quick.source, handle: quick.handle } : undefined, quick.before);
            setQuick(null);
          }}
        />
      )}
    </div>
    </ActionsContext.Provider>
  );
}

const PHONE = "(max-width: 799px)";
/** A phone-sized screen: the editor is a read-only view there (docs/editor.md, "On a phone"). */
function usePhone(): boolean {
  const [phone, setPhone] = useState(() => window.matchMedia(PHONE).matches);
  useEffect(() => {
    const m = window.matchMedia(PHONE);
    const on = () => setPhone(m.matches);
    m.addEventListener("change", on);
    return () => m.removeEventListener("change", on);
  }, []);
  return phone;
}

/** Whether an overlay panel is open, remembered in the browser. */
const usePanel = (name: string) => useStoredFlag(`botloom.editor.panel.${name}`);

/** A flag remembered in the browser, on until turned off. */
function useStoredFlag(key: string): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(() => localStorage.getItem(key) !== "0");
  return [on, (v: boolean) => (localStorage.setItem(key, v ? "1" : "0"), setOn(v))];
}

/** Makes the store once per opened project. */
export function Editor({ project }: { project: ProjectRecord }) {
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const store = useMemo(() => {
    const s = new EditorStore(normalizeDoc(project.data));
    s.setAnalytics(overlayFromAddress(new URLSearchParams(location.search)));
    return s;
  }, [project.id]);
  return (
    <ReactFlowProvider>
      <EditorBody store={store} project={project} />
    </ReactFlowProvider>
  );
}
