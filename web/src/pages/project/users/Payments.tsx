// A bot user's Stars payments on their card, newest first (docs/nodes/payments.md "Payments on
// the user's card"). Payloads come from the scenario, charge ids from the messenger: text only.
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { get } from "../../../api/client";
import type { Answer } from "../../../api/types";
import { ErrorLine, useDates } from "../../../components/ui";

type PaymentsPage = Answer<"/api/bot/tokens/{tokenId}/users/{userId}/payments">;

export function Payments({ tokenId, userId }: { tokenId: number; userId: string }) {
  const { t } = useTranslation();
  const { dateTime } = useDates();
  const q = useQuery({ queryKey: ["bot-user-payments", tokenId, userId], queryFn: () => get<PaymentsPage>(`/api/bot/tokens/${tokenId}/users/${encodeURIComponent(userId)}/payments`) });
  const page = q.data;
  return (
    <div className="stack" data-testid="user-payments">
      <h3>{t("people.payments")}</h3>
      <ErrorLine error={q.error} />
      {page && page.items.length === 0 && <p className="muted small">{t("people.noPayments")}</p>}
      {page && page.items.length > 0 && (
        <ul className="plain stack">
          {page.items.map((p) => (
            <li key={p.chargeId}>
              <strong>{p.amount} {p.currency}</strong>{" "}
              <span className={p.status === "refunded" ? "badge warn-badge" : "badge"}>{t(`people.paymentStatus.${p.status}`)}</span>{" "}
              <span className="muted small">{dateTime(p.paidAt)}{p.refundedAt ? ` · ${t("people.refundedAt", { date: dateTime(p.refundedAt) })}` : ""}</span>
              <div className="muted small">{t("people.payload")}: <code>{p.payload}</code> · {t("people.charge")}: <code>{p.chargeId}</code></div>
            </li>
          ))}
        </ul>
      )}
      {page && page.total > page.items.length && <p className="muted small">{t("people.paymentsShown", { shown: page.items.length, total: page.total })}</p>}
    </div>
  );
}
