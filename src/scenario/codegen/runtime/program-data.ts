// What a generated program defines before its interpreter (codegen/program.ts writes it: the
// settings, the scenario tables, the project database's DDL) and what a runner's createBot takes
// from its tables instead. Declarations only, for the type checker: this file is never part of the
// text a bot runs, and importing it at run time yields nothing.
import type { CallbackTriggerDef, CommandDef, ScenarioNode, TextTriggerDef } from "./tables";
import type { MessageTriggerDef, ScheduleDef } from "./action-tables";
import type { BotTables } from "./hosted-types";

export declare const OPTIONS: BotTables["options"];
/** Media already uploaded to the messenger: URL or path → file id. */
export declare const MEDIA_CACHE: Record<string, string>;
export declare const NODES: ScenarioNode[];
export declare const COMMANDS: CommandDef[];
export declare const TEXT_TRIGGERS: TextTriggerDef[];
export declare const CALLBACK_TRIGGERS: CallbackTriggerDef[];
export declare const MESSAGE_TRIGGERS: MessageTriggerDef[];
export declare const SCHEDULES: ScheduleDef[];
export declare const PROJECT_DB_DDL: string[];
