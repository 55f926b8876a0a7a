// The built-in templates, embedded in the binary (a compiled executable has no assets folder on
// disk). Each file is imported as TEXT so that its content hash is the hash of the file itself.
// Add a new template here too: test/templates/seed.test.ts fails when a .json file is not listed.
import appointmentBookingRu from "./appointment-booking-ru.json" with { type: "text" };
import faqEn from "./faq-en.json" with { type: "text" };
import faqRu from "./faq-ru.json" with { type: "text" };
import feedbackFormEn from "./feedback-form-en.json" with { type: "text" };
import feedbackFormRu from "./feedback-form-ru.json" with { type: "text" };
import newsletterSignupRu from "./newsletter-signup-ru.json" with { type: "text" };
import productCatalogRu from "./product-catalog-ru.json" with { type: "text" };
import questionnaireRu from "./questionnaire-ru.json" with { type: "text" };
import quizEn from "./quiz-en.json" with { type: "text" };
import quizRu from "./quiz-ru.json" with { type: "text" };
import supportContactsRu from "./support-contacts-ru.json" with { type: "text" };

export interface BuiltInTemplateFile {
  /** file name: the template's `system_key` */
  file: string;
  /** the file's text, exactly as shipped */
  text: string;
}

// TypeScript types a .json import as its parsed value; with `type: "text"` Bun hands over the text.
const text = (raw: unknown) => raw as unknown as string;

export const builtInTemplateFiles: BuiltInTemplateFile[] = [
  { file: "faq-ru.json", text: text(faqRu) },
  { file: "feedback-form-ru.json", text: text(feedbackFormRu) },
  { file: "questionnaire-ru.json", text: text(questionnaireRu) },
  { file: "appointment-booking-ru.json", text: text(appointmentBookingRu) },
  { file: "product-catalog-ru.json", text: text(productCatalogRu) },
  { file: "quiz-ru.json", text: text(quizRu) },
  { file: "support-contacts-ru.json", text: text(supportContactsRu) },
  { file: "newsletter-signup-ru.json", text: text(newsletterSignupRu) },
  { file: "faq-en.json", text: text(faqEn) },
  { file: "feedback-form-en.json", text: text(feedbackFormEn) },
  { file: "quiz-en.json", text: text(quizEn) },
];
