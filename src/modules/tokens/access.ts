// Token-scoped endpoints (tokens, env variables, bot users) all start the same way: find the token,
// then apply the project access rule of the token's project. One prepared query on that path.
import type { AppContext } from "../../context";
import { notFound } from "../../errors";
import type { ProjectRole } from "../projects/access";
import { tokenStatements, type TokenRow } from "./queries";

export type { TokenRow };

export class TokenAccess {
  private readonly q;

  constructor(private readonly ctx: AppContext) {
    this.q = tokenStatements(ctx.db);
  }

  find(tokenId: number): TokenRow | undefined {
    return this.q.byId.get({ id: tokenId });
  }

  /**
   * 404 unknown token; 403 no access to its project (403 also for a non-owner with `ownerOnly`).
   * With `hideForbidden`, no access is 404 as well, as if the token did not exist: the Audience paths'
   * rule (docs/api.md "Access to a token's audience"), so a stranger cannot tell others' token ids.
   */
  require(tokenId: number, userId: number, opts: { ownerOnly?: boolean; hideForbidden?: boolean } = {}): { token: TokenRow; role: ProjectRole } {
    const token = this.find(tokenId);
    if (!token) throw notFound("Bot token not found");
    const role = this.ctx.access.require(token.projectId, userId, { ownerOnly: opts.ownerOnly, hideForbidden: opts.hideForbidden, notFound: opts.hideForbidden ? "Bot token not found" : undefined });
    return { token, role };
  }
}
