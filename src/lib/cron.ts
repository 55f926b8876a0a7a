// croner for the server's own code, from its CommonJS build: the ES module file is embedded as
// text for the bots (src/bots/bot-modules.ts), and the bundler cannot load one file both as text
// and as code (the executable's build failed with "No matching export ... for import default").
export { Cron } from "../../node_modules/croner/dist/croner.cjs";
