// Starts the bundled Swagger UI on this server's OpenAPI document. Kept in a file (no inline
// script) so the page works under a Content-Security-Policy without 'unsafe-inline' scripts;
// validatorUrl null: the viewer would otherwise send the document to validator.swagger.io.
// docExpansion "none": the page opens on the list of tags (one per module), each group opening on
// a click, instead of every operation at once.
window.addEventListener("load", () => {
  window.ui = globalThis.SwaggerUIBundle({
    url: "/api/openapi.json",
    dom_id: "#swagger-ui",
    deepLinking: true,
    validatorUrl: null,
    docExpansion: "none",
    presets: [globalThis.SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
  });
});
