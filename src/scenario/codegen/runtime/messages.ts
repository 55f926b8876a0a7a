// Runtime source, part 4: keyboards, media and sending a message node.
// (Part of every generated bot; see types.ts.)
import { GrammyError, InlineKeyboard, InputFile, Keyboard } from "grammy";
import { closeSync, constants as fsConstants, lstatSync, openSync, readFileSync, realpathSync } from "node:fs";
import { resolve as resolvePath, sep as pathSep } from "node:path";
import { KEYBOARD_LIMIT, callbackFor, dynamicRows, selectionLabel } from "./callbacks";
import { fileUpload } from "./control";
import { log } from "./flow";
import { MEDIA_CACHE, NODES, OPTIONS } from "./program-data";
import { lazyStatements } from "./connection";
import { PROJECT_ID, TOKEN_ID, db, env } from "./storage";
import type { Format, InputNode, KeyboardDef, MediaDef, MediaKind, MessageNode } from "./tables";
import type { Turn } from "./types";
import { cut, evaluate, readVar, render, toText, variantHolds } from "./values";

// ─── Keyboards ─────────────────────────────────────────────────────────────────

export type Markup = InlineKeyboard | Keyboard | { remove_keyboard: true };

/** Inline buttons carry "g:<node index>:<variant>:<button index>": short, under the 64-byte limit. */
export const callbackData = (index: number, variant: number, button: number) =>
  "g:" + index + ":" + variant + ":" + button;

export function buildKeyboard(turn: Turn, index: number, variant: number, kb: KeyboardDef): { markup: Markup; texts: string[] } | undefined {
  const texts = kb.buttons.map((b) => render(turn, b.text));
  if (kb.kind === "inline") {
    const owner = { node: NODES[index].id, variant };
    const rows = kb.rows.map((row) => row.filter((i) => texts[i] !== "" && shows(turn, kb.buttons[i])).map((i) => {
      const b = kb.buttons[i];
      const face = { text: texts[i], style: b.style };
      if (b.action === "web_app") return InlineKeyboard.webApp(face, render(turn, b.url!));
      if (b.action === "copy_text") return InlineKeyboard.copyText(face, copyTextOf(turn, b));
      const url = b.action === "url" && b.url ? render(turn, b.url) : "";
      if (url) return InlineKeyboard.url(face, url);
      const label = b.action === "selection" ? selectionLabel(turn, owner, kb, texts[i]) : texts[i];
      const code = callbackData(index, variant, i);
      const own = b.data !== undefined ? render(turn, b.data).trim() : "";
      return InlineKeyboard.text({ text: label, style: b.style }, own ? callbackFor(turn, own, code) : code);
    }));
    const fixed = rows.reduce((n, row) => n + row.length, 0);
    if (kb.dynamic) rows.splice(kb.dynamic.at, 0, ...dynamicRows(turn, kb.dynamic, Math.max(0, KEYBOARD_LIMIT - fixed)));
    const shown = rows.filter((row) => row.length > 0);
    return shown.length > 0 ? { markup: new InlineKeyboard(shown), texts } : undefined;
  }
  // Reply buttons are matched by the text on screen: selection buttons show their checkmark there.
  const owner = { node: NODES[index].id, variant };
  const shownTexts = kb.buttons.map((b, i) => (b.action === "selection" && texts[i] !== "" ? selectionLabel(turn, owner, kb, texts[i]) : texts[i]));
  const rows = kb.rows
    .map((row) => row.filter((i) => texts[i] !== "" && shows(turn, kb.buttons[i])).map((i) => {
      const b = kb.buttons[i];
      const face = { text: texts[i], style: b.style };
      if (b.action === "contact") return Keyboard.requestContact(face);
      if (b.action === "location") return Keyboard.requestLocation(face);
      if (b.action === "poll") return Keyboard.requestPoll(face, b.value as "quiz" | "regular" | undefined);
      if (b.action === "web_app") return Keyboard.webApp(face, render(turn, b.url!));
      // request_id only has to tell this keyboard's buttons apart in the answer.
      if (b.action === "managed_bot") return Keyboard.requestManagedBot(face, i + 1, { suggested_name: b.suggest?.name, suggested_username: b.suggest?.username });
      return Keyboard.text(shownTexts[i], b.style);
    }))
    .filter((row) => row.length > 0);
  if (rows.length === 0) return undefined;
  const markup = new Keyboard(rows);
  if (kb.oneTime) markup.oneTime();
  if (kb.resize) markup.resized();
  return { markup, texts: shownTexts };
}

