// Who is signed in: GET /api/auth/me (401 → nobody). Pages behind RequireAuth send a guest to /login.
import type { ReactNode } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Redirect } from "wouter";
import { ApiError, get, post } from "./api/client";
import type { AuthConfig, User } from "./api/types";
import { useTranslation } from "react-i18next";

export const meKey = ["auth", "me"] as const;

export function useMe() {
  return useQuery({
    queryKey: meKey,
    queryFn: async () => {
      try {
        return (await get<{ user: User }>("/api/auth/me")).user;
      } catch (e) {
        if (e instanceof ApiError && (e.status === 401 || e.status === 503)) return null;
        throw e;
      }
    },
  });
}

export function useAuthConfig() {
  return useQuery({ queryKey: ["auth", "config"], queryFn: () => get<AuthConfig>("/api/auth/config") });
}

export function useLogout() {
  const qc = useQueryClient();
  return async () => {
    await post("/api/auth/logout").catch(() => undefined);
    qc.clear();
    location.assign("/login");
  };
}

export function displayName(u: Pick<User, "firstName" | "lastName" | "username" | "id">): string {
  const full = [u.firstName, u.lastName].filter(Boolean).join(" ");
  return full || (u.username ? `@${u.username}` : `#${u.id}`);
}

export function RequireAuth({ children }: { children: ReactNode }) {
  const me = useMe();
  const { t } = useTranslation();
  if (me.isPending) return <p className="page-status">{t("common.loading")}</p>;
  if (me.isError) return <p className="page-status error">{t("common.error")}</p>;
  if (!me.data) return <Redirect to={`/login?next=${encodeURIComponent(location.pathname + location.search)}`} />;
  return <>{children}</>;
}
