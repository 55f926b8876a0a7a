// Who takes part in a preview chat: three fixed users and one group (docs/preview.md). Kept apart
// from the session so the preview service can describe a session without loading the emulator.
import type { FakeUser } from "../../emulator/bot-api/types";
import type { PreviewUserKey } from "./model";

/** The throwaway people of a preview; "admin" is the only id in the preview bot's ADMIN_IDS. */
export const PREVIEW_PEOPLE: Record<PreviewUserKey, FakeUser> = {
  user: { id: 7_000_000_101, first_name: "Preview", last_name: "User", username: "preview_user", language_code: "en" },
  admin: { id: 7_000_000_102, first_name: "Preview", last_name: "Admin", username: "preview_admin", language_code: "en" },
  second: { id: 7_000_000_103, first_name: "Second", last_name: "User", username: "second_user", language_code: "en" },
};
/** A supergroup (Telegram ids below -10^12), so restrict/mute scenarios work in it too. */
export const PREVIEW_GROUP_ID = -1_007_000_000_200;
