// Open live-event sockets per user. The projects service decides the recipients of each
// `projects-changed` event; the hub only delivers to the sockets of those users.
import type { EventMap } from "../../events";

export interface EventSocket {
  send(data: string): unknown;
}

export class SocketHub {
  private readonly byUser = new Map<number, Set<EventSocket>>();

  add(userId: number, socket: EventSocket) {
    let set = this.byUser.get(userId);
    if (!set) this.byUser.set(userId, (set = new Set()));
    set.add(socket);
  }

  remove(userId: number, socket: EventSocket) {
    const set = this.byUser.get(userId);
    if (!set) return;
    set.delete(socket);
    if (set.size === 0) this.byUser.delete(userId);
  }

  deliver(e: EventMap["projects-changed"]) {
    this.send(e.recipients, { event: "projects-changed", kind: e.kind, projectId: e.projectId });
  }

  /**
   * `recipients` may be a function: it is called only when some socket is open, since finding a
   * project's team costs two queries and a bot's every message emits an event (bench/health-under-load.ts).
   */
  send(recipients: Iterable<number> | (() => Iterable<number>), event: Record<string, unknown>) {
    if (this.byUser.size === 0) return;
    const message = JSON.stringify(event);
    if (typeof recipients === "function") recipients = recipients();
    for (const userId of new Set(recipients)) {
      for (const socket of this.byUser.get(userId) ?? []) {
        try {
          socket.send(message);
        } catch {
          // a socket closing right now; its close handler removes it
        }
      }
    }
  }
}
