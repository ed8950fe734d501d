// The installable app's page side: registers the service worker (/sw.js, which keeps the shell
// and the last known answers of the API for when the network is down), shows a line while the
// page shows those answers, and forgets them when this browser signs out.

import { isOffline, OFFLINE_EVENT } from "./api.js";
import { ACCOUNT_EVENT, account } from "./storage.js";

const API_CACHES = "postplay-api";  // the service worker's copies of API answers (sw.js)

export function registerOffline() {
  const line = document.createElement("p");
  line.className = "offline";
  line.setAttribute("role", "status");
  line.hidden = !isOffline();  // the page's first answers may have come before this line
  line.textContent = "You are offline: this is the last known state of your games. Moves need the network.";
  document.querySelector("header.site").after(line);
  window.addEventListener(OFFLINE_EVENT, (event) => { line.hidden = !event.detail; });
  window.addEventListener(ACCOUNT_EVENT, () => {
    if (!account() && "caches" in window) caches.delete(API_CACHES);
  });
  if (!("serviceWorker" in navigator)) return;
  // after the page has loaded: installing never competes with the first page's own requests
  const register = () => navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
  if (document.readyState === "complete") setTimeout(register, 1000);
  else window.addEventListener("load", () => setTimeout(register, 1000), { once: true });
}
