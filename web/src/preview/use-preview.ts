// A preview session's life in the browser: started on mount (with the unsaved document when one
// is given), the transcript long-polled, the document sent again when it changes, stopped on unmount.
import { useCallback, useEffect, useRef, useState } from "react";
import { errorText } from "../api/client";
import { mergeTranscript, previewApi, type PreviewAction, type PreviewTranscript, type PreviewView } from "./api";

const WAIT_MS = 20_000;
const DOCUMENT_DEBOUNCE_MS = 600;

/** Where the preview bot's scenario comes from: a project (its saved or an unsaved document) or a template. */
export type PreviewSource = { projectId: number; templateId?: undefined } | { templateId: number; projectId?: undefined };

/** Whom the preview acts as: a preview user's key and the kind of chat. */
export type PreviewActorChoice = { user: string; chat: string };

export function usePreview(source: PreviewSource, document: unknown | undefined) {
  const { projectId, templateId } = source;
  const [view, setView] = useState<PreviewView | null>(null);
  const [transcript, setTranscript] = useState<PreviewTranscript | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [generation, setGeneration] = useState(0);
  const docRef = useRef(document);
  docRef.current = document;
  const idRef = useRef<string | null>(null);
  const transcriptRef = useRef<PreviewTranscript | null>(null);
  // a restart "from here": the document to start with once, and the first message to send
  const startRef = useRef<{ document: unknown; text: string } | null>(null);
  // a user or chat switch under way: the actor asked for, until its chat's transcript is here
  const [switching, setSwitching] = useState<PreviewActorChoice | null>(null);
  const switchingRef = useRef<PreviewActorChoice | null>(null);

  // start (and restart on demand); stop on unmount
  useEffect(() => {
    let cancelled = false;
    const aborter = new AbortController();
    setView(null);
    setTranscript(null);
    transcriptRef.current = null;
    switchingRef.current = null;
    setSwitching(null);
    setError(null);
    const start = startRef.current;
    startRef.current = null;
    (templateId !== undefined ? previewApi.createForTemplate(templateId) : previewApi.create(projectId!, start?.document ?? docRef.current))
      .then(async (v) => {
        if (cancelled) return void previewApi.stop(v.id).catch(() => undefined);
        idRef.current = v.id;
        setView(v);
        if (start) await previewApi.act(v.id, { type: "text", text: start.text }).catch((e) => setError(errorText(e)));
        // the first answer is the whole chat; later ones only what changed (merged here)
        let after = 0;
        let whole = true;
        while (!cancelled) {
          try {
            const t = await previewApi.transcript(v.id, after, whole ? 0 : WAIT_MS, aborter.signal, !whole);
            if (cancelled) return;
            after = t.version;
            const current = transcriptRef.current;
            if (!whole && (!current || current.chatId !== t.chatId)) {
              whole = true; // the preview user switched chats meanwhile: read the new chat whole
              after = 0;
              continue;
            }
            const next = whole || !current ? t : mergeTranscript(current, t);
            whole = false;
            transcriptRef.current = next;
            setTranscript(next);
          } catch (e) {
            if (cancelled) return;
            setError(errorText(e));
            return;
          }
        }
      })
      .catch((e) => !cancelled && setError(errorText(e)));
    const leave = () => {
      const id = idRef.current;
      idRef.current = null;
      if (id) previewApi.stopOnLeave(id);
    };
    window.addEventListener("pagehide", leave);
    return () => {
      cancelled = true;
      aborter.abort();
      window.removeEventListener("pagehide", leave);
      leave();
    };
  }, [projectId, templateId, generation]);

  // an edited, unsaved document runs in the same session (chats and variables stay)
  const firstDoc = useRef(true);
  useEffect(() => {
    if (firstDoc.current) {
      firstDoc.current = false;
      return;
    }
    if (document === undefined) return;
    const timer = setTimeout(() => {
      const id = idRef.current;
      if (!id) return;
      previewApi.setDocument(id, document).then(setView, (e) => setError(errorText(e)));
    }, DOCUMENT_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [document]);

  /** Sends an action; answers the transcript version after it, or null when it was not sent or refused. */
  const act = useCallback(async (action: PreviewAction): Promise<number | null> => {
    const id = idRef.current;
    // mid-switch the server may already act as the new user, on a chat the screen does not show yet
    if (!id || switchingRef.current) return null;
    try {
      const { version } = await previewApi.act(id, action);
      setError(null);
      return version;
    } catch (e) {
      setError(errorText(e));
      return null;
    }
  }, []);

  /** Switches the preview user or chat; the new actor shows only with its own chat (docs/preview.md "In the Studio"). */
  const switchActor = useCallback(async (user: string, chat: string) => {
    const id = idRef.current;
    if (!id || switchingRef.current) return;
    switchingRef.current = { user, chat };
    setSwitching({ user, chat });
    let switched: PreviewView | null = null;
    try {
      switched = await previewApi.setActor(id, { user, chat });
      // the transcript follows the current chat: ask again at once
      const whole = await previewApi.transcript(id, 0, 0);
      if (idRef.current !== id) return; // restarted meanwhile
      transcriptRef.current = whole;
      setTranscript(whole);
      setView(switched);
    } catch (e) {
      if (idRef.current !== id) return;
      // switched without its transcript: the old chat stays hidden until the long poll reads the new one
      if (switched) setView(switched);
      setError(errorText(e));
    } finally {
      if (idRef.current === id) {
        switchingRef.current = null;
        setSwitching(null);
      }
    }
  }, []);

  const refreshView = useCallback(async () => {
    const id = idRef.current;
    if (id) setView(await previewApi.view(id));
  }, []);

  const restart = useCallback(() => setGeneration((g) => g + 1), []);
  /** A new chat on `document`, opened by sending `text` (the editor's "preview from this node"). */
  const restartWith = useCallback((document: unknown, text: string) => {
    startRef.current = { document, text };
    setGeneration((g) => g + 1);
  }, []);

  return { view, transcript, switching, error, act, switchActor, refreshView, restart, restartWith, sessionId: view?.id ?? null };
}
