// The preview chat for its two uses: the project's "Preview" tab and the editor's side panel.
export { PreviewChat, PreviewTab, type PreviewChatProps } from "./PreviewChat";
export type { PreviewEntry } from "./api";
