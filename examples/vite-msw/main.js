/* global document, window */
// The page's entry. In the dev server the sandbox answers its API in the page, through MSW's service worker;
// a production build calls the real API. Both are imported lazily and only in development, so that
// `vite build` drops them: the production bundle holds none of the sandbox, and no chunk nears Vite's 500 kB warning.
const API = '/v1';
const headers = { authorization: 'Bearer sandbox-key' };

async function startSandbox() {
  if (!import.meta.env.DEV) return; // a production build drops the branch, and both imports with it
  const [{ setupWorker }, { sandboxHandlers }] = await Promise.all([import('msw/browser'), import('petstore-sandbox/msw')]);
  const sandbox = sandboxHandlers({ seed: 7, count: 5, origin: window.location.origin });
  await setupWorker(...sandbox.handlers).start({ onUnhandledFrame: 'bypass' });
}

async function showPets() {
  const list = document.querySelector('#pets');
  const status = document.querySelector('#status');
  const answer = await fetch(`${API}/pets?limit=100`, { headers });
  if (!answer.ok) {
    status.textContent = `The pets could not be loaded (${answer.status}).`;
    return;
  }
  const pets = await answer.json();
  list.replaceChildren(...pets.map((pet) => Object.assign(document.createElement('li'), { textContent: pet.name })));
  status.textContent = `${pets.length} pets`;
}

await startSandbox();
await showPets();
