// Saving: explicit save with a commit message, debounced autosave, optimistic concurrency (409 →
// the user keeps theirs or loads the other copy) and the live event that someone else saved.
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError, errorText, get, put } from "../api/client";
import { useProjectEvents } from "../api/events";
import { normalizeDoc, type Doc } from "./document";
import { toSaved, useEditor, type EditorStore } from "./store";

export interface ProjectRecord {
  id: number;
  name: string;
  data: unknown;
  updatedAt: string;
}

export type SaveStatus = "idle" | "saving" | "saved" | "error";

export const AUTOSAVE_MS = 2000;

const pref = (k: string, dflt: boolean) => {
  const v = localStorage.getItem(`botloom.editor.${k}`);
  return v === null ? dflt : v === "1";
};

export function useSave(store: EditorStore, projectId: number, initial: ProjectRecord, onSaved: () => void) {
  const { t } = useTranslation();
  const base = useRef(initial.updatedAt);
  /** the document as the server holds it (for "did the transitions of this sheet change") */
  const stored = useRef<Doc>(store.state.saved);
  const saving = useRef(false);
  /**
   * An explicit save asked for while another save was on its way: it runs next, with its commit
   * message. "Keep mine" names the other copy's version as its base; that holds unless the save on
   * its way was stored (then this copy is the newest and names its own).
   */
  const queued = useRef<{ commitMessage: string; overrideBase?: string; baseThen: string } | null>(null);
  const latestSave = useRef<(commitMessage?: string, overrideBase?: string) => Promise<void>>(async () => {});
  const doc = useEditor(store, (s) => s.doc);
  const saved = useEditor(store, (s) => s.saved);
  const [status, setStatus] = useState<SaveStatus>("idle");
  const [error, setError] = useState("");
  const [conflict, setConflict] = useState<ProjectRecord | null>(null);
  const [remote, setRemote] = useState<ProjectRecord | null>(null);
  const [autosave, setAutosaveState] = useState(() => pref("autosave", true));
  const [restart, setRestartState] = useState(() => pref("restart", false));
  const dirty = doc !== saved;

  const setAutosave = (v: boolean) => {
    localStorage.setItem("botloom.editor.autosave", v ? "1" : "0");
    setAutosaveState(v);
  };
  const setRestart = (v: boolean) => {
    localStorage.setItem("botloom.editor.restart", v ? "1" : "0");
    setRestartState(v);
  };

  /**
   * `commitMessage` undefined: an autosave (unnamed; the server merges a person's autosaves). A
   * string, even empty: an explicit save, always a named version (docs/editor.md "Versions").
   */
  const save = useCallback(
    async (commitMessage?: string, overrideBase?: string) => {
      if (saving.current) {
        // Save pressed while an autosave is on its way is not lost: it runs once that one has
        // answered, with the edits made since and its commit message (a named version).
        if (commitMessage !== undefined) queued.current = { commitMessage, overrideBase, baseThen: base.current };
        return;
      }
      saving.current = true;
      setStatus("saving");
      const sent = store.state.doc;
      const data = toSaved(sent, stored.current, store.state.sheetId);
      try {
        const r = await put<ProjectRecord>(`/api/projects/${projectId}`, {
          data,
          commitMessage: commitMessage === undefined ? undefined : commitMessage.trim() || t("editor.save.named"),
          baseUpdatedAt: overrideBase ?? base.current,
          restartOnUpdate: restart,
        });
        base.current = r.updatedAt;
        stored.current = data;
        store.markSaved(sent);
        setConflict(null);
        setRemote(null);
        setStatus("saved");
        setError("");
        onSaved();
      } catch (e) {
        if (e instanceof ApiError && e.status === 409 && (e.body as any)?.current) {
          setConflict((e.body as any).current as ProjectRecord);
          setStatus("idle");
        } else {
          setStatus("error");
          setError(errorText(e));
        }
      } finally {
        saving.current = false;
        const next = queued.current;
        queued.current = null;
        if (next !== null) void latestSave.current(next.commitMessage, base.current === next.baseThen ? next.overrideBase : undefined);
      }
    },
    [projectId, restart, store, onSaved, t],
  );
  latestSave.current = save;

  /** Loads another copy (theirs) as the document; the history starts anew. */
  const adopt = useCallback(
    (rec: ProjectRecord) => {
      const next = normalizeDoc(rec.data);
      base.current = rec.updatedAt;
      stored.current = next;
      store.load(next);
      setConflict(null);
      setRemote(null);
      setStatus("idle");
    },
    [store],
  );

  const keepMine = useCallback(() => {
    if (conflict) void save("", conflict.updatedAt);
  }, [conflict, save]);

  useEffect(() => {
    if (!autosave || !dirty || conflict || status === "saving") return;
    const timer = setTimeout(() => void save(), AUTOSAVE_MS);
    return () => clearTimeout(timer);
  }, [autosave, dirty, conflict, doc, save, status]);

  useProjectEvents((e) => {
    if (e.event !== "projects-changed" || e.projectId !== projectId || e.kind !== "updated" || saving.current) return;
    void get<ProjectRecord>(`/api/projects/${projectId}`)
      .then((rec) => {
        if (rec.updatedAt !== base.current && !saving.current) setRemote(rec);
      })
      .catch(() => undefined);
  });

  return { status, error, dirty, conflict, remote, autosave, restart, setAutosave, setRestart, save, adopt, keepMine, dismissRemote: () => setRemote(null) };
}
