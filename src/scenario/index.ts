// The scenario engine: document model, validation and bot generation.
export { countNodes, documentSchema, normalizeDocument, type ScenarioDocument } from "./model";
export { validateScenario, type Issue, type ValidationResult } from "./validate";
export { compileBotTables, generateBot, renderInterpreter, RUNNER_OUTBOX_MODULE, type BotTables, type GenerateOptions, type GeneratedBot } from "./codegen";
