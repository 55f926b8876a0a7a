// A read-only picture of a scenario sheet: node boxes at their saved positions (laid out when a
// sheet has none) and the transitions between them as lines. No React Flow: it is a picture to look
// at on a template's page, cheap to draw, and the nodes a preview walks light up on it.
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { deriveEdges, normalizeDoc, sheetIndex, type Doc } from "./document";
import { iconOf } from "./catalogue";
import { layoutSheet, needsLayout } from "./layout";
import { nodeName } from "./names";
import { registerEditorStrings } from "./i18n";

registerEditorStrings();

const W = 280;
const H = 84;
/** characters of a node's text that fit its box at the picture's font size */
const TEXT_FIT = 24;

const short = (s: string) => (s.length > TEXT_FIT ? `${s.slice(0, TEXT_FIT - 1)}…` : s);

export function GraphPicture({ document, highlight, label }: { document: unknown; highlight?: ReadonlySet<string>; label: string }) {
  const { t } = useTranslation();
  const loaded = useMemo(() => normalizeDoc(document), [document]);
  const [doc, setDoc] = useState<Doc>(loaded);
  const sheet = doc.sheets[0];
  useEffect(() => {
    setDoc(loaded);
    const first = loaded.sheets[0];
    if (first && needsLayout(first)) void layoutSheet(loaded, first.id).then(setDoc);
  }, [loaded]);
  if (!sheet || sheet.nodes.length === 0) return null;
  const pos = new Map(sheet.nodes.map((n) => [n.id, n.position ?? { x: 0, y: 0 }]));
  const xs = [...pos.values()].map((p) => p.x);
  const ys = [...pos.values()].map((p) => p.y);
  // room around the boxes for the curves of links that go back to an earlier node
  const pad = 90;
  const minX = Math.min(...xs) - pad;
  const minY = Math.min(...ys) - pad / 3;
  const width = Math.max(...xs) + W + pad - minX;
  const height = Math.max(...ys) + H + pad / 3 - minY;
  const { local } = deriveEdges(sheet, sheetIndex(doc));
  return (
    <figure className="graph-picture" data-testid="graph-picture">
      <svg viewBox={`${minX} ${minY} ${width} ${height}`} role="img" aria-label={label} preserveAspectRatio="xMidYMid meet">
        <defs>
          <marker id="gp-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M0,0 L10,5 L0,10 z" className="gp-arrowhead" />
          </marker>
        </defs>
        {local.map((e) => {
          const a = pos.get(e.source)!;
          const b = pos.get(e.target)!;
          const x1 = a.x + W;
          const y1 = a.y + H / 2;
          const x2 = b.x;
          const y2 = b.y + H / 2;
          const mid = Math.min(pad - 10, Math.max(40, Math.abs(x2 - x1) / 2));
          const lit = highlight?.has(e.source) && highlight?.has(e.target);
          return <path key={e.id} className={lit ? "gp-edge gp-lit" : "gp-edge"} d={`M${x1},${y1} C${x1 + mid},${y1} ${x2 - mid},${y2} ${x2},${y2}`} markerEnd="url(#gp-arrow)" />;
        })}
        {sheet.nodes.map((n) => {
          const p = pos.get(n.id)!;
          const type = t(`editor.types.${n.type}`, { defaultValue: n.type });
          return (
            <g key={n.id} transform={`translate(${p.x},${p.y})`} className={highlight?.has(n.id) ? "gp-node gp-lit" : "gp-node"} data-node-id={n.id}>
              <rect width={W} height={H} rx={10} />
              <text x={14} y={30} className="gp-type">{iconOf(n.type)} {type}</text>
              <text x={14} y={64} className="gp-text">{short(nodeName(n, ""))}</text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
