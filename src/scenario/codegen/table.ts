// The compiled scenario: what the generator writes into the bot as data tables. The row shapes are
// declared once, in runtime/tables.ts, whose text is also the type part of every generated program.
import type { MessageTriggerDef, ScheduleDef } from "./runtime/action-tables";
import type { CallbackTriggerDef, CommandDef, ScenarioNode, TextTriggerDef } from "./runtime/tables";

export type {
  AssignMode,
  AssignmentDef,
  ButtonDef,
  CallbackTriggerDef,
  CollectDef,
  CommandDef,
  ConditionNode,
  DeepLinkDef,
  DelayNode,
  DynamicDef,
  Format,
  InputNode,
  KeyboardDef,
  MediaDef,
  MediaKind,
  MessageNode,
  Operator,
  SetNode,
  TextTriggerDef,
  ValidationDef,
  VariantDef,
} from "./runtime/tables";

/** A row of the node table (`ScenarioNode` in the generated program; model.ts has its own). */
export type TableNode = ScenarioNode;

/** A table row with what a human reader of the generated file needs to find it in the editor. */
export interface TableEntry {
  node: TableNode;
  sourceType: string;
  sheet: string;
}

export interface CompiledScenario {
  nodes: TableEntry[];
  commands: CommandDef[];
  textTriggers: TextTriggerDef[];
  callbackTriggers: CallbackTriggerDef[];
  messageTriggers: MessageTriggerDef[];
  schedules: ScheduleDef[];
  /** nodes of a type the bot does not run, left out, for the header comment */
  skipped: { id: string; type: string }[];
}
