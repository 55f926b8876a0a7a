// An invoice's Pay in the preview chat (docs/nodes/payments.md "In the preview"). Pressed, it waits
// for the bot's answer to the checkout, disabled and saying so: a second press would only be
// refused. The bot confirms: "✓ Paid" takes its place; it refuses: Pay is active again, over the
// bot's reason (or over the note that the bot did not answer in time).
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { PreviewEntry } from "./api";

interface Props {
  entry: PreviewEntry & { invoice: NonNullable<PreviewEntry["invoice"]>; messageId: number };
  /** sends the Pay; answers the transcript version of its change, or null when it was refused */
  onPay: (messageId: number) => Promise<number | null>;
}

export function InvoicePay({ entry, onPay }: Props) {
  const { t } = useTranslation();
  // From the press until the chat has read the entry as the Pay changed it (pending, or already
  // answered): the version the Pay answers, Infinity until it has answered.
  const [pressed, setPressed] = useState<number | null>(null);
  const invoice = entry.invoice;
  if (invoice.paid) return <div className="pv-row"><span className="pv-key pv-paid">{t("preview.paid", { amount: invoice.amount })}</span></div>;
  const waiting = invoice.pending || (pressed !== null && entry.v < pressed);
  const pay = () => {
    setPressed(Infinity);
    void onPay(entry.messageId).then(setPressed);
  };
  const why = waiting ? undefined : invoice.refusal ?? (invoice.expired ? t("preview.payExpired") : undefined);
  return (
    <>
      <div className="pv-row">
        <button type="button" className="btn pv-key pv-key-primary" disabled={waiting} aria-busy={waiting} onClick={pay}>
          {waiting ? t("preview.paying") : t("preview.pay", { amount: invoice.amount })}
        </button>
      </div>
      {why && <p className="pv-refusal" role="alert" data-testid="pv-refusal">{why}</p>}
    </>
  );
}
