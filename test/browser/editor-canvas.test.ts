// Canvas gestures in Chromium: marquee selection, reconnecting an edge's end, dropping a dragged
// connection on empty canvas (quick add), keyboard rows and the media picker in the properties,
// and the shortcut help.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { haveChromium, warnIfNoChromium } from "../support/browser";
import { editorEnv, handle, newProject, nodeEl, nodeIds, openEditor, pick, settled, type EditorEnv } from "./editor-support";

warnIfNoChromium("editor: canvas gestures");

const node = (id: string, type: string, x: number, y: number, data: Record<string, unknown>) => ({ id, type, position: { x, y }, data });

describe.skipIf(!haveChromium)("editor: canvas gestures", () => {
  let env: EditorEnv;
  let projectId: number;
  const stored = async () => (await env.t.call("GET", `/api/projects/${projectId}`, { cookie: env.cookie })).body;

  beforeAll(async () => {
    env = await editorEnv({ viewport: { width: 1440, height: 1000 } });
    projectId = await newProject(env, "Gestures", {
      sheets: [
        {
          id: "main",
          name: "Main",
          nodes: [
            node("go", "command_trigger", 0, 0, { command: "/start", autoTransitionTo: "one" }),
            node("one", "message", 400, -150, { messageText: "One", keyboardType: "reply", buttons: [{ id: "y", text: "Yes", action: "goto", target: "" }, { id: "n", text: "No", action: "goto", target: "" }] }),
            node("two", "message", 400, 150, { messageText: "Two" }),
          ],
          edges: [],
        },
      ],
    });
  }, 60_000);
  afterAll(async () => env?.close(), 30_000);

  test("shift+drag draws a selection rectangle around two nodes", async () => {
    const { page } = env.b;
    await openEditor(page, env.base, projectId);
    const a = (await nodeEl(page, "one").boundingBox())!;
    const b = (await nodeEl(page, "two").boundingBox())!;
    await page.keyboard.down("Shift");
    await page.mouse.move(Math.min(a.x, b.x) - 20, a.y - 20);
    await page.mouse.down();
    await page.mouse.move(Math.max(a.x + a.width, b.x + b.width) + 20, b.y + b.height + 20, { steps: 8 });
    await page.mouse.up();
    await page.keyboard.up("Shift");
    await page.getByText("2 nodes selected.").waitFor();
    expect(await page.locator(".ed-node.selected").evaluateAll((els) => els.map((e) => e.getAttribute("data-node-id")).sort())).toEqual(["one", "two"]);
  }, 30_000);

  test("dragging an edge's end onto another node rewrites the transition", async () => {
    const { page } = env.b;
    await page.locator(".react-flow__pane").click({ position: { x: 5, y: 5 } });
    const end = page.locator('.react-flow__edge[data-id="go|auto"] .react-flow__edgeupdater-target');
    const from = (await end.boundingBox())!;
    const to = (await handle(page, "two", "in").boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(to.x, to.y, { steps: 10 });
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 2 });
    await page.mouse.up();
    await page.getByTestId("save-status").filter({ hasText: "Unsaved changes" }).waitFor();
    await page.keyboard.press("Control+s");
    await page.getByTestId("save-status").filter({ hasText: /^Saved$/ }).waitFor();
    const p = await stored();
    expect(p.data.sheets[0].nodes.find((n: any) => n.id === "go").data.autoTransitionTo).toBe("two");
  }, 30_000);

  test("a connection dropped on empty canvas offers the next node, added already connected", async () => {
    const { page } = env.b;
    const h = (await handle(page, "two", "auto").boundingBox())!;
    await page.mouse.move(h.x + h.width / 2, h.y + h.height / 2);
    await page.mouse.down();
    await page.mouse.move(h.x + 200, h.y + 160, { steps: 10 });
    await page.mouse.up();
    await page.getByRole("menuitem", { name: "Delay", exact: true }).click();
    const added = (await nodeIds(page)).find((id) => !["go", "one", "two"].includes(id))!;
    await expect(nodeEl(page, added).locator(".ed-type").textContent()).resolves.toBe("Delay");
    await page.getByRole("complementary", { name: "Properties" }).getByLabel("Seconds").fill("5");
    await page.keyboard.press("Control+s");
    await page.getByTestId("save-status").filter({ hasText: /^Saved$/ }).waitFor();
    const nodes = (await stored()).data.sheets[0].nodes;
    expect(nodes.find((n: any) => n.id === "two").data).toMatchObject({ autoTransitionTo: added, enableAutoTransition: true });
    expect(nodes.find((n: any) => n.id === added)).toMatchObject({ type: "delay", data: { seconds: 5, unit: "seconds" } });
  }, 30_000);

  test("keyboard rows and the media picker write their fields", async () => {
    const { page } = env.b;
    const upload = new FormData();
    upload.set("file", new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0])], "cat.png", { type: "image/png" }));
    const media = await env.t.call("POST", `/api/projects/${projectId}/media`, { cookie: env.cookie, body: upload });
    expect(media.status).toBe(201);
    await page.getByRole("button", { name: "Fit View" }).click();
    await pick(page, "one");
    const props = page.getByRole("complementary", { name: "Properties" });
    const rows = props.getByLabel("Button rows");
    await rows.fill("Yes | No");
    await rows.blur();
    await props.getByLabel("Pick from project media…").selectOption({ label: "cat.png (image/png)" });
    await expect(props.getByLabel("Media URL").inputValue()).resolves.toBe(media.body.url);
    await page.keyboard.press("Control+s");
    await page.getByTestId("save-status").filter({ hasText: /^Saved$/ }).waitFor();
    const one = (await stored()).data.sheets[0].nodes.find((n: any) => n.id === "one").data;
    expect(one.keyboardLayout.rows).toEqual([{ buttonIds: ["y", "n"] }]);
    expect(one.imageUrl).toBe(media.body.url);
  }, 30_000);

  test("a palette item dragged onto free canvas lands where it is dropped", async () => {
    const { page } = env.b;
    const before = await nodeIds(page);
    // room to drop: nothing selected (no properties panel), the drawing zoomed out a little
    await page.keyboard.press("Escape");
    await page.locator(".react-flow__pane").click({ position: { x: 5, y: 5 } });
    await page.locator(".ed-props-dock").waitFor({ state: "detached" });
    for (let i = 0; i < 2; i++) await page.getByRole("button", { name: "Zoom Out" }).click();
    await settled(page);
    const pane = (await page.locator(".react-flow__pane").boundingBox())!;
    // a free spot: a card dropped on another node would slide off it (docs/editor.md, Layout)
    const spot = await page.evaluate(() => {
      const pane = document.querySelector(".react-flow__pane")!.getBoundingClientRect();
      const taken = [...document.querySelectorAll(".react-flow__node, .ed-palette, .ed-props-dock, .react-flow__panel, .ed-warnbox")].map((e) => e.getBoundingClientRect());
      for (let y = pane.top + 20; y < pane.bottom - 200; y += 20)
        for (let x = pane.left + 20; x < pane.right - 320; x += 20)
          if (!taken.some((r) => x - 40 < r.right && r.left < x + 300 && y - 40 < r.bottom && r.top < y + 200)) return { x: x - pane.left, y: y - pane.top };
      return null;
    });
    expect(spot).not.toBeNull();
    await page.locator('.ed-palette-item[data-type="keyboard"]').dragTo(page.locator(".react-flow__pane"), { targetPosition: spot! });
    await page.waitForFunction((n) => document.querySelectorAll(".ed-node").length === n + 1, before.length);
    const added = (await nodeIds(page)).find((id) => !before.includes(id))!;
    await expect(nodeEl(page, added).locator(".ed-type").textContent()).resolves.toBe("Keyboard");
    await settled(page);
    const box = (await nodeEl(page, added).boundingBox())!;
    // snapped to the grid near the drop point (the card's corner is where the pointer was let go)
    expect(Math.abs(box.x - (pane.x + spot!.x))).toBeLessThan(40);
    expect(Math.abs(box.y - (pane.y + spot!.y))).toBeLessThan(40);
  }, 30_000);

  test("a palette item dropped where the properties panel then opens is moved into view with the canvas, not left under the panel", async () => {
    const { page } = env.b;
    const before = await nodeIds(page);
    await page.keyboard.press("Escape");
    await page.locator(".react-flow__pane").click({ position: { x: 5, y: 5 } });
    await page.locator(".ed-props-dock").waitFor({ state: "detached" });
    await settled(page);
    const pane = (await page.locator(".react-flow__pane").boundingBox())!;
    // a free row near the right edge, where the panel (330 px wide) appears once the node is selected
    const spot = await page.evaluate(() => {
      const pane = document.querySelector(".react-flow__pane")!.getBoundingClientRect();
      const taken = [...document.querySelectorAll(".react-flow__node, .react-flow__panel, .ed-warnbox")].map((e) => e.getBoundingClientRect());
      const x = pane.right - 200;
      for (let y = pane.top + 60; y < pane.bottom - 200; y += 20) if (!taken.some((r) => x - 40 < r.right && r.left < x + 300 && y - 40 < r.bottom && r.top < y + 200)) return { x: x - pane.left, y: y - pane.top };
      return null;
    });
    expect(spot).not.toBeNull();
    // the drop point on the drawing (flow coordinates), from the view's transform before the drop
    const dropAt = await page.evaluate((p) => {
      const m = /translate\(([-\d.]+)px, ?([-\d.]+)px\) scale\(([-\d.]+)\)/.exec((document.querySelector(".react-flow__viewport") as HTMLElement).style.transform)!;
      return { x: (p.x - Number(m[1])) / Number(m[3]), y: (p.y - Number(m[2])) / Number(m[3]) };
    }, spot!);
    await page.locator('.ed-palette-item[data-type="message"]').dragTo(page.locator(".react-flow__pane"), { targetPosition: spot! });
    await page.waitForFunction((n) => document.querySelectorAll(".ed-node").length === n + 1, before.length);
    const added = (await nodeIds(page)).find((id) => !before.includes(id))!;
    const dock = page.locator(".ed-props-dock");
    await dock.waitFor();
    // the view pans (200 ms); wait for the card to be clear of the panel rather than for time
    const clear = () =>
      page.evaluate((id) => {
        const card = document.querySelector(`.react-flow__node[data-id="${id}"]`)!.getBoundingClientRect();
        const panel = document.querySelector(".ed-props-dock")!.getBoundingClientRect();
        const canvas = document.querySelector(".ed-canvas")!.getBoundingClientRect();
        return card.right <= panel.left && card.left >= canvas.left && card.bottom <= canvas.bottom;
      }, added);
    await page.waitForFunction(
      (id) => {
        const card = document.querySelector(`.react-flow__node[data-id="${id}"]`)?.getBoundingClientRect();
        const panel = document.querySelector(".ed-props-dock")?.getBoundingClientRect();
        return !!card && !!panel && card.right <= panel.left;
      },
      added,
      { timeout: 5000 },
    );
    expect(await clear()).toBe(true);
    // the card stays where it was let go among the other nodes: the view moved, not the node
    const position = await page.evaluate((id) => {
      const m = /translate\(([-\d.]+)px, ?([-\d.]+)px\)/.exec((document.querySelector(`.react-flow__node[data-id="${id}"]`) as HTMLElement).style.transform)!;
      return { x: Number(m[1]), y: Number(m[2]) };
    }, added);
    expect(Math.abs(position.x - dropAt.x)).toBeLessThan(24);
    expect(Math.abs(position.y - dropAt.y)).toBeLessThan(24);
  }, 30_000);

  test("the shortcut help opens with ? and closes with Escape", async () => {
    const { page } = env.b;
    await page.locator(".react-flow__pane").click({ position: { x: 5, y: 5 } });
    await page.keyboard.press("?");
    const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await help.waitFor();
    await expect(help.textContent()).resolves.toContain("Ctrl+Shift+Z");
    await page.keyboard.press("Escape");
    await help.waitFor({ state: "detached" });
    expect(env.b.errors).toEqual([]);
  }, 30_000);

  test("http_request: the form's fields and 'send test request' answered through the server", async () => {
    const { page } = env.b;
    const echo = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: async (req) => Response.json({ got: req.method, auth: req.headers.get("authorization"), body: await req.text() }, { status: 201 }) });
    try {
      await page.locator('.ed-palette-item[data-type="http_request"]').click();
      const props = page.getByRole("complementary", { name: "Properties" });
      await props.getByLabel("Method").selectOption("POST");
      await props.getByLabel("URL", { exact: true }).fill(`http://127.0.0.1:${echo.port}/hook`);
      // the node's own field: its variables are whole URLs (docs/nodes/data.md)
      await props.getByLabel("Variables as written").check();
      await props.getByLabel("Body").fill('{"hello":"{first_name}"}');
      await props.getByLabel("Authorization").selectOption("bearer");
      await props.getByLabel("Bearer token").fill("secret-1");
      await props.getByRole("button", { name: "Send test request" }).click();
      await expect(props.getByTestId("http-status").textContent()).resolves.toContain("201");
      const shown = JSON.parse((await props.locator(".ed-http-answer pre").textContent())!);
      expect(shown).toEqual({ got: "POST", auth: "Bearer secret-1", body: '{"hello":"{first_name}"}' });
      await props.getByLabel("JSON", { exact: true }).check();
      expect(JSON.parse(await props.locator("textarea").inputValue())).toMatchObject({ httpRequestUrlRaw: true });
      await props.getByLabel("JSON", { exact: true }).uncheck();
    } finally {
      echo.stop(true);
    }
  }, 30_000);

  test("hostile scenario data opens without a page error: odd shapes, markup in texts and types, a huge text", async () => {
    const { page } = env.b;
    const hostile = {
      sheets: [
        {
          id: "h",
          name: "<b>sheet</b>",
          nodes: [
            { id: "x1", type: "<img src=x onerror=alert(1)>", position: { x: 0, y: 0 }, data: { messageText: "<script>window.__pwned=1</script>" } },
            { id: "x2", type: "message", position: { x: "a", y: null }, data: { messageText: "{".repeat(500) + "y".repeat(100_000), buttons: "nope", keyboardLayout: 5 } },
            { id: "x3", type: "condition", data: { branches: [null, 7, { id: { no: 1 }, target: 5 }], defaultTargetId: ["x1"] } },
            { id: "x4", type: "message", position: { x: 0, y: 0 }, data: { buttons: [{ id: "__proto__", text: { t: 1 }, target: "x1" }], autoTransitionTo: "missing" } },
            { id: "x5", type: "set_variable", position: { x: 0, y: 0 }, data: { assignments: "all" } },
          ],
          edges: "not a list",
        },
      ],
    };
    const id = await newProject(env, "Hostile", hostile);
    const before = (await env.t.call("GET", `/api/projects/${id}`, { cookie: env.cookie })).body.data;
    await openEditor(page, env.base, id);
    await page.waitForFunction(() => document.querySelectorAll(".ed-node").length === 5, undefined, { timeout: 15_000 });
    expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined();
    expect(await page.locator("img[src=x]").count()).toBe(0);
    await pick(page, "x2");
    await page.getByRole("complementary", { name: "Properties" }).getByRole("checkbox", { name: "JSON" }).check();
    await page.getByRole("complementary", { name: "Properties" }).getByRole("checkbox", { name: "JSON" }).uncheck();
    await page.keyboard.press("Control+s");
    await page.getByTestId("save-status").filter({ hasText: /^Saved$/ }).waitFor({ timeout: 15_000 });
    const after = (await env.t.call("GET", `/api/projects/${id}`, { cookie: env.cookie })).body.data;
    const data = (d: any) => d.sheets[0].nodes.map((n: any) => [n.id, n.type, n.data]);
    expect(data(after)).toEqual(data(before));
    expect(env.b.errors).toEqual([]);
  }, 60_000);
});
