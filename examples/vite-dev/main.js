/* global document, FormData */
// The page's code: it knows only its API's base URL and key, as an app's configuration would give them.
const API = '/api/v1';
const headers = { authorization: 'Bearer sandbox-key' };

const list = document.querySelector('#pets');
const status = document.querySelector('#status');

async function showPets() {
  const answer = await fetch(`${API}/pets?limit=100`, { headers });
  if (!answer.ok) {
    status.textContent = `The pets could not be loaded (${answer.status}).`;
    return;
  }
  const pets = await answer.json();
  list.replaceChildren(...pets.map((pet) => Object.assign(document.createElement('li'), { textContent: pet.name })));
  status.textContent = `${pets.length} pets`;
}

document.querySelector('#add').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  const name = new FormData(form).get('name');
  const answer = await fetch(`${API}/pets`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ name, categoryId: 1 }),
  });
  if (answer.ok) form.reset();
  else status.textContent = (await answer.json()).message;
  await showPets();
});

await showPets();
