// The API page (/docs): starts Swagger UI on the document its container names. It lives in a
// file of its own because the site's Content-Security-Policy allows no inline script.

const container = document.getElementById("swagger-ui-container");
window.ui = window.SwaggerUIBundle({
  url: container.dataset.url,
  dom_id: "#swagger-ui-container",
  ...JSON.parse(container.dataset.config || "{}"),
});
