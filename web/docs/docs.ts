/**
 * The API docs page: Swagger UI (loaded before this script, from this
 * sandbox) on the APIs the sandbox serves at `/docs` (the Pet Store, or
 * each spec of `--spec`, chosen in a selector when there are several), or
 * on the control plane at `/docs/control`. The specs served beside the page
 * name this sandbox as their only server, so "try it" reaches it whatever
 * its host and port.
 *
 * One place to authorize: Swagger UI's own Authorize, which knows every
 * scheme of the spec (the control plane has two). On `/docs`, on this
 * machine, it is authorized already with the sandbox's first API key (every
 * scheme that takes it as it is: a bearer token, an API key in a header),
 * which the sandbox tells a loopback browser only (`/docs/api-key.json`), so the
 * first "Execute" is answered; elsewhere its box is empty. `/docs/control`
 * is never authorized for you: all but one of its operations need the admin
 * token, which is never filled in, and a button shown authorized by an API
 * key alone would promise what they refuse. Swagger UI keeps a credential
 * in memory only.
 */
interface SwaggerUi {
  preauthorizeApiKey(scheme: string, value: string): void;
  specSelectors: { specJson(): { getIn(path: string[]): { toJS(): unknown } | undefined } };
  specActions: { updateUrl(url: string): void; download(url: string): void };
}
interface SwaggerUiBundle {
  (options: Record<string, unknown>): SwaggerUi;
  presets: { apis: unknown };
}
declare const SwaggerUIBundle: SwaggerUiBundle;

/** An API the sandbox serves, as `/docs/apis.json` lists it. */
interface ListedApi {
  name: string;
  url: string;
  base: string;
}

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

/** The APIs this sandbox serves (several with `--spec`); none known: the first, as `/docs/openapi.json`. */
const served: Promise<ListedApi[]> =
  control ?
    Promise.resolve([])
  : fetch('/docs/apis.json')
      .then(async (res) => (res.ok ? ((await res.json()) as { apis: ListedApi[] }).apis : []))
      .catch(() => []);

/**
 * Every scheme of the shown spec that takes the key as it is, authorized
 * with it: an API key in a header, the query or a cookie (`X-Api-Key`), or
 * a bearer token. Basic and OAuth schemes are left to Authorize.
 */
function authorize(ui: SwaggerUi, key: string): void {
  const schemes = (ui.specSelectors.specJson().getIn(['components', 'securitySchemes'])?.toJS() ?? {}) as Record<string, { type?: string; scheme?: string }>;
  for (const [name, scheme] of Object.entries(schemes))
    if (scheme.type === 'apiKey' || (scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'bearer')) ui.preauthorizeApiKey(name, key);
}

/** The API selector, when the sandbox serves several: Swagger UI then shows the chosen one's spec. */
function offerApis(ui: SwaggerUi, apis: readonly ListedApi[], shown: ListedApi): void {
  const select = document.createElement('select');
  select.id = 'api-select';
  for (const api of apis) select.append(new Option(api.name, api.url, false, api === shown));
  const label = document.createElement('label');
  label.htmlFor = select.id;
  label.textContent = 'API';
  const choice = document.createElement('span');
  choice.className = 'api-choice';
  choice.append(label, ' ', select);
  byId('nav-api').textContent = `APIs (${apis.length})`;
  byId('nav-api').after(choice);
  select.addEventListener('change', () => {
    const api = apis.find((one) => one.url === select.value);
    if (!api) return;
    history.replaceState(null, '', `?api=${encodeURIComponent(api.base || '/')}`);
    ui.specActions.updateUrl(api.url);
    ui.specActions.download(api.url);
  });
}

void served.then((apis) => {
  // `?api=/api/v2` opens that API's spec; else the first.
  const asked = new URLSearchParams(location.search).get('api');
  const shown = apis.find((api) => (api.base || '/') === asked) ?? apis[0];
  const ui = SwaggerUIBundle({
    url:
      control ? '/docs/sandbox-control.json'
      : shown && shown !== apis[0] ? shown.url
      : '/docs/openapi.json',
    dom_id: '#swagger-ui',
    presets: [SwaggerUIBundle.presets.apis],
    // The default would send the spec to validator.swagger.io: nothing leaves the machine.
    validatorUrl: null,
    // Deep links put a link inside each operation's toggle button: nested controls a screen reader cannot reach.
    deepLinking: false,
    displayOperationId: true,
    persistAuthorization: false,
    tryItOutEnabled: true,
    // Authorizing needs the spec's schemes: once each spec is loaded (the first, and each one chosen after).
    onComplete: () =>
      void apiKey.then((key) => {
        if (key !== null) authorize(ui, key);
      }),
  });
  if (shown && apis.length > 1) offerApis(ui, apis, shown);
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
