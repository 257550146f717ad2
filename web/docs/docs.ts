/**
 * The API docs page: Swagger UI (loaded before this script, from this
 * sandbox) on the Pet Store interface at `/docs`, or on the control plane
 * at `/docs/control`. The specs served beside the page name this sandbox as
 * their only server, so "try it" reaches it whatever its host and port.
 *
 * One place to authorize: Swagger UI's own Authorize, which knows every
 * scheme of the spec (the control plane has two). On `/docs`, on this
 * machine, it is authorized already with the sandbox's first API key, which
 * the sandbox tells a loopback browser only (`/docs/api-key.json`), so the
 * first "Execute" is answered; elsewhere its box is empty. `/docs/control`
 * is never authorized for you: all but one of its operations need the admin
 * token, which is never filled in, and a button shown authorized by an API
 * key alone would promise what they refuse. Swagger UI keeps a credential
 * in memory only.
 */
interface SwaggerUi {
  preauthorizeApiKey(scheme: string, value: string): void;
}
interface SwaggerUiBundle {
  (options: Record<string, unknown>): SwaggerUi;
  presets: { apis: unknown };
}
declare const SwaggerUIBundle: SwaggerUiBundle;

const control = location.pathname.replace(/\/+$/, '') === '/docs/control';
const byId = (id: string) => document.getElementById(id) as HTMLElement;

byId(control ? 'nav-control' : 'nav-api').setAttribute('aria-current', 'page');

/** The key this sandbox lets this browser use on `/docs`, or null (the control plane's page, another machine's, or no answer). */
const apiKey: Promise<string | null> =
  control ?
    Promise.resolve(null)
  : fetch('/docs/api-key.json', { cache: 'no-store' })
      .then(async (res): Promise<{ apiKey?: unknown }> => (res.ok ? ((await res.json()) as { apiKey?: unknown }) : {}))
      .then((body) => (typeof body.apiKey === 'string' && body.apiKey !== '' ? body.apiKey : null))
      .catch(() => null);

const ui = SwaggerUIBundle({
  url: control ? '/docs/sandbox-control.json' : '/docs/openapi.json',
  dom_id: '#swagger-ui',
  presets: [SwaggerUIBundle.presets.apis],
  // The default would send the spec to validator.swagger.io: nothing leaves the machine.
  validatorUrl: null,
  // Deep links put a link inside each operation's toggle button: nested controls a screen reader cannot reach.
  deepLinking: false,
  displayOperationId: true,
  persistAuthorization: false,
  tryItOutEnabled: true,
  // Authorizing needs the spec's schemes: only once it is loaded.
  onComplete: () =>
    void apiKey.then((key) => {
      if (key !== null) ui.preauthorizeApiKey('bearerAuth', key);
    }),
});

/** What each of Swagger UI's credential boxes takes, by its scheme's name, named in the box while it is empty. */
const PLACEHOLDERS: [scheme: RegExp, text: string][] = [
  [/\badminToken\b/, 'the admin token'],
  [/\bmetricsToken\b/, 'the metrics token'],
];
const placeholderOf = (box: Element): string => {
  const scheme = box.closest('.auth-container')?.querySelector('h4')?.textContent ?? '';
  return PLACEHOLDERS.find(([name]) => name.test(scheme))?.[1] ?? 'an API key';
};

// Swagger UI's server picker has a caption but no label: name it for assistive technology. Its credential boxes get a placeholder.
new MutationObserver(() => {
  document.querySelector('select#servers:not([aria-label])')?.setAttribute('aria-label', 'Server');
  for (const box of document.querySelectorAll('.auth-container input:not([placeholder])')) box.setAttribute('placeholder', placeholderOf(box));
}).observe(byId('swagger-ui'), { childList: true, subtree: true });
