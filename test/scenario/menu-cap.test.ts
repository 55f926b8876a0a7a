// Telegram's setMyCommands refuses a menu of more than 100 commands whole: the compiled menu keeps
// the first 100 for everyone and as many in an admin's own menu, the rest still answer when typed.
import { expect, test } from "bun:test";
import { compileBotTables } from "../../src/scenario";
import { MENU_MAX } from "../../src/scenario/codegen/compile";

const trigger = (i: number, adminOnly = false) => ({
  id: `c${i}`,
  type: "command_trigger",
  position: { x: 0, y: i * 10 },
  data: { command: `/cmd${i}`, description: `Command ${i}`, showInMenu: true, adminOnly, autoTransitionTo: "reply" },
});
const scenario = (nodes: unknown[]) => ({ version: 2, sheets: [{ id: "s", name: "Main", nodes: [...nodes, { id: "reply", type: "message", position: { x: 400, y: 0 }, data: { messageText: "ok" } }], edges: [] }] });

const cases: { name: string; everyone: number; admins: number; shown: [number, number]; warned: string | null }[] = [
  { name: "exactly 100 for everyone: all shown, no warning", everyone: 100, admins: 0, shown: [100, 0], warned: null },
  { name: "105 for everyone: the first 100 shown", everyone: 105, admins: 0, shown: [100, 0], warned: "5 (from /cmd100 on)" },
  { name: "98 for everyone and 5 admin-only: an admin's menu holds the first 2 of theirs", everyone: 98, admins: 5, shown: [98, 2], warned: "3 (from /cmd100 on)" },
];

for (const c of cases) {
  test(c.name, () => {
    const nodes = [...Array.from({ length: c.everyone }, (_, i) => trigger(i)), ...Array.from({ length: c.admins }, (_, i) => trigger(c.everyone + i, true))];
    const { tables, warnings } = compileBotTables(scenario(nodes), { projectName: "Menu", userDatabaseEnabled: false });
    const menu = tables.commands.filter((x) => x.menu);
    expect([menu.filter((x) => !x.adminOnly).length, menu.filter((x) => x.adminOnly).length]).toEqual(c.shown);
    expect(menu.filter((x) => !x.adminOnly).length + menu.filter((x) => x.adminOnly).length).toBeLessThanOrEqual(MENU_MAX);
    // every command still answers
    expect(tables.commands.length).toBe(c.everyone + c.admins);
    const warning = warnings.find((w) => w.message.includes("command menu holds at most"));
    if (c.warned === null) expect(warning).toBeUndefined();
    else expect(warning?.message).toContain(c.warned);
  });
}
