declare module "*.sql" {
  const text: string;
  export default text;
}
declare module "*.html" {
  const text: string;
  export default text;
}
declare module "*.css" {
  const text: string;
  export default text;
}
declare module "*.mjs" {
  const text: string;
  export default text;
}
// Files of npm packages embedded with `with { type: "file" }`: the import is the file's path
// (inside the compiled executable, a path in its embedded file system).
declare module "swagger-ui-dist/*" {
  const path: string;
  export default path;
}
declare module "*/init.js" {
  const path: string;
  export default path;
}
