// Environment variables of a bot token. Secret values leave the server only twice: in the answer
// to their own creation and through the owner-only legacy reveal (docs/api.md#bot-manager-api-apibot).
import type { AppContext } from "../../context";
import { conflict, notFound } from "../../errors";
import type { TokenAccess } from "../tokens/access";
import { SECRET_MASK, type EnvCreate, type EnvPatch, type EnvVar } from "./model";
import { envStatements, updateEnvVar, type EnvChanges, type EnvRow } from "./queries";

const view = (r: EnvRow, masked: boolean): EnvVar => ({
  id: r.id,
  tokenId: r.tokenId,
  key: r.key,
  value: masked && r.isSecret ? SECRET_MASK : r.value,
  isSecret: r.isSecret,
});

const isUniqueViolation = (e: unknown) => /UNIQUE constraint failed/i.test(String((e as Error)?.message));

export class EnvVarsService {
  private readonly tokens: TokenAccess;
  private readonly q;

  constructor(private readonly ctx: AppContext) {
    this.tokens = ctx.tokens.access;
    this.q = envStatements(ctx.db);
  }

  /** 404 unknown variable; project access (owner only for reveal) decides 403. */
  private requireVar(id: number, userId: number, opts: { ownerOnly?: boolean } = {}): EnvRow {
    const r = this.q.withProject.get({ id });
    if (!r) throw notFound("Environment variable not found");
    this.ctx.access.require(r.projectId, userId, opts);
    return r.env;
  }

  private keyTaken(tokenId: number, key: string, exceptId?: number) {
    // ids start at 1: 0 excepts nothing
    return this.q.keyTaken.get({ tokenId, key, exceptId: exceptId ?? 0 }) !== undefined;
  }

  list(tokenId: number, userId: number): EnvVar[] {
    this.tokens.require(tokenId, userId);
    return this.q.list.all({ tokenId }).map((r) => view(r, true));
  }

  /** Answers the raw value: the caller just sent it. */
  create(tokenId: number, userId: number, input: EnvCreate): EnvVar {
    this.tokens.require(tokenId, userId);
    if (this.keyTaken(tokenId, input.key)) throw conflict(`Variable ${input.key} already exists for this token`);
    try {
      const row = this.q.insert.get({ tokenId, key: input.key, value: input.value ?? "", isSecret: input.isSecret ?? 0 })!;
      return view(row, false);
    } catch (e) {
      if (isUniqueViolation(e)) throw conflict(`Variable ${input.key} already exists for this token`);
      throw e;
    }
  }

  update(id: number, userId: number, patch: EnvPatch): EnvVar {
    // Unmasking a secret shows its value in every later list: owner-only, like reveal (issue 12).
    const unmasks = patch.isSecret === 0;
    const current = this.requireVar(id, userId);
    if (unmasks && current.isSecret) this.requireVar(id, userId, { ownerOnly: true });
    if (patch.key !== undefined && patch.key !== current.key && this.keyTaken(current.tokenId, patch.key, id)) {
      throw conflict(`Variable ${patch.key} already exists for this token`);
    }
    const set: EnvChanges = {};
    if (patch.key !== undefined) set.key = patch.key;
    if (patch.value !== undefined) set.value = patch.value;
    if (patch.isSecret !== undefined) set.isSecret = patch.isSecret;
    if (Object.keys(set).length === 0) return view(current, true);
    set.updatedAt = new Date().toISOString();
    try {
      const row = updateEnvVar(this.ctx.db, id, set);
      return view(row!, true);
    } catch (e) {
      if (isUniqueViolation(e)) throw conflict(`Variable ${patch.key} already exists for this token`);
      throw e;
    }
  }

  remove(id: number, userId: number) {
    this.requireVar(id, userId);
    this.q.remove.run({ id });
  }

  /** Legacy reveal: only the owner of the variable's project sees a secret again. */
  reveal(id: number, userId: number): { value: string } {
    return { value: this.requireVar(id, userId, { ownerOnly: true }).value };
  }
}
