/**
 * The API docs page: Swagger UI (loaded before this script, from this
 * sandbox) on the Pet Store interface at `/docs`, or on the control plane
 * at `/docs/control`. The specs served beside the page name this sandbox as
 * their only server, so "try it" reaches it whatever its host and port.
 * The credential typed in the bar is kept by Swagger UI in memory only.
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
byId('credential-label').textContent = control ? 'Admin token' : 'API key';
(byId('credential') as HTMLInputElement).placeholder = control ? 'sandbox-admin' : 'sandbox-key';

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
});

// Swagger UI's server picker has a caption but no label: name it for assistive technology.
new MutationObserver(() => document.querySelector('select#servers:not([aria-label])')?.setAttribute('aria-label', 'Server')).observe(byId('swagger-ui'), {
  childList: true,
  subtree: true,
});

byId('credential-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const value = (byId('credential') as HTMLInputElement).value.trim();
  if (value !== '') ui.preauthorizeApiKey(control ? 'adminToken' : 'bearerAuth', value);
});
