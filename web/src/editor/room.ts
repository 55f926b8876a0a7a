// Room for the canvas (docs/editor.md#room-for-the-canvas): the panels never leave less than
// MIN_FREE pixels of canvas between them. The preview that has no room beside the canvas goes under
// it, and where the palette and the properties together would leave too little, the one the person
// did not ask for last folds to its button. Folding here is for room only: the panels' remembered
// open or closed state is the person's and is left alone, so a wider window brings them back.
import { useLayoutEffect, useState, type RefObject } from "react";

/** The narrowest canvas left free between the panels that one can still work in. */
export const MIN_FREE = 320;

/** What the person has open: the panels, and which floating panel they asked for last. */
export interface Wishes {
  palette: boolean;
  /** the properties panel is open and has something to show (a selected node, the tour) */
  props: boolean;
  preview: boolean;
  last: "palette" | "props";
}

/** The widths the arrangement depends on, in pixels: the editor's main row and the panels (editor.css). */
export interface Widths {
  main: number;
  palette: number;
  props: number;
  preview: number;
  /** between the canvas and the preview beside it */
  gap: number;
  /** between a floating panel and the canvas's edge, and the canvas's own border */
  inset: number;
  border: number;
}

export interface Arrangement {
  palette: boolean;
  props: boolean;
  previewUnder: boolean;
}

/**
 * Where the panels go. The preview's place does not depend on the selection (it would jump as nodes
 * are clicked): it goes under the canvas when beside it the properties panel alone would leave less
 * than MIN_FREE.
 */
export function arrange(w: Widths, wish: Wishes): Arrangement {
  const free = (canvas: number, palette: boolean, props: boolean) =>
    canvas - 2 * w.border - (palette ? w.inset + w.palette : 0) - (props ? w.props + w.inset : 0);
  const beside = w.main - w.preview - w.gap;
  const previewUnder = wish.preview && free(beside, false, true) < MIN_FREE;
  const canvas = wish.preview && !previewUnder ? beside : w.main;
  if (free(canvas, wish.palette, wish.props) >= MIN_FREE) return { palette: wish.palette, props: wish.props, previewUnder };
  const keep = wish.last;
  if (free(canvas, keep === "palette" && wish.palette, keep === "props" && wish.props) >= MIN_FREE)
    return { palette: keep === "palette" && wish.palette, props: keep === "props" && wish.props, previewUnder };
  return { palette: false, props: false, previewUnder };
}

const px = (s: CSSStyleDeclaration, name: string) => parseFloat(s.getPropertyValue(name)) || 0;

/** The widths as laid out now: the main row measured, the panels' from the CSS variables they are drawn with. */
function measure(main: HTMLElement): Widths {
  const root = getComputedStyle(main.closest(".ed-root") ?? main);
  const center = main.querySelector(".ed-center");
  return {
    main: main.clientWidth,
    palette: px(root, "--ed-palette-w"),
    props: px(root, "--ed-props-w"),
    preview: px(root, "--ed-preview-w"),
    gap: parseFloat(getComputedStyle(main).columnGap) || 0,
    inset: px(root, "--ed-inset"),
    border: parseFloat(center ? getComputedStyle(center).borderLeftWidth : "") || 0,
  };
}

/** The arrangement for the main row's width, followed as the window changes; `off` (a phone) keeps the wishes. */
export function useRoom(mainRef: RefObject<HTMLElement | null>, wish: Wishes, off: boolean): Arrangement {
  const [widths, setWidths] = useState<Widths | null>(null);
  useLayoutEffect(() => {
    const main = mainRef.current;
    if (!main || off) return;
    const update = () => setWidths((old) => {
      const now = measure(main);
      return old && JSON.stringify(old) === JSON.stringify(now) ? old : now;
    });
    // measured before the first paint too, so the panels never show crowded for a frame
    update();
    const resized = new ResizeObserver(update);
    resized.observe(main);
    return () => resized.disconnect();
  }, [mainRef, off]);
  if (off || !widths) return { palette: wish.palette, props: wish.props, previewUnder: false };
  return arrange(widths, wish);
}
