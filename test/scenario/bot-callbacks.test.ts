// Executes a generated bot: dynamic buttons from a list in a variable (placed at __dynamic__),
// the scenario's own callback data (customCallbackData, long data through the lookup table),
// callback_trigger (exact, prefix, parse template), incoming_callback_trigger (pattern, save-as,
// strip prefix, catch-all) and multi-select keyboards.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { callbackScenario as scenario, LONG_ID } from "./fixtures-messaging";
import { Chat, inlineData, inlineRows, removeDir, replyRows, startBot, type BotProcess } from "./harness";

let fake: FakeMessenger;
let b: BotProcess;

beforeAll(async () => {
  fake = await startFakeMessenger();
  b = await startBot(fake, scenario, { generate: { enableLogging: !!process.env.DEBUG_BOT } });
});

afterAll(async () => {
  if (process.env.DEBUG_BOT) console.log(b?.output());
  await b?.stop();
  if (b) removeDir(b.dir);
  await fake?.stop();
});

describe("dynamic buttons and the scenario's own callback data", () => {
  test("one button per list item at __dynamic__, in columns, with the template's data", async () => {
    const chat = new Chat(b);
    const [list] = await chat.say("/start");
    expect(list.params.text).toBe("Your projects");
    expect(inlineRows(list)).toEqual([["Top"], ["📁 Alpha", "📁 Beta"], ["📁 Gamma", "📁 Long"], ["➕ New"], ["Help", "Mine"]]);
    expect(inlineData(list, "📁 Alpha")).toBe("project_1");
    expect(inlineData(list, "Help")).toBe("help");
    expect(inlineData(list, "Mine")).toBe(`mine_${chat.user.id}`);
    // over 64 bytes: a short key the bot resolves again
    expect(inlineData(list, "📁 Long")).toMatch(/^x:\d+$/);
    expect(inlineData(list, "➕ New")).toMatch(/^g:\d+:0:\d+$/);
  });

  test("incoming_callback_trigger: prefix match, saved without the prefix, button text known", async () => {
    const chat = new Chat(b);
    await chat.say("/start");
    const [card] = await chat.tap("📁 Beta");
    expect(card.params.text).toBe("Project 2 (project_2, 📁 Beta)");
    const answered = fake.calls(b.bot.token, "answerCallbackQuery");
    expect(answered.length).toBeGreaterThan(0);
  });

  test("long data goes through the lookup table and still reaches its trigger whole", async () => {
    const chat = new Chat(b);
    await chat.say("/start");
    const [card] = await chat.tap("📁 Long");
    expect(card.params.text).toBe(`Project ${LONG_ID} (project_${LONG_ID}, 📁 Long)`);
  });

  test("customCallbackData: a matching callback_trigger runs; otherwise the button's own target", async () => {
    const chat = new Chat(b);
    await chat.say("/start");
    expect((await chat.tap("Help"))[0].params.text).toBe("Help via trigger (help)");
    await chat.say("/start");
    expect((await chat.tap("Mine"))[0].params.text).toBe(`Own button: mine_${chat.user.id}`);
    await chat.say("/start");
    expect((await chat.tap("➕ New"))[0].params.text).toBe("New project");
  });

  test("callback_trigger prefix with a parse template stores the parts", async () => {
    const chat = new Chat(b);
    await chat.say("/shop");
    expect((await chat.tap("Buy 3 tea"))[0].params.text).toBe("Order tea × 3 (order_tea_3)");
  });

  test("a catch-all incoming_callback_trigger takes data nothing else handles", async () => {
    const chat = new Chat(b);
    await chat.say("/shop");
    expect((await chat.tap("Other"))[0].params.text).toBe("Caught: misc_1");
  });
});

describe("multi-select on a reply keyboard", () => {
  test("a selection button toggles: the bot says what changed and shows the keyboard with checkmarks; Done stores", async () => {
    const chat = new Chat(b);
    const [ask] = await chat.say("/sizes");
    expect(replyRows(ask)).toEqual([["S"], ["M"], ["Done"]]);
    const [picked] = await chat.say("M");
    expect(picked.params.text).toBe("✅ Selected: M");
    expect(replyRows(picked)).toEqual([["S"], ["✅ M"], ["Done"]]);
    const [both] = await chat.say("S");
    expect(replyRows(both)).toEqual([["✅ S"], ["✅ M"], ["Done"]]);
    const [removed] = await chat.say("✅ M");
    expect(removed.params.text).toBe("❌ Removed: M");
    expect(replyRows(removed)).toEqual([["✅ S"], ["M"], ["Done"]]);
    expect((await chat.say("Done"))[0].params.text).toBe("Sizes: S");
  });
});

describe("hostile lists", () => {
  test("a list longer than a keyboard holds is cut to the messenger's 100 buttons (logged); a non-list gives none", async () => {
    const chat = new Chat(b);
    const [many, few] = await chat.say("/many", 2);
    const count = (call: typeof many) => inlineRows(call).reduce((n, row) => n + row.length, 0);
    expect(many.params.text).toBe("Many");
    expect(count(many)).toBe(100);
    expect(inlineRows(many)[0]).toEqual(["#0", "#1", "#2", "#3", "#4"]);
    expect(few.params.text).toBe("Few");
    expect(inlineRows(few)).toEqual([["Top"]]);
    await b.waitForOutput(/dynamic buttons from many: 150 items, only 99 fit in one keyboard/, 3000);
  });
});

describe("keyboard nodes in a flow", () => {
  test("a condition leading to a keyboard node puts that keyboard on the message just sent", async () => {
    const chat = new Chat(b);
    const [page, kb] = await chat.say("/page", 2);
    expect(page.params.text).toBe("Page 1");
    expect(kb.method).toBe("editMessageReplyMarkup");
    expect(kb.params.message_id).toBe(page.messageId);
    expect(inlineRows(kb)).toEqual([["Next"]]);
    expect(inlineData(kb, "Next")).toBe("pg_2");
    expect((await chat.tap("Next"))[0].params.text).toBe("page 2");
  });
});

describe("multi-select", () => {
  test("selection buttons toggle checkmarks by editing the message; continue stores the choice", async () => {
    const chat = new Chat(b);
    const [ask] = await chat.say("/colors");
    expect(inlineRows(ask)).toEqual([["Red", "Green"], ["Blue"], ["Done"]]);
    const [edit1] = await chat.tap("Red");
    expect(edit1.method).toBe("editMessageReplyMarkup");
    expect(inlineRows(edit1)).toEqual([["✅ Red", "Green"], ["Blue"], ["Done"]]);
    const [edit2] = await chat.tap("Blue");
    expect(inlineRows(edit2)).toEqual([["✅ Red", "Green"], ["✅ Blue"], ["Done"]]);
    const [edit3] = await chat.tap("✅ Red");
    expect(inlineRows(edit3)).toEqual([["Red", "Green"], ["✅ Blue"], ["Done"]]);
    await chat.tap("Green");
    expect((await chat.tap("Done"))[0].params.text).toBe("Colors: Blue, Green");
    // shown again: the stored choice is checked
    const [again] = await chat.say("/colors");
    expect(inlineRows(again)).toEqual([["Red", "✅ Green"], ["✅ Blue"], ["Done"]]);
  });
});
