// A service message of the chat, as Telegram shows it: a line of the chat itself, not a bubble of
// either side. The one the preview has is a payment the bot confirmed (successful_payment).
import { useTranslation } from "react-i18next";
import type { PreviewEntry } from "./api";

interface Props {
  entry: PreviewEntry;
  /** the bot's name, as the chat's header shows it */
  bot: string;
  /** the payer's full name when it is not the preview user looking at the chat (a group) */
  payer?: string;
}

export function ServiceLine({ entry, bot, payer }: Props) {
  const { t } = useTranslation();
  if (!entry.payment) return null;
  const amount = entry.payment.amount;
  const text = payer ? t("preview.paymentDoneBy", { user: payer, amount, bot }) : t("preview.paymentDone", { amount, bot });
  return <li className={entry.deleted ? "pv-service pv-deleted" : "pv-service"} role="status" data-testid="pv-service">{text}</li>;
}
