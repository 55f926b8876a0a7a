// Shapes of the preview API (docs/preview.md): what a preview user can do in the chat.
import { z } from "zod";
import { BUTTON_STYLES } from "../../lib/button-url";

/** An unsaved scenario document travels as JSON; the generator validates it like a saved one. */
const document = z.unknown().refine((v) => v !== null && typeof v === "object" && !Array.isArray(v), { error: "document must be a scenario object" });

export const createPreviewSchema = z.object({ document: document.optional() });
/** A template's try-it session takes nothing: the template is the scenario. */
export const templatePreviewSchema = z.strictObject({}).optional();
export const documentSchema = z.object({ document });

const caption = z.string().max(1024).optional();
/** Base64 of the file; 5 MB of bytes at most (the emulator keeps files in memory). */
const base64 = z.string().max(7_000_000).regex(/^[A-Za-z0-9+/=\s]*$/, { error: "data must be base64" });
const fileName = z.string().min(1).max(128).regex(/^[^/\\\0]+$/, { error: "fileName must be a plain file name" });

export const actionSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: z.string().min(1).max(4096) }),
  z.object({ type: z.literal("button"), messageId: z.number().int().positive(), data: z.string().min(1).max(64) }),
  z.object({ type: z.literal("photo"), caption, fileName: fileName.optional(), data: base64.optional() }),
  z.object({ type: z.literal("document"), caption, fileName, mimeType: z.string().max(100).optional(), data: base64 }),
  z.object({ type: z.literal("location"), latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) }),
  z.object({ type: z.literal("contact"), phone: z.string().min(3).max(32).regex(/^\+?[0-9 ()-]+$/, { error: "phone must be digits" }) }),
  /** a reply keyboard's request_poll button: the user sends a poll with this question */
  z.object({ type: z.literal("poll"), question: z.string().min(1).max(300) }),
  /** an emoji reaction on a message of the chat */
  z.object({ type: z.literal("reaction"), messageId: z.number().int().positive(), emoji: z.string().min(1).max(16).regex(/^\p{Extended_Pictographic}/u, { error: "emoji must be an emoji" }) }),
  /** the preview user asks to join the preview group, or joins it */
  z.object({ type: z.literal("join_request") }),
  /** Pay on an invoice of the bot (the preview's Stars are free) */
  z.object({ type: z.literal("pay"), messageId: z.number().int().positive() }),
  z.object({ type: z.literal("join_group") }),
  /** the preview user leaves the preview group, or is made one of its administrators (chat_member) */
  z.object({ type: z.literal("leave_group") }),
  z.object({ type: z.literal("promote") }),
  /** a reply keyboard's Mini App sends its data back (web_app_data) */
  z.object({ type: z.literal("web_app_data"), buttonText: z.string().min(1).max(64), data: z.string().max(4096) }),
]);

export const PREVIEW_USERS = ["user", "admin", "second"] as const;
export type PreviewUserKey = (typeof PREVIEW_USERS)[number];

export const actorSchema = z.object({ user: z.enum(PREVIEW_USERS), chat: z.enum(["private", "group"]) });

/** A hook's body as the preview fires it (docs/hooks.md "In the preview"): any JSON object. */
export const previewHookSchema = z.record(z.string(), z.unknown());

export const variablesSchema = z.object({
  variables: z.record(z.string().min(1).max(128), z.unknown()).refine((v) => Object.keys(v).length <= 500, {
    error: "at most 500 variables",
  }),
});

export type PreviewAction = z.infer<typeof actionSchema>;
export type PreviewActor = z.infer<typeof actorSchema>;

// What the preview answers (OpenAPI only; the service is typed by these, so they cannot drift).
const int = z.number().int();
const style = z.enum(BUTTON_STYLES).optional();
const webApp = z.object({ url: z.string() }).optional();
const inlineButtonSchema = z
  .object({ text: z.string(), callback_data: z.string().optional(), url: z.string().optional(), web_app: webApp, copy_text: z.object({ text: z.string() }).optional(), style })
  .catchall(z.unknown());
const replyButtonSchema = z
  .object({
    text: z.string(),
    request_contact: z.boolean().optional(),
    request_location: z.boolean().optional(),
    request_poll: z.object({ type: z.string().optional() }).optional(),
    web_app: webApp,
    style,
  })
  .catchall(z.unknown());

export const transcriptEntrySchema = z.object({
  seq: int,
  /** `service`: a line of the chat itself, not a bubble (a payment made: `payment`) */
  kind: z.enum(["message", "service", "notice"]),
  chatId: int,
  messageId: int.optional(),
  from: z.enum(["bot", "user"]),
  userId: int.optional().describe("the preview user who sent a `user` message or made a payment (users[].id of the session view): the chat tells the viewer's own messages from other members"),
  text: z.string().optional(),
  source: z.object({ text: z.string(), parseMode: z.string() }).optional(),
  media: z.object({ kind: z.string(), fileId: z.string(), fileName: z.string().optional(), mimeType: z.string().optional(), url: z.string().optional() }).optional(),
  mediaGroupId: z.string().optional(),
  location: z.object({ latitude: z.number(), longitude: z.number() }).optional(),
  /**
   * a bot's invoice in Stars: the chat shows a Pay button until it is paid (the bot confirmed a
   * checkout); `pending` from a Pay until the bot answers; a refused checkout leaves the bot's
   * `refusal`, one the bot left unanswered past Telegram's wait `expired`
   */
  invoice: z.object({ amount: int, paid: z.boolean(), pending: z.boolean(), refusal: z.string().optional(), expired: z.boolean().optional() }).optional(),
  contact: z.object({ phone_number: z.string(), first_name: z.string() }).optional(),
  /** a service entry's payment: the user paid the bot this (successful_payment, once the bot confirmed the checkout) */
  payment: z.object({ amount: int, currency: z.string() }).optional(),
  /** the bot's reply_markup as it sent it */
  replyMarkup: z.object({ inline_keyboard: z.array(z.array(inlineButtonSchema)).optional() }).catchall(z.unknown()).optional(),
  node: z.string().optional(),
  forwarded: z.boolean().optional(),
  edits: int,
  deleted: z.boolean(),
  pinned: z.boolean(),
  at: z.number(),
  v: int,
});

const previewStatus = z.enum(["starting", "running", "error", "stopped"]);

export const previewViewSchema = z.object({
  id: z.string(),
  projectId: int,
  status: previewStatus,
  error: z.string().nullable(),
  warnings: z.array(z.string()),
  bot: z.object({ id: int, username: z.string(), firstName: z.string() }),
  actor: z.object({ user: z.enum(PREVIEW_USERS), chat: z.enum(["private", "group"]), userId: int, chatId: int }),
  users: z.array(z.object({ key: z.enum(PREVIEW_USERS), id: int, firstName: z.string(), lastName: z.string().nullable(), admin: z.boolean() })),
  groupChatId: int,
  commands: z.array(z.object({ command: z.string(), description: z.string() })),
  idleTimeoutSeconds: int,
});
export type PreviewView = z.output<typeof previewViewSchema>;

export const previewTranscriptSchema = z.object({
  version: int,
  status: previewStatus,
  error: z.string().nullable(),
  chatId: int,
  typing: z.boolean(),
  replyKeyboard: z.object({ rows: z.array(z.array(z.union([z.string(), replyButtonSchema]))), oneTime: z.boolean(), resize: z.boolean() }).nullable(),
  pinned: z.array(int),
  entries: z.array(transcriptEntrySchema),
});
export type PreviewTranscript = z.output<typeof previewTranscriptSchema>;
