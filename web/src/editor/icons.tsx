// The toolbar's drawn icons (for the edit actions that show an icon instead of a word, so the
// Russian toolbar fits one row; their words are the buttons' names and tooltips, docs/editor.md).
const PATHS = {
  undo: ["M9 5 4 10l5 5", "M4 10h10a6 6 0 0 1 0 12h-4"],
  redo: ["M15 5l5 5-5 5", "M20 10H10a6 6 0 0 0 0 12h4"],
  copy: ["M10 8h9a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2h-9a2 2 0 0 1-2-2v-9a2 2 0 0 1 2-2z", "M16 8V5a2 2 0 0 0-2-2H5a2 2 0 0 0-2 2v9a2 2 0 0 0 2 2h3"],
  paste: ["M7 4H6a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V6a2 2 0 0 0-2-2h-1", "M9 2h6v4H9z", "M8 12h8M8 16h5"],
  duplicate: ["M5 3h9a2 2 0 0 1 2 2v1", "M3 14V5a2 2 0 0 1 2-2", "M10 8h9a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2h-9a2 2 0 0 1-2-2v-9a2 2 0 0 1 2-2z", "M14.5 11.5v6M11.5 14.5h6"],
  trash: ["M4 7h16", "M9 7V4h6v3", "M6 7l1 13a2 2 0 0 0 2 2h6a2 2 0 0 0 2-2l1-13", "M10 11v7M14 11v7"],
  // three cards laid out along their links
  layout: ["M2 9h6v6H2z", "M16 3h6v6h-6z", "M16 15h6v6h-6z", "M8 12h4M12 6v12M12 6h4M12 18h4"],
} as const;

export type IconName = keyof typeof PATHS;

export function ToolIcon({ name }: { name: IconName }) {
  return (
    <svg className="ed-icon" viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      {PATHS[name].map((d) => <path key={d} d={d} />)}
    </svg>
  );
}
