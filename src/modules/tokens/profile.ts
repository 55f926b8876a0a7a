// The bot's own profile from the Bots tab (docs/api.md "Bot profile"): name, descriptions and the
// scenario's menu commands, set on the messenger with the token (never shown). The commands are the
// ones the bot registers itself when it starts, compiled from the saved scenario.
import type { AppContext } from "../../context";
import { badRequest } from "../../errors";
import { runtimeStatements } from "../../bots/queries";
import { compileBotTables } from "../../scenario";
import type { BotProfile, BotProfileAnswer } from "./model";

/** What setMyCommands gets: the scenario's menu commands that everyone may use. */
export function menuCommands(data: string, projectName: string): { command: string; description: string }[] {
  let doc: unknown;
  try {
    doc = JSON.parse(data);
  } catch {
    throw badRequest("The project's scenario cannot be read");
  }
  const { tables } = compileBotTables(doc, { projectName, userDatabaseEnabled: false });
  return tables.commands.filter((c) => c.menu && !c.adminOnly).map((c) => ({ command: c.command, description: c.description }));
}

export async function setBotProfile(ctx: AppContext, tokenId: number, userId: number, input: BotProfile): Promise<BotProfileAnswer> {
  const { token } = ctx.tokens.access.require(tokenId, userId);
  const applied: BotProfileAnswer["applied"] = [];
  // Commands first: compiling can refuse the scenario before anything is changed.
  let commands: { command: string; description: string }[] | undefined;
  if (input.commands) {
    const project = runtimeStatements(ctx.db).project.get({ projectId: token.projectId });
    commands = menuCommands(project?.data ?? "{}", project?.name ?? "");
  }
  const m = ctx.messenger;
  const lang = input.languageCode || undefined;
  if (input.name !== undefined) {
    await m.setMyName(token.token, input.name, lang);
    applied.push("setMyName");
  }
  if (input.description !== undefined) {
    await m.setMyDescription(token.token, input.description, lang);
    applied.push("setMyDescription");
  }
  if (input.shortDescription !== undefined) {
    await m.setMyShortDescription(token.token, input.shortDescription, lang);
    applied.push("setMyShortDescription");
  }
  if (commands) {
    await m.setMyCommands(token.token, commands, lang);
    applied.push("setMyCommands");
  }
  return { applied };
}

/** Telegram's limit for a bot's photo upload. */
export const PROFILE_PHOTO_MAX_BYTES = 5 * 1024 * 1024;

/** Sets (a JPEG, read only after the access check) or removes (null) the bot's profile photo. */
export async function setBotPhoto(ctx: AppContext, tokenId: number, userId: number, read: (() => Promise<File>) | null): Promise<{ success: true }> {
  const { token } = ctx.tokens.access.require(tokenId, userId);
  if (read === null) {
    await ctx.messenger.removeMyProfilePhoto(token.token);
    return { success: true };
  }
  const file = await read();
  if (file.size > PROFILE_PHOTO_MAX_BYTES) throw badRequest("The photo is over 5 MB");
  const head = new Uint8Array(await file.slice(0, 3).arrayBuffer());
  if (!(head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff)) throw badRequest("The bot's photo must be a JPEG image");
  await ctx.messenger.setMyProfilePhoto(token.token, file);
  return { success: true };
}
