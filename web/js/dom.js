// Small DOM helpers: build HTML and SVG elements from a tag, attributes and children.

const SVG_NS = "http://www.w3.org/2000/svg";

function build(el, attrs, children) {
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      el.addEventListener(name.slice(2), value);
    } else if (name === "class" && Array.isArray(value)) {
      el.setAttribute("class", value.filter(Boolean).join(" "));
    } else if (name === "dataset") {
      Object.assign(el.dataset, value);
    } else if (name === "style") {
      el.style.cssText = value;  // through the CSSOM: the Content-Security-Policy refuses style attributes
    } else if (name === "value" && "value" in el) {
      el.value = value;
    } else if (name === "checked" || name === "disabled" || name === "selected") {
      el[name] = Boolean(value);
    } else {
      el.setAttribute(name, value === true ? "" : String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** An HTML element: h("button", {class: "x", onclick: f}, "Label"). */
export function h(tag, attrs, ...children) {
  return build(document.createElement(tag), attrs, children);
}

/** An SVG element, same calling convention as h(). */
export function s(tag, attrs, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** Replace an element's children. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** An alert box for a page's refusals and errors, hidden until showAlert() fills it. */
export function alertBox() {
  return h("div", { class: "alert", role: "alert", hidden: true });
}

/** Show `message` in an alert box, or hide the box when there is none. */
export function showAlert(box, message) {
  box.hidden = !message;
  box.textContent = message || "";
}

/**
 * Show a refusal next to the control that caused it: in the `.refusal` live region (role=alert,
 * so screen readers announce it) right after `control`'s closest `[data-refusal-row]` (or after
 * the control itself), made on first use, then scrolled into view. `message` null clears it.
 */
export function showRefusal(control, message) {
  const row = control.closest("[data-refusal-row]") || control;
  let note = row.nextElementSibling?.classList.contains("refusal") ? row.nextElementSibling : null;
  if (!message) {
    if (note) note.hidden = true;
    return;
  }
  if (!note) {
    note = h("p", { class: "refusal", role: "alert" });
    row.after(note);
  }
  note.hidden = false;
  note.textContent = message;
  note.scrollIntoView({ block: "nearest" });
}

/** Submit a form's request: `button` disabled meanwhile, the refusal shown next to it (or in
 *  `alert` when one is given) on failure and cleared on success. Returns `action`'s value, or
 *  undefined when it failed. */
export async function submitting(button, alert, action) {
  const show = (message) => (alert ? showAlert(alert, message) : showRefusal(button, message));
  button.disabled = true;
  try {
    const value = await action();
    show(null);
    return value;
  } catch (err) {
    show(err.message);
    return undefined;
  } finally {
    button.disabled = false;
  }
}
