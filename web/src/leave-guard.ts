// Asks before unsaved work is left behind (docs/editor.md "Leaving with unsaved changes"): closing
// or reloading the tab (beforeunload) and moving inside the app. wouter moves with
// history.pushState/replaceState and follows Back/Forward through popstate, so those are where the
// question goes; this module is imported by the routes, before wouter subscribes to popstate, so
// a refused Back never reaches the router.
import { useEffect } from "react";

interface Guard {
  message: string;
  /** the page being guarded; moving within it (a query, a hash) is not leaving */
  path: string;
}

let guard: Guard | null = null;
/** the guarded page's address, to put back when Back was refused */
let guardedHref = "";

const leaves = (url: string | URL | null | undefined): boolean => {
  if (!guard || url === null || url === undefined) return false;
  return new URL(String(url), location.href).pathname !== guard.path;
};

function onBeforeUnload(e: BeforeUnloadEvent) {
  if (!guard) return;
  e.preventDefault();
  e.returnValue = ""; // older engines need it set to show the question
}

if (typeof window !== "undefined") {
  for (const name of ["pushState", "replaceState"] as const) {
    const original = history[name];
    history[name] = function (this: History, data: unknown, unused: string, url?: string | URL | null) {
      if (leaves(url) && !window.confirm(guard!.message)) return;
      if (leaves(url)) guard = null; // the person chose to leave: the next page asks nothing
      return original.call(this, data, unused, url);
    };
  }
  window.addEventListener("popstate", (e) => {
    if (!guard || location.pathname === guard.path) return;
    if (window.confirm(guard.message)) {
      guard = null;
      return;
    }
    e.stopImmediatePropagation();
    history.pushState(history.state, "", guardedHref);
  });
  window.addEventListener("beforeunload", onBeforeUnload);
}

/** While `active`, leaving the current page (in the app, reload, close) asks `message` first. */
export function useLeaveGuard(active: boolean, message: string) {
  useEffect(() => {
    if (!active) return;
    const mine: Guard = { message, path: location.pathname };
    guard = mine;
    guardedHref = location.href;
    return () => {
      if (guard === mine) guard = null;
    };
  }, [active, message]);
}
