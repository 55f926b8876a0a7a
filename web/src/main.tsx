// Entry of the Studio web app: data cache, translations, theme, then the routes.
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { ApiError } from "./api/client";
import { initI18n } from "./i18n";
import { applyTheme, storedTheme } from "./theme";
import { AppRoutes } from "./routes";
// uPlot's small stylesheet rides with the shell: a lazily loaded chunk's CSS is not linked by itself.
import "uplot/dist/uPlot.min.css";

applyTheme(storedTheme());
initI18n();

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      refetchOnWindowFocus: false,
      // A 4xx will not heal by asking again.
      retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
    },
  },
});

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <AppRoutes />
    </QueryClientProvider>
  </StrictMode>,
);
