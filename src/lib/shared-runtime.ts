// The parts of the bot runtime the server runs too: the egress policy (runtime/egress.ts), the
// secret masker (runtime/secret-forms.ts) — one policy and one masker for the platform and every
// bot (docs/security.md) — the update kinds a scenario asks for (runtime/update-kinds.ts), which
// the platform gives setWebhook as polling bots give getUpdates (docs/runtime.md "Update kinds"),
// the file a message carries (runtime/message-file.ts), recorded by the bot and the platform, closing
// a SQLite connection with its statements at once and statements prepared on first use
// (runtime/connection.ts closeNow, lazyStatements: src/db/prepared.ts), and the
// token's send pace in its project file (runtime/pace.ts: docs/campaigns.md#one-pace-per-token). The server runs the very text bots carry (runtime-text.ts): Bun's bundler
// cannot take one file both as a module and as a text import, and the binary needs the text.
// Only types are imported from the runtime files (erased), so they stay text-only in the bundle.
import { lookup } from "node:dns/promises";
import type * as Egress from "../scenario/codegen/runtime/egress";
import type * as Forms from "../scenario/codegen/runtime/secret-forms";
import type * as UpdateKinds from "../scenario/codegen/runtime/update-kinds";
import type * as MessageFile from "../scenario/codegen/runtime/message-file";
import type * as Pace from "../scenario/codegen/runtime/pace";
import type * as Connection from "../scenario/codegen/runtime/connection";
import { RUNTIME_EGRESS, RUNTIME_SHARED_PURE } from "../scenario/codegen/runtime-text";

const NAMES = ["EgressError", "egressFetch", "egressPolicy", "parseEgressAllow", "secretMasker", "secretIndex"] as const;
type Shared = Pick<typeof Egress, "EgressError" | "egressFetch" | "egressPolicy" | "parseEgressAllow"> & Pick<typeof Forms, "secretMasker" | "secretIndex">;

// The text's one import (program.ts IMPORTS) is its only parameter; everything else is a global.
const transpiler = new Bun.Transpiler({ loader: "ts" });
const shared = new Function("egressLookup", `${transpiler.transformSync(RUNTIME_EGRESS)}\nreturn { ${NAMES.join(", ")} };`)(lookup) as Shared;
const pure = new Function(`${transpiler.transformSync(RUNTIME_SHARED_PURE)}\nreturn { updatesAskedFor, messageFileId, reserveSendTime, holdSendTime, closeNow, lazyStatements };`)() as Pick<typeof UpdateKinds, "updatesAskedFor"> &
  Pick<typeof MessageFile, "messageFileId"> &
  Pick<typeof Pace, "reserveSendTime" | "holdSendTime"> &
  Pick<typeof Connection, "closeNow" | "lazyStatements">;

export const { updatesAskedFor, messageFileId, reserveSendTime, holdSendTime, closeNow, lazyStatements } = pure;

export const { EgressError, egressFetch, egressPolicy, parseEgressAllow, secretMasker, secretIndex } = shared;
export type EgressError = Egress.EgressError;
export type { EgressPolicy } from "../scenario/codegen/runtime/egress";
