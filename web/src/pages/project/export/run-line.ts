// The command that gives an exported bot.ts its packages: the ones the appliance embeds for its own
// bots (BOT_MODULES in src/bots/bot-modules.ts; test/studio/export-run-line.test.ts keeps them equal).
export const BOT_PACKAGES = ["grammy", "croner", "jsep"] as const;
export const INSTALL_LINE = `bun add ${BOT_PACKAGES.join(" ")}`;