/**
 * Buttons a filled-in value makes unsendable are left out one by one (the log says why), since
 * Telegram refuses the whole message for one of them: a Mini App whose URL is not https, or any
 * Mini App outside a private chat (groups and channels have no Mini App buttons), and a copy button
 * that would copy nothing.
 */
export function shows(turn: Turn, b: KeyboardDef["buttons"][number]): boolean {
  if (b.action === "copy_text") {
    if (copyTextOf(turn, b) !== "") return true;
    log(turn, "copy button " + JSON.stringify(b.text) + " left out: it would copy nothing");
    return false;
  }
  if (b.action !== "web_app") return true;
  // Private chats have the user's positive id; groups and channels negative ones.
  if (turn.chatId < 0) {
    log(turn, "Mini App button " + JSON.stringify(b.text) + " left out: Telegram shows Mini App buttons only in private chats");
    return false;
  }
  const url = render(turn, b.url ?? "");
  if (/^https:\/\/[^\s\/]+/i.test(url) && !/\s/.test(url)) return true;
  log(turn, "Mini App button " + JSON.stringify(b.text) + " left out: its URL is not https");
  return false;
}

/** What a copy button copies: at most Telegram's 256 characters, never half of an emoji. */
export function copyTextOf(turn: Turn, b: KeyboardDef["buttons"][number]): string {
  return cut(render(turn, b.value ?? ""), 256);
}

// ─── Media ─────────────────────────────────────────────────────────────────────

/** file ids the messenger returned for media sent by URL or uploaded, reused for the next sends */
export const uploaded = new Map<string, string>();

/**
 * The platform's own media (/uploads/...) remembers this bot's file id in the project's database,
 * so the next start of this bot sends it by id (docs/api.md#project-rules rule 6). File ids belong to one bot.
 */
export const mediaSql = db && TOKEN_ID
  ? lazyStatements({
      remember: () => db!.prepare<unknown, [number, string, string]>("INSERT OR REPLACE INTO media_file_ids (token_id, media_url, file_id) VALUES (?, ?, ?)"),
    })
  : null;

export function persistFileId(key: string, fileId: string) {
  if (!key.startsWith("/uploads/") || !mediaSql) return;
  try {
    mediaSql.remember.run(TOKEN_ID, key, fileId);
  } catch (err) {
    console.error("could not remember the file id of " + key + ":", err);
  }
}

