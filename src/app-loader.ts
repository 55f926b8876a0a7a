// `serve` loads the app's code after it listens (src/listener.ts), in slices with a turn of the event
// loop after each. Evaluating the whole app in one go held the thread for ~30 ms, and a health
// probe that arrived meanwhile waited for all of it; between slices the listener answers it, so it
// waits at most one slice (3–6 ms, bench/cold-start.ts). The slices only order the loading: each is
// a part that later ones share (the bundler gives every dynamically imported module its own chunk,
// and loads the shared ones with the first that needs them).

const immediate = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Lets requests that arrived meanwhile be answered (or held) now. Three turns of the event loop: a
 * new connection is accepted in one, its request read in the next, the answer written in the third.
 */
export async function turn() {
  for (let i = 0; i < 3; i++) await immediate();
}

const SLICES = [
  () => import("./db/client"), // drizzle and the tables
  () => import("./http/errors"), // Elysia and TypeBox
  () => import("./scenario/model"), // the scenario format's schemas
  () => import("./lib/shared-render"), // the runtime's renderer and cut, evaluated from its text: the generator's and campaigns'
  () => import("./scenario/codegen"),
  () => import("./modules/projects/service"),
  () => import("./bots/manager"),
];

export async function loadApp() {
  for (const slice of SLICES) {
    await slice();
    await turn();
  }
  const [{ buildContext }, { databaseOver }, { scheduleBackups }] = await Promise.all([
    import("./bootstrap"),
    import("./db/client"),
    import("./modules/backups/schedule"),
  ]);
  await turn();
  const { startServer } = await import("./server");
  await turn();
  return { buildContext, databaseOver, scheduleBackups, startServer };
}
