// Where the editor's panels go (web/src/editor/room.ts, docs/editor.md#room-for-the-canvas), with
// the panel widths of editor.css at 1100 px and narrower: the canvas keeps MIN_FREE between them.
import { describe, expect, test } from "bun:test";
import { arrange, MIN_FREE, type Widths, type Wishes } from "../../web/src/editor/room";

const narrow = (main: number): Widths => ({ main, palette: 200, props: 290, preview: 320, gap: 7.5, inset: 8, border: 1 });
const wide = (main: number): Widths => ({ main, palette: 236, props: 330, preview: 360, gap: 7.5, inset: 8, border: 1 });
const all: Wishes = { palette: true, props: true, preview: true, last: "props" };
/** The canvas left free between the panels an arrangement shows. */
const free = (w: Widths, a: ReturnType<typeof arrange>, preview: boolean) =>
  (preview && !a.previewUnder ? w.main - w.preview - w.gap : w.main) - 2 * w.border - (a.palette ? w.inset + w.palette : 0) - (a.props ? w.props + w.inset : 0);

describe("room for the canvas", () => {
  test("a wide window keeps every panel where it was asked for", () => {
    expect(arrange(wide(1402), all)).toEqual({ palette: true, props: true, previewUnder: false });
  });

  test("the panel asked for longer ago folds first; the one asked for last stays", () => {
    // 1280 px with the preview: both would leave 291 px
    expect(arrange(wide(1242), all)).toEqual({ palette: false, props: true, previewUnder: false });
    expect(arrange(wide(1242), { ...all, last: "palette" })).toEqual({ palette: true, props: false, previewUnder: false });
    // 800 px without the preview
    expect(arrange(narrow(762), { ...all, preview: false })).toEqual({ palette: false, props: true, previewUnder: false });
  });

  test("the preview goes under the canvas where beside it the properties alone leave too little, whatever is selected", () => {
    for (const props of [true, false]) expect(arrange(narrow(862), { ...all, props }).previewUnder).toBe(true);
    expect(arrange(narrow(986), all).previewUnder).toBe(false);
  });

  test("from 1440 to 800 px, whatever is open, the canvas keeps MIN_FREE", () => {
    for (let main = 762; main <= 1402; main += 4)
      for (const palette of [true, false])
        for (const props of [true, false])
          for (const preview of [true, false])
            for (const last of ["palette", "props"] as const) {
              const w = main > 1062 ? wide(main) : narrow(main);
              expect({ main, left: free(w, arrange(w, { palette, props, preview, last }), preview) >= MIN_FREE }).toEqual({ main, left: true });
            }
  });
});
