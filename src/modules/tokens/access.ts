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

  /** 404 unknown token; 403 no access to its project (403 also for a non-owner with `ownerOnly`). */
  require(tokenId: number, userId: number, opts: { ownerOnly?: boolean } = {}): { token: TokenRow; role: ProjectRole } {
    const token = this.find(tokenId);
    if (!token) throw notFound("Bot token not found");
    const role = this.ctx.access.require(token.projectId, userId, { ownerOnly: opts.ownerOnly });
    return { token, role };
  }
}
