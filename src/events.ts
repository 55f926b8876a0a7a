// In-process notifications between modules. `projects-changed` feeds the WebSocket live events;
// `bot:table_updated` is what docs/api.md calls the cache channel (bots with contentCache reload, the
// runtime restarts bots with restartOnUpdate).
import { EventEmitter } from "node:events";

export type ProjectsChangedKind = "created" | "deleted" | "reordered" | "updated";

export interface EventMap {
  "projects-changed": { kind: ProjectsChangedKind; projectId: number; recipients: number[] };
  "bot:table_updated": { projectId: number; restartOnUpdate: boolean };
  /** a message recorded in a token's chat (docs/dialogs.md): the project's members are told live */
  "chat-message": { projectId: number; tokenId: number; chatId: string; messageId: number };
  /** a bot's broadcast node wrote a campaign for the server to send (docs/campaigns.md#the-broadcast-node) */
  "campaign-created": { projectId: number; tokenId: number; campaignId: number };
  /** a campaign's status and counts (docs/campaigns.md): at least every 2 s while it is sent */
  campaign: { projectId: number; tokenId: number; campaignId: number; status: string; counts: { pending: number; sent: number; failed: number; blocked: number } };
}

export class EventBus {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  emit<K extends keyof EventMap>(event: K, payload: EventMap[K]) {
    this.emitter.emit(event, payload);
  }

  on<K extends keyof EventMap>(event: K, listener: (payload: EventMap[K]) => void): () => void {
    this.emitter.on(event, listener);
    return () => this.emitter.off(event, listener);
  }
}
