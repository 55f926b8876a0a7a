// Everything a module needs, built once by main.ts (or by a test) and handed to createApp.
import type { Config } from "./config";
import type { Db } from "./db/client";
import type { ProjectDatabases } from "./db/project-db";
import type { Logger } from "./log";
import type { EventBus } from "./events";
import type { MessengerClient } from "./messenger/client";
import type { BotController } from "./bots/controller";
import type { SettingsService } from "./modules/settings/service";
import type { AuthService } from "./modules/auth/service";
import type { ProjectAccess } from "./modules/projects/access";
import type { ProjectsService } from "./modules/projects/service";
import type { TokensService } from "./modules/tokens/service";
import type { StorageRegistry } from "./modules/storage/registry";
import type { StorageConfigService } from "./modules/storage/service";
import type { MediaService } from "./modules/media/service";
import type { BackupService } from "./modules/backups/service";
import type { PreviewService } from "./modules/preview/service";
import type { SendPace } from "./messenger/send-pace";
import type { CampaignSender } from "./modules/campaigns/sender";

export interface AppState {
  /** System templates seeded into the catalog (health.templates). */
  templatesLoaded: boolean;
  /** Where this server answers on loopback once it listens (bots fetch object-store media there). */
  localUrl: string | null;
  /**
   * Settles once `serve` has begun resuming the bots of the last run (they count as starting from
   * then on); absent where nothing resumes bots (tests, other commands).
   */
  resumeBegun?: Promise<void>;
}

export interface AppContext {
  config: Config;
  db: Db;
  /** Each project's own database file (bot users, chat state, media file ids, content mirror). */
  projectFiles: ProjectDatabases;
  log: Logger;
  events: EventBus;
  messenger: MessengerClient;
  /** Each token's one send pace: campaigns and operators' sends share it (docs/campaigns.md#one-pace-per-token). */
  sendPace: SendPace;
  bots: BotController;
  settings: SettingsService;
  auth: AuthService;
  access: ProjectAccess;
  /** Project operations for every module (bot API, templates): create, update, delete, ... */
  projects: ProjectsService;
  tokens: TokensService;
  /** Storage backends loaded from the configs (reloaded after every change). */
  storage: StorageRegistry;
  storageConfigs: StorageConfigService;
  media: MediaService;
  /** Backup archives in DATA_DIR/backups (the schedule itself runs only in `serve`). */
  backups: BackupService;
  /** Preview sessions of the Studio (a throwaway bot against the in-product emulator). */
  preview: PreviewService;
  /** Campaigns being sent, scheduled, paused or resumed (the schedule and resume run only in `serve`). */
  campaigns: CampaignSender;
  /**
   * Run before a project row is deleted (docs/api.md#project-rules rule 3): features that keep data outside
   * the database (media objects, bot folders) register here. Rows go with the project (FK cascade).
   */
  projectDeleteHooks: ((projectId: number) => Promise<void>)[];
  state: AppState;
}
