// The runtime as the text a bot loads. Its files (runtime/*.ts) are real modules: the type checker,
// editors and `duplicates` read them. In a program they share one scope instead, so each file's
// text is taken from its first section line ("// ─── …"): the imports and declarations above
// that line exist for the type checker only; `export` goes too. Bun embeds text imports (in the
// compiled binary as well); tsc does not model text imports of .ts files, hence one directive each.
// docs/runtime.md says how a runtime file is written.
// @ts-expect-error TS1192: the default export of a text import is the file's text
import tablesSource from "./runtime/tables.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import logicTablesSource from "./runtime/logic-tables.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import actionTablesSource from "./runtime/action-tables.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import typesSource from "./runtime/types.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import hostedTypesSource from "./runtime/hosted-types.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import sqlGuardSource from "./runtime/sql-guard.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import connectionSource from "./runtime/connection.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import scenarioFileSource from "./runtime/scenario-file.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import egressSource from "./runtime/egress.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import secretFormsSource from "./runtime/secret-forms.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import storageSource from "./runtime/storage.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import httpSource from "./runtime/http.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import valuesSource from "./runtime/values.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import exprSource from "./runtime/expr.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import conditionsSource from "./runtime/conditions.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import assignSource from "./runtime/assign.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import messagesSource from "./runtime/messages.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import callbacksSource from "./runtime/callbacks.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import controlSource from "./runtime/control.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import dataSource from "./runtime/data.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import flowSource from "./runtime/flow.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import routerSource from "./runtime/router.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import sendsSource from "./runtime/sends.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import actionsSource from "./runtime/actions.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import paceSource from "./runtime/pace.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import broadcastSource from "./runtime/broadcast.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import updateKindsSource from "./runtime/update-kinds.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import triggersSource from "./runtime/triggers.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import paymentsSource from "./runtime/payments.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import waitsSource from "./runtime/waits.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import messageFileSource from "./runtime/message-file.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import recordFieldsSource from "./runtime/record-fields.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import recordSource from "./runtime/record.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import sendersSource from "./runtime/senders.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import platformCommandsSource from "./runtime/platform-commands.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import aiSource from "./runtime/ai.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import pgSource from "./runtime/pg.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import pgGuardSource from "./runtime/pg-guard.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import analyticsSource from "./runtime/analytics.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import analyticsBackfillSource from "./runtime/analytics-backfill.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import launchSource from "./runtime/launch.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import previewSource from "./runtime/preview.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import hostedSource from "./runtime/hosted.ts" with { type: "text" };
// @ts-expect-error TS1192: as above
import outboxSource from "./runtime/outbox.ts" with { type: "text" };

const SECTION = "// ─── ";

/** A runtime file's code: from its first section line (or the section `from` names) up to the section `to` names. */
function code(source: string, opts: { from?: string; to?: string; keepExports?: boolean } = {}): string {
  const start = source.indexOf("\n" + SECTION + (opts.from ?? "")) + 1;
  const end = opts.to === undefined ? source.length : source.indexOf("\n" + SECTION + opts.to);
  if (start === 0 || end === -1) throw new Error("a runtime file lost the section line it is cut at");
  const text = source.slice(start, end);
  return (opts.keepExports ? text : text.replace(/^export /gm, "")).trim();
}

/** launch.ts holds two parts: what every bot runs (contentCache, start) and the program's own end. */
const LAUNCH_SECTION = "The program on its own";

/** The node and trigger shapes (tables.ts, logic-tables.ts, action-tables.ts). */
export const RUNTIME_TABLES = [tablesSource, logicTablesSource, actionTablesSource].map((s: string) => code(s)).join("\n\n");
/** Per-chat state (types.ts). */
export const RUNTIME_TYPES = code(typesSource);
/** What a runner gives and takes of each bot, exported by the runners' interpreter (hosted-types.ts). */
export const RUNTIME_HOSTED_TYPES = code(hostedTypesSource, { keepExports: true });
/** The guards for scenario SQL and the file it runs on (sql-guard.ts, connection.ts, scenario-file.ts, pg-guard.ts for an external PostgreSQL). */
export const RUNTIME_SQL_GUARD = [sqlGuardSource, connectionSource, scenarioFileSource, pgGuardSource].map((s: string) => code(s)).join("\n\n");
/** The egress policy of http_request and the secret masker; the server runs this text too (lib/shared-runtime.ts). */
export const RUNTIME_EGRESS = [egressSource, secretFormsSource].map((s: string) => code(s)).join("\n\n");
/** Variables and templates with their expressions; the server renders campaign texts with this text too (lib/shared-render.ts). */
export const RUNTIME_RENDER = [valuesSource, exprSource].map((s: string) => code(s)).join("\n\n");
/** The update kinds a scenario asks for, the file of a message and the token's shared send pace (with the connection helpers it uses); the server runs this text too (lib/shared-runtime.ts). */
export const RUNTIME_SHARED_PURE = [updateKindsSource, messageFileSource, connectionSource, paceSource].map((s: string) => code(s)).join("\n\n");
/** The interpreter, in the order of the program: every part but the preview hooks and the end. */
export const RUNTIME_BODY = [
  storageSource,
  httpSource,
  valuesSource,
  exprSource,
  conditionsSource,
  assignSource,
  messagesSource,
  callbacksSource,
  controlSource,
  dataSource,
  flowSource,
  routerSource,
  sendsSource,
  actionsSource,
  paceSource,
  broadcastSource,
  updateKindsSource,
  triggersSource,
  paymentsSource,
  waitsSource,
  messageFileSource,
  recordFieldsSource,
  recordSource,
  sendersSource,
  platformCommandsSource,
  aiSource,
  pgSource,
  analyticsSource,
  analyticsBackfillSource,
].map((s: string) => code(s));
/** What every bot runs of launch.ts: contentCache and the start. */
export const RUNTIME_CONTENT = code(launchSource, { to: LAUNCH_SECTION });
/** The end of a program on its own: its output in batches, signals, shutdown, main(). */
export const RUNTIME_LAUNCH = [code(outboxSource), code(launchSource, { from: LAUNCH_SECTION })].join("\n\n");
/** The same batching as a module of its own, written beside a shared runner's main.ts. */
export const RUNNER_OUTBOX_MODULE = code(outboxSource, { keepExports: true });
/** Only in programs built for the Studio's preview chat. */
export const RUNTIME_PREVIEW = code(previewSource);
/** The end of a bot hosted by a runner (its createBot returns startHosted and shutdown). */
export const RUNTIME_HOSTED = code(hostedSource);
