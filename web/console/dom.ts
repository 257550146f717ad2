/**
 * Building the page from data, safely: every value goes in as a Text node
 * or an attribute set by name, never as HTML. Request bodies in the journal
 * come from anyone with an API key; a pet named `<img src=x onerror=...>`
 * shows as those characters.
 */
type Child = Node | string | number | boolean | null | undefined;

/** An element with attributes and children; strings and numbers become text. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  for (const child of children) if (child !== null && child !== undefined) node.append(typeof child === 'object' ? child : String(child));
  return node;
}

/** The element with this id, of the type the page gives it. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`The page has no #${id}.`);
  return node as T;
}

/** Replaces an element's children. */
export function fill(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  for (const child of children) if (child !== null && child !== undefined) parent.append(typeof child === 'object' ? child : String(child));
}

/** A line of news in a status element: what happened, or what went wrong. */
export function say(target: HTMLElement, message: string, failed = false): void {
  target.textContent = message;
  target.classList.toggle('error', failed);
}

/** A value of a form field by name, trimmed; '' when empty. */
export function field(form: HTMLFormElement, name: string): string {
  const value = new FormData(form).get(name);
  return typeof value === 'string' ? value.trim() : '';
}