export function guessKind(hint: string): MediaKind {
  const s = hint.toLowerCase();
  if (/\.(jpe?g|png|gif|webp|bmp)(\?|$)/.test(s)) return "photo";
  if (/\.(mp4|mov|webm|mkv|avi)(\?|$)/.test(s)) return "video";
  if (/\.(mp3|ogg|oga|wav|m4a|flac)(\?|$)/.test(s)) return "audio";
  if (/\.[a-z0-9]{2,5}(\?|$)/.test(s) && /^(https?:)?\//.test(s)) return "document";
  if (/video|видео/.test(s)) return "video";
  if (/audio|voice|music|аудио/.test(s)) return "audio";
  if (/document|file|документ|файл/.test(s)) return "document";
  return "photo";
}

// Where media may come from (the same rule for a URL typed in the scenario and for a variable
// that expands into one, say {message_text}): an http(s) URL, a Bot API file id, the project's own
// media at /uploads/<PROJECT_ID>/... (read from MEDIA_DIR, or fetched from the platform when it is
// kept in a storage config), or a relative path inside MEDIA_DIR. Anything else - /etc/passwd,
// ../../data/botloom.db, another project's uploads, a symlink out of the folder - is refused.

/** The project's media folder (the platform sets it; a bot run on its own uses ./media). */
export const MEDIA_DIR = env.MEDIA_DIR || "media";
/** Bot API file ids: long, URL-safe base64. */
export const FILE_ID = /^[A-Za-z0-9_-]{8,}$/;

/** A regular file inside MEDIA_DIR reached without any symlink, or undefined. */
export function projectFile(relative: string): string | undefined {
  let root: string;
  try {
    root = realpathSync(MEDIA_DIR);
  } catch {
    return undefined; // no media folder: nothing local to send
  }
  const full = resolvePath(root, relative);
  if (!full.startsWith(root + pathSep)) return undefined;
  let at = root;
  try {
    for (const part of full.slice(root.length + 1).split(pathSep)) {
      at = at + pathSep + part;
      if (lstatSync(at).isSymbolicLink()) return undefined;
    }
    return lstatSync(full).isFile() ? full : undefined;
  } catch {
    return undefined; // missing
  }
}

/** Reads a checked file; O_NOFOLLOW refuses a symlink put in its place since the check. */
export function readProjectFile(file: string): Uint8Array {
  const fd = openSync(file, fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW);
  try {
    return new Uint8Array(readFileSync(fd));
  } finally {
    closeSync(fd);
  }
}

export type MediaOrigin = { file: string } | { platform: string } | { url: string } | { fileId: string };

/** Where a media value may be taken from, or undefined when the rule above refuses it. */
export function mediaOrigin(value: string): MediaOrigin | undefined {
  if (/^https?:\/\/[^\s]+$/i.test(value)) return { url: value };
  const own = PROJECT_ID > 0 ? String(PROJECT_ID) + "/" : undefined;
  const stored = /^\/uploads\/s\/([a-z0-9][a-z0-9-]{0,62})\/(.+)$/.exec(value);
  if (stored) {
    const key = stored[2];
    // Keys the platform generates use these characters only; "%2e%2e" would become ".." in the URL.
    const safe = own !== undefined && key.startsWith(own) && /^[A-Za-z0-9._\/-]+$/.test(key) && !key.split("/").some((p) => p === ".." || p === "." || p === "");
    return safe && env.PLATFORM_URL ? { platform: value } : undefined;
  }
  if (value.startsWith("/uploads/")) {
    const key = value.slice("/uploads/".length);
    if (own === undefined || !key.startsWith(own)) return undefined;
    const file = projectFile(key.slice(own.length));
    return file ? { file } : undefined;
  }
  if (value.startsWith("/") || value.includes("\\") || value.includes(String.fromCharCode(0))) return undefined;
  if (value.startsWith("./") || value.startsWith("../") || value.includes("/")) {
    const file = projectFile(value);
    return file ? { file } : undefined;
  }
  return FILE_ID.test(value) ? { fileId: value } : undefined;
}

export function resolveMedia(turn: Turn, m: MediaDef): { kind: MediaKind; key: string; source: string | InputFile; upload: boolean } | undefined {
  const generated = fileUpload(m.variable !== undefined ? readVar(turn, m.variable) : evaluate(turn, m.url ?? ""));
  if (generated) return { kind: m.kind === "auto" ? "document" : m.kind, key: "", source: generated, upload: false };
  const value = m.variable !== undefined ? toText(readVar(turn, m.variable)).trim() : render(turn, m.url ?? "").trim();
  if (!value) return undefined; // e.g. a photo variable the user never filled
  let kind = m.kind;
  if (kind === "auto") {
    const seen = m.variable && turn.state.mediaKinds && Object.hasOwn(turn.state.mediaKinds, m.variable) ? turn.state.mediaKinds[m.variable] : undefined;
    kind = seen || guessKind(value + " " + (m.variable ?? ""));
  }
  const cached = (Object.hasOwn(MEDIA_CACHE, value) ? MEDIA_CACHE[value] : undefined) ?? uploaded.get(value);
  if (cached) return { kind, key: value, source: cached, upload: false };
  const origin = mediaOrigin(value);
  if (!origin) {
    console.error("media refused (not an http(s) URL, a file id or a file of this project): " + JSON.stringify(value.slice(0, 80)));
    return undefined;
  }
  if ("url" in origin) return { kind, key: value, source: origin.url, upload: true };
  // Bytes, not a path: the grammY build inside the appliance (web) cannot open paths, and bytes
  // stay reusable when a send is retried without formatting.
  if ("file" in origin) return { kind, key: value, source: new InputFile(readProjectFile(origin.file), origin.file.split(pathSep).pop()), upload: true };
  // Media in an object store: the platform serves it at the same /uploads path.
  if ("platform" in origin) return { kind, key: value, source: new InputFile(new URL(env.PLATFORM_URL + origin.platform)), upload: true };
  return { kind, key: value, source: origin.fileId, upload: false };
}

// ─── Sending ───────────────────────────────────────────────────────────────────

export const PARSE_MODE = { html: "HTML", markdown: "Markdown", text: undefined } as const;
export const CAPTION_LIMIT = 1024;

export function sendOptions(format: Format) {
  return { parse_mode: PARSE_MODE[format], protect_content: OPTIONS.protectContent ? true : undefined };
}

/** Sends once more without formatting when the messenger cannot parse the author's markup. */
export async function withPlainFallback<T>(format: Format, send: (format: Format) => Promise<T>): Promise<T> {
  try {
    return await send(format);
  } catch (err) {
    if (format !== "text" && err instanceof GrammyError && /parse entities/i.test(err.description)) {
      console.error("formatting rejected by the messenger, sending as plain text: " + err.description);
      return await send("text");
    }
    throw err;
  }
}

export type Sent = { photo?: { file_id: string }[]; video?: { file_id: string }; audio?: { file_id: string }; document?: { file_id: string } };
export type MediaItem = NonNullable<ReturnType<typeof resolveMedia>>;

export function rememberUpload(item: MediaItem, sent: Sent) {
  if (!item.upload || uploaded.has(item.key)) return;
  const id = sent.photo?.[sent.photo.length - 1]?.file_id ?? sent.video?.file_id ?? sent.audio?.file_id ?? sent.document?.file_id;
  if (!id) return;
  uploaded.set(item.key, id);
  persistFileId(item.key, id);
}

export async function sendMedia(turn: Turn, item: MediaItem, caption: string, format: Format, markup?: Markup) {
  const api = turn.ctx.api;
  const sent = await withPlainFallback(format, (f): Promise<Sent> => {
    const options = { ...sendOptions(f), caption: caption || undefined, reply_markup: markup };
    switch (item.kind) {
      case "photo": return api.sendPhoto(turn.chatId, item.source, options);
      case "video": return api.sendVideo(turn.chatId, item.source, options);
      case "audio": return api.sendAudio(turn.chatId, item.source, options);
      case "document": return api.sendDocument(turn.chatId, item.source, options);
    }
  });
  rememberUpload(item, sent);
}

/**
 * Several media: albums of up to 10, because the messenger groups photos with videos but audio
 * and documents only with their own kind. The caption goes on the very first item.
 */
export async function sendAlbums(turn: Turn, items: MediaItem[], caption: string, format: Format) {
  const families = [
    items.filter((m) => m.kind === "photo" || m.kind === "video"),
    items.filter((m) => m.kind === "audio"),
    items.filter((m) => m.kind === "document"),
  ];
  let captionLeft = caption.slice(0, CAPTION_LIMIT);
  const protect = { protect_content: OPTIONS.protectContent ? true : undefined };
  for (const family of families) {
    for (let i = 0; i < family.length; i += 10) {
      const chunk = family.slice(i, i + 10);
      const first = captionLeft;
      captionLeft = "";
      if (chunk.length === 1) {
        await sendMedia(turn, chunk[0], first, format);
        continue;
      }
      const sent = await withPlainFallback(format, (f) => {
        const common = (j: number) => ({ caption: j === 0 && first ? first : undefined, parse_mode: PARSE_MODE[f] });
        const kind = chunk[0].kind;
        if (kind === "audio") {
          return turn.ctx.api.sendMediaGroup(turn.chatId, chunk.map((m, j) => ({ type: "audio" as const, media: m.source, ...common(j) })), protect);
        }
        if (kind === "document") {
          return turn.ctx.api.sendMediaGroup(turn.chatId, chunk.map((m, j) => ({ type: "document" as const, media: m.source, ...common(j) })), protect);
        }
        return turn.ctx.api.sendMediaGroup(
          turn.chatId,
          chunk.map((m, j) => ({ type: m.kind === "video" ? ("video" as const) : ("photo" as const), media: m.source, ...common(j) })),
          protect,
        );
      });
      chunk.forEach((m, j) => sent[j] && rememberUpload(m, sent[j] as Sent));
    }
  }
}

export async function sendText(turn: Turn, text: string, format: Format, markup?: Markup, noPreview?: true) {
  log(turn, "sent " + JSON.stringify(text));
  await withPlainFallback(format, (f) =>
    turn.ctx.api.sendMessage(turn.chatId, text, {
      ...sendOptions(f),
      link_preview_options: noPreview ? { is_disabled: true } : undefined,
      reply_markup: markup,
    }),
  );
}

/** An input node's own question (its inputPrompt and buttons); flow.ts go() decides when. */
export async function askQuestion(turn: Turn, index: number, node: InputNode) {
  const ask = node.ask!;
  const built = ask.keyboard ? buildKeyboard(turn, index, 0, ask.keyboard) : undefined;
  await sendText(turn, render(turn, ask.text, ask.format), ask.format, built?.markup);
  if (built && ask.keyboard?.kind === "reply") turn.state.keyboard = { node: node.id, variant: 0, texts: built.texts };
}

/** The first conditional message whose check holds (they are ordered by priority), or 0. */
export function pickVariant(turn: Turn, node: MessageNode): number {
  const list = node.variants ?? [];
  for (let i = 0; i < list.length; i++) if (variantHolds(turn, list[i])) return i + 1;
  return 0;
}

/**
 * Sends a message node: text (variables substituted) with its keyboard and media. One media item
 * carries the text as caption when it fits; several go as an album followed by the text.
 */
export async function showMessage(turn: Turn, index: number, node: MessageNode) {
  const variant = pickVariant(turn, node);
  const v = variant > 0 ? node.variants![variant - 1] : undefined;
  const format = v?.text !== undefined ? v.format ?? node.format : node.format;
  const text = render(turn, v?.text ?? node.text, format);
  const caption = node.caption !== undefined ? render(turn, node.caption, format) : undefined;
  const kb = v ? v.keyboard : node.keyboard;
  const built = kb ? buildKeyboard(turn, index, variant, kb) : undefined;
  const markup: Markup | undefined = built?.markup ?? (node.removeKeyboard ? { remove_keyboard: true } : undefined);
  const media = (node.media ?? []).map((m) => resolveMedia(turn, m)).filter((m) => m !== undefined);
  const hasText = text.trim() !== "";

  if (media.length === 1) {
    const own = caption ?? (hasText && text.length <= CAPTION_LIMIT ? text : "");
    const textAfter = hasText && own !== text;
    await sendMedia(turn, media[0], own.slice(0, CAPTION_LIMIT), format, textAfter ? undefined : markup);
    if (textAfter) await sendText(turn, text, format, markup, node.noPreview);
  } else if (media.length > 1) {
    await sendAlbums(turn, media, caption ?? "", format);
    if (hasText || markup) await sendText(turn, hasText ? text : "⬆️", format, markup, node.noPreview);
  } else if (hasText) {
    await sendText(turn, text, format, markup, node.noPreview);
  } else {
    console.error("node " + node.id + " has nothing to send (empty text, no media)");
  }

  // What the user now sees and what the bot waits for.
  if (built && kb?.kind === "reply") turn.state.keyboard = { node: node.id, variant, texts: built.texts };
  else if (node.removeKeyboard) turn.state.keyboard = undefined;
  if ((v?.collect ?? node.collect) !== undefined) turn.state.waiting = { node: node.id, variant };
  if (node.saveIdTo && turn.state.lastBot !== undefined) turn.state.vars[node.saveIdTo] = turn.state.lastBot;
}
