// Where a `local` storage config may keep its files (issue 12): an absolute folder inside the
// allowed base (STORAGE_LOCAL_BASE, by default UPLOADS_DIR's parent), never the platform's own
// folders. Checked on create and update (400), and again before the test or an upload touches the
// disk, so a row written before the rule (or a base changed since) never makes the server create
// folders elsewhere. The nearest existing ancestor is resolved with realpath: a symlink inside the
// base that leads out of it counts as outside.
import { existsSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve } from "node:path";
import type { Config } from "../../config";

export interface LocalRootRules {
  /** Absolute folder every local root must lie in. */
  base: string;
  /** Folders a root may neither lie in nor contain (DATA_DIR, BOTS_DIR). */
  reserved: string[];
}

const inside = (parent: string, child: string) => {
  const rel = relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
};

function realOfNearest(path: string): string {
  let p = path;
  while (!existsSync(p)) {
    const up = dirname(p);
    if (up === p) return p;
    p = up;
  }
  try {
    return resolve(realpathSync(p), relative(p, path));
  } catch {
    return path;
  }
}

/** Why `rootPath` may not be used, or null when it may. The message never says whether a path exists. */
export function localRootProblem(rootPath: string, rules: LocalRootRules): string | null {
  if (!isAbsolute(rootPath)) return "config.rootPath must be an absolute path";
  const root = resolve(rootPath);
  const base = resolve(rules.base);
  const outside = `config.rootPath must be a folder inside ${base} (the server's STORAGE_LOCAL_BASE)`;
  if (root === base || !inside(base, root)) return outside;
  const realBase = realOfNearest(base);
  const realRoot = realOfNearest(root);
  if (realRoot === realBase || !inside(realBase, realRoot)) return outside;
  for (const r of rules.reserved.map((x) => resolve(x))) {
    for (const [a, b] of [[root, r], [realRoot, realOfNearest(r)]]) {
      if (inside(b, a) || inside(a, b)) return "config.rootPath must not be or contain the server's data or bots folder";
    }
  }
  return null;
}

export const localRootRules = (config: Config): LocalRootRules => ({ base: config.storageLocalBase, reserved: [config.dataDir, config.botsDir] });
