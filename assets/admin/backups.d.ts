// backups.js is browser code that the server embeds as text (`import ... with { type: "text" }`).
declare const text: string;
export default text;
