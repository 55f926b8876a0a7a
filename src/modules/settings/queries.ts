// Platform settings rows (app_settings): one JSON value per section key.
import type { Db } from "../../db/client";
import { appSettings } from "../../db/schema";

export function allSettings(db: Db): { key: string; value: string }[] {
  return db.select({ key: appSettings.key, value: appSettings.value }).from(appSettings).all();
}

/** Writes the given sections in one transaction. */
export function putSettings(db: Db, sections: [key: string, value: unknown][]) {
  db.transaction((tx) => {
    for (const [key, value] of sections) {
      tx.insert(appSettings)
        .values({ key, value: JSON.stringify(value) })
        .onConflictDoUpdate({ target: appSettings.key, set: { value: JSON.stringify(value), updatedAt: new Date().toISOString() } })
        .run();
    }
  });
}
