// Open live-event sockets per user. The projects service decides the recipients of each
// `projects-changed` event; the hub only delivers to the sockets of those users.
import type { EventMap } from "../../events";

export interface EventSocket {
  send(data: string): unknown;
  close(code?: number, reason?: string): unknown;
}

/** Whether the credential a socket was opened with still names its user (false after logout, revocation, deletion). */
export type StillValid = () => boolean;

export class SocketHub {
  private readonly byUser = new Map<number, Map<EventSocket, StillValid>>();

  add(userId: number, socket: EventSocket, stillValid: StillValid = () => true) {
    let sockets = this.byUser.get(userId);
    if (!sockets) this.byUser.set(userId, (sockets = new Map()));
    sockets.set(socket, stillValid);
  }

  remove(userId: number, socket: EventSocket) {
    const sockets = this.byUser.get(userId);
    if (!sockets) return;
    sockets.delete(socket);
    if (sockets.size === 0) this.byUser.delete(userId);
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
      for (const [socket, stillValid] of this.byUser.get(userId) ?? []) {
        // A socket outlives the request that opened it: once its session is logged out (or its
        // PAT revoked, its user deleted) it gets nothing more and is closed (docs/security.md).
        if (!stillValid()) {
          this.remove(userId, socket);
          try {
            socket.close(4401, "credentials no longer valid");
          } catch {}
          continue;
        }
        try {
          socket.send(message);
        } catch {
          // a socket closing right now; its close handler removes it
        }
      }
    }
  }
}
