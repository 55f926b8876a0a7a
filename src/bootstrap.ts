// Wires the AppContext from a Config: database, logger, services. Shared by the CLI and tests.
import type { Config } from "./config";
import type { AppContext } from "./context";
import { openDatabase, type Db } from "./db/client";
import { ProjectDatabases } from "./db/project-db";
import { moveBotRowsToProjectFiles } from "./db/project-migrate";
import { createLogger, registerSecret, type Logger } from "./log";
import { EventBus } from "./events";
import { MessengerClient } from "./messenger/client";
import { SettingsService } from "./modules/settings/service";
import { AuthService } from "./modules/auth/service";
import { ProjectAccess } from "./modules/projects/access";
import { ProjectsService } from "./modules/projects/service";
import { TokensService } from "./modules/tokens/service";
import { removeProjectAvatars } from "./modules/tokens/photos";
import { localRootRules } from "./modules/storage/local-root";
import { StorageRegistry } from "./modules/storage/registry";
import { StorageConfigService } from "./modules/storage/service";
import { MediaService } from "./modules/media/service";
import { BackupService } from "./modules/backups/service";
import { PreviewService } from "./modules/preview/service";
import { projectFileLedger, SendPace } from "./messenger/send-pace";
import { CampaignSender } from "./modules/campaigns/sender";
import { CampaignsService } from "./modules/campaigns/service";
import { loadBuiltInTemplates } from "./modules/templates/seed";
import type { BotController } from "./bots/controller";
import { BotManager } from "./bots/manager";
import type { SupervisionPolicy } from "./bots/policy";
import { removeBotFolders, repointLegacyEnvFiles } from "./bots/folders";
import { projectMediaDir } from "./bots/program";
import { useBackgroundCpus } from "./lib/priority";

/** `logsOffThread`: the server's own context, whose bots' log lines are written from the log thread (src/bots/log-thread.ts). */
export function buildContext(config: Config, opts: { db?: Db; log?: Logger; bots?: BotController; botPolicy?: SupervisionPolicy; logsOffThread?: boolean } = {}): AppContext {
  registerSecret(config.adminKey);
  registerSecret(config.sessionSecret);
  registerSecret(config.storageEncryptionKey);
  const log = opts.log ?? createLogger(config.logLevel);
  useBackgroundCpus(config.backgroundCpus);
  const db = opts.db ?? openDatabase(config.databasePath);
  const projectFiles = new ProjectDatabases(config.dataDir, (projectId, dropped) =>
    log.warn(`Project ${projectId}: its file held a schema Botloom did not write; dropped ${dropped.map((e) => `${e.type} ${JSON.stringify(e.name)}`).join(", ")}`),
  );
  // Older installs kept bot users and chat state in the platform database: move them once.
  const moved = moveBotRowsToProjectFiles(db, projectFiles);
  const repointed = repointLegacyEnvFiles(config.botsDir, config.databasePath, (id) => ({ database: projectFiles.pathOf(id), media: projectMediaDir(config.uploadsDir, id) }));
  if (repointed.length > 0) log.info(`Bot folders of an older version now name their project's database, not the platform's: ${repointed.length}`);
  if (moved.projects > 0) log.info(`Moved the bot data of ${moved.projects} project(s) into their own database files (${moved.users} users, ${moved.states} chats, ${moved.fileIds} media file ids)`);
  const messenger = new MessengerClient({ apiRoot: config.messengerApiRoot });
  const events = new EventBus();
  const state = { templatesLoaded: false, localUrl: null as string | null };
  const ctx: AppContext = {
    config,
    db,
    projectFiles,
    log,
    events,
    messenger,
    // the pace is shared with the token's bot through its project file (docs/campaigns.md#one-pace-per-token)
    sendPace: new SendPace(
      undefined,
      projectFileLedger((tokenId) => {
        const token = ctx.tokens?.access.find(tokenId);
        return token ? projectFiles.existing(token.projectId)?.$client : undefined;
      }),
    ),
    bots: opts.bots ?? new BotManager({ config, db, log, messenger, events, projectFiles, platformUrl: () => state.localUrl, logsFile: opts.logsOffThread ? config.databasePath : undefined }, opts.botPolicy),
    settings: new SettingsService(db, messenger),
    auth: new AuthService(db, config.sessionSecret),
    access: new ProjectAccess(db),
    // Services that need the context itself are set right below.
    projects: undefined as unknown as ProjectsService,
    tokens: undefined as unknown as TokensService,
    storage: new StorageRegistry(db, config.storageEncryptionKey, config.uploadsDir, log, localRootRules(config)),
    storageConfigs: undefined as unknown as StorageConfigService,
    media: undefined as unknown as MediaService,
    backups: undefined as unknown as BackupService,
    preview: undefined as unknown as PreviewService,
    campaigns: undefined as unknown as CampaignSender,
    projectDeleteHooks: [],
    state,
  };
  // Accounts stored before the admin search column existed get it filled once.
  ctx.auth.backfillSearchText();
  ctx.projects = new ProjectsService(ctx);
  ctx.tokens = new TokensService(ctx);
  ctx.storageConfigs = new StorageConfigService(ctx, ctx.storage);
  ctx.media = new MediaService(ctx, ctx.storage);
  ctx.backups = new BackupService(config, () => db.$client, log, ctx.storage);
  ctx.preview = new PreviewService(ctx);
  ctx.campaigns = new CampaignSender(ctx);
  const campaigns = new CampaignsService(ctx);
  ctx.campaigns.startScheduled = (projectId, c) => campaigns.startScheduled(projectId, c);
  events.on("campaign-created", ({ projectId, campaignId }) => ctx.campaigns.run(projectId, campaignId));
  // Files outside the database go with their project (rows go by FK cascade): media objects,
  // downloaded avatars, and bot folders (they keep the token in .env; the bots are stopped first).
  ctx.projectDeleteHooks.push((projectId) => ctx.campaigns.forgetProject(projectId));
  ctx.projectDeleteHooks.push((projectId) => ctx.media.deleteProjectObjects(projectId));
  ctx.projectDeleteHooks.push(async (projectId) => removeProjectAvatars(config.uploadsDir, projectId));
  ctx.projectDeleteHooks.push(async (projectId) => removeBotFolders(config.botsDir, { projectId }));
  // The project file goes last: its bots are stopped by then.
  ctx.projectDeleteHooks.push(async (projectId) => projectFiles.remove(projectId));
  // contentCache bots read the scenario from their project's file, so each saved change is mirrored there.
  events.on("bot:table_updated", ({ projectId }) => {
    const row = ctx.projects.contentOf(projectId);
    if (row) projectFiles.writeContent(projectId, row.data, row.updatedAt);
  });
  loadBuiltInTemplates(ctx);
  return ctx;
}
