import versionFile from "../assets/version.json";

export interface VersionInfo {
  version: string;
  releasedAt: string;
  notesUrl: string | null;
}

export const VERSION: VersionInfo = versionFile as VersionInfo;
