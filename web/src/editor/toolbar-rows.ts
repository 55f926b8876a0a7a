// The toolbar wraps between its groups (docs/editor.md "Screen"); the thin line between two groups
// means "these sit side by side", so a line whose neighbour went to another row is hidden.
import { useLayoutEffect, type RefObject } from "react";

const overlapY = (a: DOMRect, b: DOMRect) => a.top < b.bottom && b.top < a.bottom;

/** Marks each separator at a row's end (`data-edge="end"`) or start (`"start"`); the CSS hides them. */
function markEdges(bar: HTMLElement) {
  const seps = [...bar.querySelectorAll<HTMLElement>(":scope > .ed-sep")];
  // measured with every line shown, then marked again in the same task: the layout the observer
  // sees after it is the one before, so it does not call again
  for (const s of seps) delete s.dataset.edge;
  const edges = seps.map((s) => {
    const r = s.getBoundingClientRect();
    const before = s.previousElementSibling?.getBoundingClientRect();
    const after = s.nextElementSibling?.getBoundingClientRect();
    return !before || !overlapY(before, r) ? "start" : !after || !overlapY(r, after) ? "end" : undefined;
  });
  // an end keeps its room (hidden, not removed), so the row does not pull the next group up and flip back
  seps.forEach((s, i) => edges[i] && (s.dataset.edge = edges[i]));
}

/** Keeps the toolbar's separators between groups of one row as it wraps and unwraps. */
export function useRowSeparators(ref: RefObject<HTMLElement | null>, key: unknown) {
  useLayoutEffect(() => {
    const bar = ref.current;
    if (!bar) return;
    const resized = new ResizeObserver(() => markEdges(bar));
    resized.observe(bar);
    for (const child of bar.children) resized.observe(child);
    return () => resized.disconnect();
  }, [ref, key]);
}
