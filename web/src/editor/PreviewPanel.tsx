// The preview chat as a side panel of the editor: it runs the current, unsaved document; each bot
// message flashes the node that produced it, and clicking a message selects that node.
import { useCallback, useEffect, useMemo, useState } from "react";
import { PreviewChat } from "../preview";
import { useEditor, type EditorStore } from "./store";

export const FLASH_MS = 1500;

export function PreviewPanel({ store, projectId, onFlash }: { store: EditorStore; projectId: number; onFlash: (nodeId: string | null) => void }) {
  const doc = useEditor(store, (s) => s.doc);
  const selected = useEditor(store, (s) => s.selected);
  // node positions do not change what the bot does: a drag does not restart the preview
  const [document, setDocument] = useState(doc);
  const behaviour = useMemo(() => JSON.stringify(doc.sheets.map((s) => s.nodes.map((n) => [n.id, n.type, n.data]))), [doc]);
  useEffect(() => setDocument(store.state.doc), [behaviour, store]);
  const onNodeMessage = useCallback(
    (nodeId: string) => {
      onFlash(nodeId);
      setTimeout(() => onFlash(null), FLASH_MS);
    },
    [onFlash],
  );
  return (
    <aside className="ed-preview" data-testid="editor-preview">
      <PreviewChat projectId={projectId} document={document} compact highlightNode={selected.length === 1 ? selected[0] : null} onNodeMessage={onNodeMessage} onSelectNode={(id) => store.focusNode(id)} />
    </aside>
  );
}
