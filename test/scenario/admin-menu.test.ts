// Admin-only commands are not advertised to everyone: the public menu leaves them out, and each
// admin's private chat gets a menu that includes them.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { doc, node, startBot, type BotProcess } from "./harness";

let fake: FakeMessenger;
let b: BotProcess;
beforeAll(async () => {
  fake = await startFakeMessenger();
  b = await startBot(
    fake,
    doc(
      node("help", "command_trigger", { command: "/help", description: "Help", showInMenu: true, autoTransitionTo: "text" }),
      node("stats", "command_trigger", { command: "/stats", description: "Statistics", showInMenu: true, adminOnly: true, autoTransitionTo: "text" }),
      node("text", "message", { messageText: "ok" }),
    ),
    { env: { ADMIN_IDS: "777, 888,not-an-id" } },
  );
});
afterAll(async () => {
  await b?.stop();
  await fake.stop();
});

test("public menu without admin commands; each admin gets both", async () => {
  await fake.waitForCall(b.bot.token, (c) => c.method === "setMyCommands" && c.params.scope?.chat_id === 888);
  const calls = fake.calls(b.bot.token, "setMyCommands");
  const publicMenu = calls.find((c) => !c.params.scope)!;
  expect(publicMenu.params.commands).toEqual([{ command: "help", description: "Help" }]);
  const scoped = calls.filter((c) => c.params.scope).map((c) => [c.params.scope, c.params.commands.map((x: any) => x.command)]);
  expect(scoped).toEqual([
    [{ type: "chat", chat_id: 777 }, ["help", "stats"]],
    [{ type: "chat", chat_id: 888 }, ["help", "stats"]],
  ]);
});
