// Starts the bundled Swagger UI on this server's OpenAPI document. Kept in a file (no inline
// script) so the page works under a Content-Security-Policy without 'unsafe-inline' scripts;
// validatorUrl null: the viewer would otherwise send the document to validator.swagger.io.
window.addEventListener("load", () => {
  window.ui = globalThis.SwaggerUIBundle({
    url: "/api/openapi.json",
    dom_id: "#swagger-ui",
    deepLinking: true,
    validatorUrl: null,
    presets: [globalThis.SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
  });
});
